/**
 * The authorization matrix (Tests): every API endpoint against eight actors, on a real server (in-memory
 * PGlite) with a library made for it. Each row names an endpoint and what each actor gets; every answer is also
 * searched for text, decode markup, audio URLs and speech marks the actor is not entitled to.
 *
 * The library: `open-sky` (ASSIGNED by the licensed teacher) with a free en:ORIGINAL, a locked level (en:GOLD), a
 * locked language (ru:ORIGINAL) and a free text whose narration needs AUDIO (es:ORIGINAL); `secret-garden`, premium
 * (ASSIGNED); and `far-hills` with en:GOLD, which the teacher did NOT assign (a student has no features there).
 * Every gated text carries a marker word that must not appear in any answer to an actor who may not read it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { getJson, licensedTeacher, signUpUser, startFixtureServer } from './harness';
import { createOrganization, grantLicense, makeOrgAdmin, makeTeacher, setRole, setTitleStatus } from '../../server/accounts/service';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE, PREMIUM_CONTENT_MESSAGE } from '../../src/domain/access';
import { sampleBundle, zipOf } from '../roster/fixtures';

// ---- the library -------------------------------------------------------------------------------------------

const COVER = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40"><rect width="30" height="40" fill="#103a3a"/></svg>';

/** Marker words, one per gated text (and the free ones, to check they do arrive). */
const W = {
  free: 'Freebird',
  free2: 'Openfield',
  gold: 'Goldfinch',
  ru: 'Rubicon',
  es: 'Esmeralda',
  esGold: 'Esgoldina',
  premium: 'Plumtree',
  hillFree: 'Hillock',
  hillGold: 'Hilltopper',
  upload: 'Uploaded',
};

function writeLibrary(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-authz-'));
  const title = (slug: string, yaml: string, editions: Record<string, string>) => {
    fs.mkdirSync(path.join(dir, slug, 'images'), { recursive: true });
    fs.writeFileSync(path.join(dir, slug, 'images/cover.svg'), COVER);
    fs.writeFileSync(path.join(dir, slug, 'publication.yaml'), `slug: ${slug}\nversion: 1\ncover: images/cover.svg\n${yaml}`);
    for (const [name, text] of Object.entries(editions)) {
      fs.mkdirSync(path.dirname(path.join(dir, slug, `${name}.md`)), { recursive: true });
      fs.writeFileSync(path.join(dir, slug, `${name}.md`), text);
    }
  };
  title('open-sky', 'title: Open Sky\nauthor: Ana Wren\ncreatedAt: 2026-01-05\ndefaultReader:\n  left: en:ORIGINAL\nqr:\n  - code: sky-1\n    edition: en:ORIGINAL\n    position: 1\n', {
    'en.ORIGINAL': `The ${W.free} flies over the sea.\n\n---\n\nThe ${W.free2} is green.`,
    'en.GOLD': `The ${W.gold} sings.\n\n---\n\nIt sings again.`,
    'ru.ORIGINAL': `Птица ${W.ru} летит над морем.\n\n---\n\nПоле зелёное.`,
    'es.ORIGINAL': `El pájaro ${W.es} vuela sobre el mar.\n\n---\n\nEl campo es verde.`,
    'sources/es.GOLD': `El pájaro ${W.esGold} canta.\n\n---\n\nCanta otra vez.`,
  });
  title('secret-garden', 'title: Secret Garden\nauthor: Bea Moss\ncreatedAt: 2026-02-05\nbadges: [premium]\ndefaultReader:\n  left: en:ORIGINAL\n', {
    'en.ORIGINAL': `The ${W.premium} grows by the wall.`,
  });
  title('far-hills', 'title: Far Hills\nauthor: Cy Dale\ncreatedAt: 2026-03-05\ndefaultReader:\n  left: en:ORIGINAL\n', {
    'en.ORIGINAL': `The ${W.hillFree} is far away.`,
    'en.GOLD': `The ${W.hillGold} is far.`,
  });
  return dir;
}

// ---- actors ------------------------------------------------------------------------------------------------

const ACTORS = ['anonymous', 'student', 'invalidCode', 'individual', 'licensedTeacher', 'unlicensedTeacher', 'otherSchoolTeacher', 'orgAdmin'] as const;
type Actor = (typeof ACTORS)[number];

/** Headers that make each actor (filled in beforeAll). */
const actorHeaders: Record<Actor, Record<string, string>> = Object.fromEntries(ACTORS.map((a) => [a, {}])) as never;

let server: RunningServer;
let ipCounter = 1;

function call(actor: Actor, method: string, pathname: string, body?: BodyInit | object) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': `198.18.0.${(ipCounter++ % 250) + 1}`, ...actorHeaders[actor] };
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return getJson(server, pathname, { method, headers, body: payload });
}

// ---- ids found after start ---------------------------------------------------------------------------------

const ids = {
  skyId: 0,
  farId: 0,
  gardenId: 0,
  enOriginal: 0,
  enGold: 0,
  ru: 0,
  es: 0,
  garden: 0,
  farGold: 0,
  upload: 0,
  uploadSlug: '',
  /** The licensed teacher's school, whose admins (the teacher and orgAdmin) may import its roster. */
  rosterOrgId: '',
  /** Passage ids at position 1. */
  pA: 0,
  pGold: 0,
  pRu: 0,
  pEs: 0,
  pGarden: 0,
  pFarGold: 0,
};
/** Things that must not leak to actors without the feature: MP3 URLs of gated narration, the decode markup. */
const secrets = { goldAudioUrl: '', esAudioUrl: '', decodedFree: '' };

async function until202Clears(pathname: string) {
  const stop = Date.now() + 30_000;
  for (;;) {
    const res = await call('licensedTeacher', 'GET', pathname);
    if (res.status !== 202 || Date.now() > stop) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  const saved = { c: process.env.NARRATION_CONCURRENCY, w: process.env.NARRATION_WAIT_MS };
  process.env.NARRATION_CONCURRENCY = '0';
  process.env.NARRATION_WAIT_MS = '0';
  try {
    server = await startFixtureServer({
      contentDir: writeLibrary(),
      accounts: {
        env: { TRUST_PROXY: 'true' },
        // The invalid-code actor guesses on every gated row; the limits themselves are tested in auth.test.ts.
        limits: { classCodeFailuresPerIp: { max: 100_000, windowMs: 60_000 }, classCodeFailuresPerClient: { max: 100_000, windowMs: 60_000 } },
      },
    });
  } finally {
    for (const [k, v] of [['NARRATION_CONCURRENCY', saved.c], ['NARRATION_WAIT_MS', saved.w]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const db = server.database.db;

  // The licensed teacher (every feature) and their school's admin; the student holds the teacher's class code.
  const teacher = await licensedTeacher(server, undefined, { ip: '198.19.0.1' });
  actorHeaders.licensedTeacher = { Cookie: teacher.cookie };
  const me = await call('licensedTeacher', 'GET', '/api/v1/users/me');
  actorHeaders.student = { 'X-Group-Code': me.body.groupCode, 'X-Client-Id': 'authz-student' };
  actorHeaders.invalidCode = { 'X-Group-Code': 'ZZZZ9999', 'X-Client-Id': 'authz-guesser' };

  const admin = await signUpUser(server, { name: 'Org Admin', ip: '198.19.0.2' });
  await makeOrgAdmin(db, admin.email, teacher.org.slug);
  await setRole(db, admin.userId, 'INDIVIDUAL');
  actorHeaders.orgAdmin = { Cookie: admin.cookie };
  ids.rosterOrgId = teacher.org.id;

  const individual = await signUpUser(server, { name: 'Solo Reader', ip: '198.19.0.3' });
  await setRole(db, individual.userId, 'INDIVIDUAL');
  actorHeaders.individual = { Cookie: individual.cookie };

  const unlicensed = await signUpUser(server, { name: 'New Teacher', ip: '198.19.0.4' });
  await makeTeacher(db, unlicensed.email);
  actorHeaders.unlicensedTeacher = { Cookie: unlicensed.cookie };

  // Another school, licensed for LEVELS and class codes only: premium titles and GOLD, not Russian, audio or decode.
  const other = await signUpUser(server, { name: 'Other Teacher', ip: '198.19.0.5' });
  await makeTeacher(db, other.email);
  const otherOrg = await createOrganization(db, `Other School ${Date.now()}`);
  await makeOrgAdmin(db, other.email, otherOrg.slug);
  await grantLicense(db, otherOrg.slug, ['GROUP_CODES', 'LEVELS'], null);
  actorHeaders.otherSchoolTeacher = { Cookie: other.cookie };

  // Ids.
  const detail = async (slug: string) => (await call('licensedTeacher', 'GET', `/api/v1/publications/${slug}`)).body;
  const sky = await detail('open-sky');
  const far = await detail('far-hills');
  const garden = await detail('secret-garden');
  const ed = (pub: any, language: string, level: string) => pub.editions.find((e: any) => e.language.code === language && e.level === level).id as number;
  Object.assign(ids, {
    skyId: sky.id,
    farId: far.id,
    gardenId: garden.id,
    enOriginal: ed(sky, 'en', 'ORIGINAL'),
    enGold: ed(sky, 'en', 'GOLD'),
    ru: ed(sky, 'ru', 'ORIGINAL'),
    es: ed(sky, 'es', 'ORIGINAL'),
    garden: ed(garden, 'en', 'ORIGINAL'),
    farGold: ed(far, 'en', 'GOLD'),
  });
  const first = async (editionId: number) => (await call('licensedTeacher', 'GET', `/api/v1/passages?editionId=${editionId}&position=1`)).body.id as number;
  ids.pA = await first(ids.enOriginal);
  ids.pGold = await first(ids.enGold);
  ids.pRu = await first(ids.ru);
  ids.pEs = await first(ids.es);
  ids.pGarden = await first(ids.garden);
  ids.pFarGold = await first(ids.farGold);

  // The teacher assigns open-sky and secret-garden, not far-hills.
  await setTitleStatus(db, teacher.userId, ids.skyId, 'ASSIGNED');
  await setTitleStatus(db, teacher.userId, ids.gardenId, 'ASSIGNED');

  // Narrate GOLD and Spanish passage 1, and decode the free English one, so there is something to leak.
  const gold = await until202Clears(`/api/v1/passages/${ids.pGold}/audio`);
  expect(gold.status).toBe(200);
  secrets.goldAudioUrl = gold.body.audio.url;
  const es = await until202Clears(`/api/v1/passages/${ids.pEs}/audio`);
  expect(es.status).toBe(200);
  secrets.esAudioUrl = es.body.audio.url;
  const decoded = await call('licensedTeacher', 'GET', `/api/v1/passages/${ids.pA}/decode`);
  expect(decoded.status).toBe(200);
  secrets.decodedFree = decoded.body.textDecoded;

  // The teacher's private upload (read by them and their class only).
  const data = new FormData();
  data.set('file', new File([`The ${W.upload} story is ours.`], 'ours.txt', { type: 'text/plain' }));
  const up = await call('licensedTeacher', 'POST', '/api/v1/uploads', data);
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  ids.upload = up.body.editionId;
  ids.uploadSlug = up.body.slug;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

// ---- expectations ------------------------------------------------------------------------------------------

/**
 * What an actor gets:
 *  - a number: exactly that status;
 *  - 'ok': allowed, 200 (201/202 where the endpoint may answer them: a build, narration still generating);
 *  - 'L' / 'G': 403 license_required / group_code_required;
 *  - 'PL' / 'PG': 200, the passage's blocked state (licenseRequired / groupCodeRequired, no text, no audio);
 *  - 'PC': 403 premium_content; 'IC': 403 invalid_group_code; 'F': 403 forbidden; 'U': 401 unauthorized.
 */
type Outcome = number | 'ok' | 'L' | 'G' | 'PL' | 'PG' | 'PC' | 'IC' | 'F' | 'U';
type Row = { name: string; method?: string; path: () => string; body?: (actor: Actor) => BodyInit | object | undefined; expect: Record<Actor, Outcome> };

const every = (o: Outcome): Record<Actor, Outcome> => Object.fromEntries(ACTORS.map((a) => [a, o])) as Record<Actor, Outcome>;
/** [anonymous, student, invalidCode, individual, licensedTeacher, unlicensedTeacher, otherSchoolTeacher, orgAdmin] */
const by = (...o: [Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome, Outcome]): Record<Actor, Outcome> =>
  Object.fromEntries(ACTORS.map((a, i) => [a, o[i]!])) as Record<Actor, Outcome>;

// Who may read what (LEVELS for GOLD and premium titles, LANGUAGES for Russian, AUDIO for Spanish narration, DECODE).
//                       anon  student invalid indiv  licensed unlic other admin
const GOLD_TEXT = by('PL', 'ok', 'PG', 'PL', 'ok', 'PL', 'ok', 'ok');
const GOLD_403 = by('L', 'ok', 'G', 'L', 'ok', 'L', 'ok', 'ok');
const RU_TEXT = by('PL', 'ok', 'PG', 'PL', 'ok', 'PL', 'PL', 'ok');
const RU_403 = by('L', 'ok', 'G', 'L', 'ok', 'L', 'L', 'ok');
const PREMIUM_403 = GOLD_403;
const UNASSIGNED_GOLD_TEXT = by('PL', 'PL', 'PG', 'PL', 'ok', 'PL', 'ok', 'ok');
const UNASSIGNED_GOLD_403 = by('L', 'L', 'G', 'L', 'ok', 'L', 'ok', 'ok');
/** Free text, locked narration (es needs AUDIO): license_required even for a wrong class code, the text being free. */
const ES_AUDIO_403 = by('L', 'ok', 'L', 'L', 'ok', 'L', 'L', 'ok');
const DECODE_FREE_403 = by('L', 'ok', 'L', 'L', 'ok', 'L', 'L', 'ok');
const DECODE_GOLD_403 = by('L', 'ok', 'G', 'L', 'ok', 'L', 'L', 'ok');
const DECODE_UNASSIGNED_403 = by('L', 'L', 'G', 'L', 'ok', 'L', 'L', 'ok');
const SIGNED_IN = by('U', 'U', 'U', 'ok', 'ok', 'ok', 'ok', 'ok');
const OWNER_AND_CLASS = by(404, 'ok', 404, 404, 'ok', 404, 404, 404);

const ROWS: Row[] = [
  // Service
  { name: 'GET /ping', path: () => '/api/v1/ping', expect: every('ok') },
  { name: 'GET /openapi.json', path: () => '/api/v1/openapi.json', expect: every('ok') },
  { name: 'GET /health', path: () => '/api/v1/health', expect: every('ok') },
  { name: 'GET /health/ready', path: () => '/api/v1/health/ready', expect: every('ok') },
  { name: 'GET /qr/{code}', path: () => '/api/v1/qr/sky-1', expect: every('ok') },

  // Catalog
  { name: 'GET /publications', path: () => '/api/v1/publications', expect: by('ok', 'ok', 'IC', 'ok', 'ok', 'ok', 'ok', 'ok') },
  { name: 'GET /publications?filter=assigned', path: () => '/api/v1/publications?filter=assigned', expect: by('F', 'ok', 'IC', 'F', 'ok', 'ok', 'ok', 'F') },
  { name: 'GET /publications?filter=unassigned', path: () => '/api/v1/publications?filter=unassigned', expect: by('F', 'ok', 'IC', 'F', 'ok', 'ok', 'ok', 'F') },
  { name: 'GET /publications/{free title}', path: () => '/api/v1/publications/open-sky', expect: every('ok') },
  { name: 'GET /publications/{premium title}', path: () => '/api/v1/publications/secret-garden', expect: by('PC', 'ok', 'PC', 'PC', 'ok', 'PC', 'ok', 'ok') },
  { name: 'GET /publications/{private upload}', path: () => `/api/v1/publications/${ids.uploadSlug}`, expect: OWNER_AND_CLASS },

  // Teaser excerpts
  { name: 'excerpt en:ORIGINAL', path: () => '/api/v1/publications/open-sky/editions/passage?language=en&level=ORIGINAL', expect: every('ok') },
  { name: 'excerpt en:GOLD', path: () => '/api/v1/publications/open-sky/editions/passage?language=en&level=GOLD', expect: GOLD_403 },
  { name: 'excerpt ru:ORIGINAL', path: () => '/api/v1/publications/open-sky/editions/passage?language=ru&level=ORIGINAL', expect: RU_403 },
  { name: 'excerpt premium', path: () => '/api/v1/publications/secret-garden/editions/passage', expect: PREMIUM_403 },
  { name: 'excerpt unassigned en:GOLD', path: () => '/api/v1/publications/far-hills/editions/passage?language=en&level=GOLD', expect: UNASSIGNED_GOLD_403 },

  // The EPUB export: gated text answers the gate's 403, never an empty book (docs/epub.md)
  { name: 'GET /publications/{slug}/editions/epub en:GOLD', path: () => '/api/v1/publications/open-sky/editions/epub?language=en&level=GOLD', expect: GOLD_403 },
  { name: 'GET /publications/{slug}/editions/epub ru:ORIGINAL', path: () => '/api/v1/publications/open-sky/editions/epub?language=ru&level=ORIGINAL', expect: RU_403 },

  // Passages
  { name: 'GET /passages en:ORIGINAL', path: () => `/api/v1/passages?editionId=${ids.enOriginal}&position=1`, expect: every('ok') },
  { name: 'GET /passages en:GOLD', path: () => `/api/v1/passages?editionId=${ids.enGold}&position=1`, expect: GOLD_TEXT },
  { name: 'GET /passages ru:ORIGINAL', path: () => `/api/v1/passages?editionId=${ids.ru}&position=1`, expect: RU_TEXT },
  { name: 'GET /passages es:ORIGINAL', path: () => `/api/v1/passages?editionId=${ids.es}&position=1`, expect: every('ok') },
  { name: 'GET /passages premium', path: () => `/api/v1/passages?editionId=${ids.garden}&position=1`, expect: GOLD_TEXT },
  { name: 'GET /passages unassigned en:GOLD', path: () => `/api/v1/passages?editionId=${ids.farGold}&position=1`, expect: UNASSIGNED_GOLD_TEXT },
  { name: 'GET /passages private upload', path: () => `/api/v1/passages?editionId=${ids.upload}&position=1`, expect: OWNER_AND_CLASS },

  // Narration
  { name: 'GET /passages/audioOnly en:ORIGINAL', path: () => `/api/v1/passages/audioOnly?editionId=${ids.enOriginal}&position=1`, expect: every('ok') },
  { name: 'GET /passages/audioOnly en:GOLD', path: () => `/api/v1/passages/audioOnly?editionId=${ids.enGold}&position=1`, expect: GOLD_TEXT },
  { name: 'GET /passages/audioOnly es:ORIGINAL', path: () => `/api/v1/passages/audioOnly?editionId=${ids.es}&position=1`, expect: ES_AUDIO_403 },
  { name: 'GET /passages/{id}/audio en:ORIGINAL', path: () => `/api/v1/passages/${ids.pA}/audio`, expect: every('ok') },
  { name: 'GET /passages/{id}/audio en:GOLD', path: () => `/api/v1/passages/${ids.pGold}/audio`, expect: GOLD_403 },
  { name: 'GET /passages/{id}/audio es:ORIGINAL', path: () => `/api/v1/passages/${ids.pEs}/audio?editionId=${ids.es}`, expect: ES_AUDIO_403 },
  { name: 'GET /passages/{id}/audio unassigned en:GOLD', path: () => `/api/v1/passages/${ids.pFarGold}/audio`, expect: UNASSIGNED_GOLD_403 },
  { name: 'GET /passages/{id}/audioOnly/onDemand ru:ORIGINAL', path: () => `/api/v1/passages/${ids.pRu}/audioOnly/onDemand`, expect: RU_403 },
  { name: 'GET /passages/{id}/audioOnly/onDemand premium', path: () => `/api/v1/passages/${ids.pGarden}/audioOnly/onDemand`, expect: PREMIUM_403 },
  { name: 'GET /passages/{id}/speechMarks en:GOLD', path: () => `/api/v1/passages/${ids.pGold}/speechMarks`, expect: GOLD_403 },
  { name: 'GET /passages/{id}/speechMarks es:ORIGINAL', path: () => `/api/v1/passages/${ids.pEs}/speechMarks`, expect: ES_AUDIO_403 },
  { name: 'GET /passages/{id}/speechMarks premium', path: () => `/api/v1/passages/${ids.pGarden}/speechMarks`, expect: PREMIUM_403 },
  { name: 'GET /audio/{unknown}.mp3', path: () => `/audio/en-us-${'0'.repeat(32)}.mp3`, expect: every(404) },

  // Decode
  { name: 'GET /passages/{id}/decode en:ORIGINAL', path: () => `/api/v1/passages/${ids.pA}/decode`, expect: DECODE_FREE_403 },
  { name: 'GET /passages/{id}/decode en:GOLD', path: () => `/api/v1/passages/${ids.pGold}/decode`, expect: DECODE_GOLD_403 },
  { name: 'GET /passages/{id}/decode unassigned en:GOLD', path: () => `/api/v1/passages/${ids.pFarGold}/decode`, expect: DECODE_UNASSIGNED_403 },

  // On-demand editions
  { name: 'POST on-demand en:ORIGINAL (exists)', method: 'POST', path: () => '/api/v1/publications/open-sky/sources/on-demand', body: () => ({ version: 'v1', languageCode: 'en', level: 'ORIGINAL' }), expect: every('ok') },
  {
    name: 'POST on-demand es:GOLD (from a source)',
    method: 'POST',
    path: () => '/api/v1/publications/open-sky/sources/on-demand',
    body: () => ({ version: 'v1', languageCode: 'es', level: 'GOLD' }),
    // es is a free language: LEVELS is enough.
    expect: GOLD_403,
  },
  {
    name: 'POST on-demand en:GOLD on the unassigned title (exists)',
    method: 'POST',
    path: () => '/api/v1/publications/far-hills/sources/on-demand',
    body: () => ({ version: 'v1', languageCode: 'en', level: 'GOLD' }),
    expect: UNASSIGNED_GOLD_403,
  },

  // Accounts
  { name: 'GET /auth/get-session', path: () => '/api/v1/auth/get-session', expect: every('ok') },
  // Forgot password: anyone may ask, and the answer never says whether the address has an account.
  {
    name: 'POST /auth/request-password-reset',
    method: 'POST',
    path: () => '/api/v1/auth/request-password-reset',
    body: (a) => ({ email: `reset.${a.toLowerCase()}@example.org` }),
    expect: every('ok'),
  },
  // A verified email change: asking changes nothing (a link goes to the new address).
  {
    name: 'POST /auth/change-email',
    method: 'POST',
    path: () => '/api/v1/auth/change-email',
    body: (a) => ({ newEmail: `moved.${a.toLowerCase()}@example.org` }),
    expect: SIGNED_IN,
  },
  { name: 'GET /auth/verify-email (a forged token)', path: () => '/api/v1/auth/verify-email?token=a.b.c', expect: every(400) },
  {
    name: 'POST /auth/reset-password (an unknown token)',
    method: 'POST',
    path: () => '/api/v1/auth/reset-password',
    body: () => ({ token: 'A'.repeat(24), newPassword: 'saffron-tide-beacon-4' }),
    expect: every(400),
  },
  { name: 'GET /users/me', path: () => '/api/v1/users/me', expect: SIGNED_IN },
  { name: 'GET /features/me', path: () => '/api/v1/features/me', expect: SIGNED_IN },
  { name: 'GET /visitors/me', path: () => '/api/v1/visitors/me', expect: every('ok') },
  { name: 'GET /users/titles', path: () => '/api/v1/users/titles', expect: by('U', 'ok', 'IC', 'ok', 'ok', 'ok', 'ok', 'ok') },
  {
    name: 'PATCH /users/me/role (to the role they have)',
    method: 'PATCH',
    path: () => '/api/v1/users/me/role',
    body: (a) => ({ role: a.endsWith('Teacher') ? 'TEACHER' : 'INDIVIDUAL' }),
    expect: SIGNED_IN,
  },
  // First-party analytics: anyone may send events; an invalid class code records no class owner.
  {
    name: 'POST /events',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => ({ clientId: globalThis.crypto.randomUUID(), events: [{ name: 'Viewed Catalog', at: new Date().toISOString() }] }),
    expect: every('ok'),
  },
  // Verified invitations: a new confirmation link, for a signed-in invitee only (none such here).
  {
    name: 'POST /invitations/{id}/confirmation-email (none such)',
    method: 'POST',
    path: () => '/api/v1/invitations/no-such-invitation/confirmation-email',
    expect: by('U', 'U', 'U', 404, 404, 404, 404, 404),
  },
  // Class activity: teachers only, counts of their own class (tests/server/classActivity.test.ts).
  { name: 'GET /users/me/class-activity', path: () => '/api/v1/users/me/class-activity', expect: by('U', 'U', 'U', 'F', 'ok', 'ok', 'ok', 'F') },
  {
    name: 'PATCH /users/titles/{id}/visibility (far-hills stays hidden)',
    method: 'PATCH',
    path: () => `/api/v1/users/titles/${ids.farId}/visibility`,
    body: () => ({ status: 'BLOCKED' }),
    expect: by('U', 'U', 'U', 'F', 'ok', 'ok', 'ok', 'F'),
  },

  // Uploads
  { name: 'GET /uploads', path: () => '/api/v1/uploads', expect: SIGNED_IN },
  { name: 'GET /uploads/cover.svg', path: () => '/api/v1/uploads/cover.svg', expect: every('ok') },
  {
    name: 'POST /uploads',
    method: 'POST',
    path: () => '/api/v1/uploads',
    body: () => {
      const data = new FormData();
      data.set('file', new File(['A short story of our own.'], 'mine.txt', { type: 'text/plain' }));
      return data;
    },
    expect: by('U', 'U', 'U', 'F', 'ok', 'F', 'F', 'F'),
  },
  { name: 'DELETE /uploads/{slug} (none such)', method: 'DELETE', path: () => '/api/v1/uploads/no-such-upload', expect: by('U', 'U', 'U', 404, 404, 404, 404, 404) },

  // Single sign-on: open to all; no provider is registered here, so an address routes nowhere (404),
  // and linking needs a session.
  { name: 'GET /sso/providers', path: () => '/api/v1/sso/providers', expect: every('ok') },
  { name: 'POST /sso/sign-in (an address with no provider)', method: 'POST', path: () => '/api/v1/sso/sign-in', body: () => ({ email: 'someone@nowhere.example' }), expect: every(404) },
  { name: 'POST /sso/link (no provider for the address)', method: 'POST', path: () => '/api/v1/sso/link', body: () => ({}), expect: by('U', 'U', 'U', 404, 404, 404, 404, 404) },

  // Staff rosters: the organization's admins only; an unknown organization is a 403 for everyone.
  { name: 'GET /organizations/{id}/roster', path: () => `/api/v1/organizations/${ids.rosterOrgId}/roster`, expect: by('U', 'U', 'U', 'F', 'ok', 'F', 'F', 'ok') },
  {
    name: 'POST /organizations/{id}/roster?dryRun=true (the sample roster)',
    method: 'POST',
    path: () => `/api/v1/organizations/${ids.rosterOrgId}/roster?dryRun=true`,
    body: () => new Blob([zipOf(sampleBundle())], { type: 'application/zip' }),
    expect: by('U', 'U', 'U', 'F', 'ok', 'F', 'F', 'ok'),
  },
  { name: 'GET /organizations/{id}/roster (an unknown organization)', path: () => '/api/v1/organizations/no-such-organization/roster', expect: by('U', 'U', 'U', 'F', 'F', 'F', 'F', 'F') },

  // Last: rotating a class code retires the student's (the licensed teacher's code is given back below).
  {
    name: 'POST /users/me/group-code',
    method: 'POST',
    path: () => '/api/v1/users/me/group-code',
    body: () => ({}),
    expect: by('U', 'U', 'U', 'F', 'ok', 'F', 'ok', 'F'),
  },
];

/** Marker words each actor must never see, and whether Spanish narration, GOLD narration and decode are theirs. */
const NOT_FOR: Record<Actor, { words: string[]; esAudio: boolean; goldAudio: boolean; decode: boolean }> = {
  anonymous: { words: [W.gold, W.ru, W.premium, W.hillGold, W.upload, W.esGold], esAudio: false, goldAudio: false, decode: false },
  student: { words: [W.hillGold], esAudio: true, goldAudio: true, decode: true },
  invalidCode: { words: [W.gold, W.ru, W.premium, W.hillGold, W.upload, W.esGold], esAudio: false, goldAudio: false, decode: false },
  individual: { words: [W.gold, W.ru, W.premium, W.hillGold, W.upload, W.esGold], esAudio: false, goldAudio: false, decode: false },
  licensedTeacher: { words: [], esAudio: true, goldAudio: true, decode: true },
  unlicensedTeacher: { words: [W.gold, W.ru, W.premium, W.hillGold, W.upload, W.esGold], esAudio: false, goldAudio: false, decode: false },
  otherSchoolTeacher: { words: [W.ru, W.upload], esAudio: false, goldAudio: true, decode: false },
  orgAdmin: { words: [W.upload], esAudio: true, goldAudio: true, decode: true },
};

function checkOutcome(actor: Actor, row: Row, res: { status: number; body: any; headers: Headers }) {
  const label = `${row.name} as ${actor}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
  const outcome = row.expect[actor];
  const error = (status: number, code: string, message?: string) => {
    expect(res.status, label).toBe(status);
    expect(res.body.errors[0].code, label).toBe(code);
    if (message) expect(res.body.errors[0].message, label).toBe(message);
  };
  switch (outcome) {
    case 'ok':
      expect([200, 201, 202], label).toContain(res.status);
      if (res.body && typeof res.body === 'object' && 'licenseRequired' in res.body) {
        expect(res.body.licenseRequired || res.body.groupCodeRequired, label).toBe(false);
        expect(res.body.text.length, label).toBeGreaterThan(0);
      }
      break;
    case 'L':
      error(403, 'license_required', LICENSE_REQUIRED_MESSAGE);
      break;
    case 'G':
      error(403, 'group_code_required', GROUP_CODE_REQUIRED_MESSAGE);
      break;
    case 'PC':
      error(403, 'premium_content', PREMIUM_CONTENT_MESSAGE);
      break;
    case 'IC':
      error(403, 'invalid_group_code', 'Invalid Class Code');
      break;
    case 'F':
      error(403, 'forbidden');
      break;
    case 'U':
      error(401, 'unauthorized');
      break;
    case 'PL':
    case 'PG':
      expect(res.status, label).toBe(200);
      expect(res.body, label).toMatchObject({ text: '', textDecoded: null, imageUrl: null, imageAlt: null, audio: null, licenseRequired: outcome === 'PL', groupCodeRequired: outcome === 'PG' });
      expect(res.headers.get('cache-control'), label).toBe('private, no-store');
      expect(res.headers.get('etag'), label).toBeNull();
      break;
    default:
      expect(res.status, label).toBe(outcome);
      expect(Array.isArray(res.body.errors), label).toBe(true);
  }
  // Nothing blocked carries narration or marks.
  if (typeof outcome === 'string' && outcome !== 'ok') {
    const text = JSON.stringify(res.body);
    expect(text, label).not.toContain('speechMarks');
    expect(text, label).not.toContain('/audio/');
  }
}

function checkNoLeak(actor: Actor, row: Row, res: { body: any }) {
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  const label = `${row.name} as ${actor}`;
  const not = NOT_FOR[actor];
  for (const word of not.words) expect(text, `${label} leaks '${word}'`).not.toContain(word);
  if (!not.esAudio) expect(text, `${label} leaks the Spanish narration`).not.toContain(secrets.esAudioUrl);
  if (!not.goldAudio) expect(text, `${label} leaks the GOLD narration`).not.toContain(secrets.goldAudioUrl);
  if (!not.decode) expect(text, `${label} leaks decode markup`).not.toContain(JSON.stringify(secrets.decodedFree).slice(1, -1));
}

describe('the authorization matrix', () => {
  it('has a row for every API route the server registers', () => {
    const registered = new Set(
      server.app.routes
        .filter((r) => r.method !== 'ALL' && (r.path.startsWith('/api/v1/') || r.path.startsWith('/audio')))
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`),
    );
    const covered = [
      'GET /api/v1/ping',
      'GET /api/v1/openapi.json',
      'GET /api/v1/health',
      'GET /api/v1/health/ready',
      'GET /api/v1/publications',
      'GET /api/v1/publications/{slug}',
      'GET /api/v1/publications/{slug}/editions/passage',
      'GET /api/v1/publications/{slug}/editions/epub',
      'POST /api/v1/publications/{slug}/sources/on-demand',
      'GET /api/v1/passages',
      'GET /api/v1/passages/{passageId}/decode',
      'GET /api/v1/passages/audioOnly',
      'GET /api/v1/passages/{passageId}/audio',
      'GET /api/v1/passages/{passageId}/audioOnly/onDemand',
      'GET /api/v1/passages/{passageId}/speechMarks',
      'GET /api/v1/qr/{qrCode}',
      'GET /api/v1/users/me',
      'PATCH /api/v1/users/me/role',
      'POST /api/v1/users/me/group-code',
      'GET /api/v1/users/me/class-activity',
      'POST /api/v1/events',
      'POST /api/v1/invitations/{invitationId}/confirmation-email',
      'GET /api/v1/features/me',
      'GET /api/v1/visitors/me',
      'GET /api/v1/users/titles',
      'PATCH /api/v1/users/titles/{titleId}/visibility',
      'GET /api/v1/uploads',
      'POST /api/v1/uploads',
      'GET /api/v1/uploads/cover.svg',
      'DELETE /api/v1/uploads/{slug}',
      'GET /api/v1/sso/providers',
      'POST /api/v1/sso/sign-in',
      'POST /api/v1/sso/link',
      'GET /api/v1/organizations/{organizationId}/roster',
      'POST /api/v1/organizations/{organizationId}/roster',
      'GET /audio/{file}',
    ];
    // The missing-id fallbacks (/passages/decode, /passages//decode) only answer 400, and /auth/* is better-auth's.
    const ignored = (route: string) => /\/passages\/+decode$/.test(route) || route.includes('/auth/');
    const uncovered = [...registered].filter((route) => !covered.includes(route) && !ignored(route));
    expect(uncovered, 'routes with no row in the matrix (add one)').toEqual([]);
  });

  for (const row of ROWS) {
    it(row.name, async () => {
      for (const actor of ACTORS) {
        const res = await call(actor, row.method ?? 'GET', row.path(), row.body?.(actor));
        checkOutcome(actor, row, res);
        checkNoLeak(actor, row, res);
        if (row.name === 'POST /users/me/group-code' && actor === 'licensedTeacher') {
          actorHeaders.student = { ...actorHeaders.student, 'X-Group-Code': res.body.groupCode };
        }
      }
    });
  }
});

describe('what the allowed get, and caching', () => {
  it('gives the free passage to everyone from the public cache, without decode markup or locked narration', async () => {
    const anon = await call('anonymous', 'GET', `/api/v1/passages?editionId=${ids.enOriginal}&position=1`);
    expect(anon.body.text).toContain(W.free);
    expect(anon.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    expect(anon.headers.get('etag')).toBeTruthy();
    expect(anon.body.textDecoded).toBeNull();
    // Decode markup is stored on the passage: a DECODE holder gets it, privately.
    const teacher = await call('licensedTeacher', 'GET', `/api/v1/passages?editionId=${ids.enOriginal}&position=1`);
    expect(teacher.body.textDecoded).toBe(secrets.decodedFree);
    expect(teacher.headers.get('cache-control')).toBe('private, no-store');

    // Spanish text is free; its narration is not.
    const es = await call('anonymous', 'GET', `/api/v1/passages?editionId=${ids.es}&position=1`);
    expect(es.body.text).toContain(W.es);
    expect(es.body.audio).toBeNull();
    const esStudent = await call('student', 'GET', `/api/v1/passages?editionId=${ids.es}&position=1`);
    expect(esStudent.body.audio.url).toBe(secrets.esAudioUrl);
    expect(esStudent.headers.get('cache-control')).toBe('private, no-store');
  });

  it('sends gated text only privately, never with a shared ETag', async () => {
    for (const actor of ['student', 'licensedTeacher', 'orgAdmin'] as const) {
      const res = await call(actor, 'GET', `/api/v1/passages?editionId=${ids.enGold}&position=1`);
      expect(res.body.text).toContain(W.gold);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('etag')).toBeNull();
    }
    const premium = await call('otherSchoolTeacher', 'GET', '/api/v1/publications/secret-garden');
    expect(premium.status).toBe(200);
    expect(premium.headers.get('cache-control')).toBe('private, no-store');
    const free = await call('anonymous', 'GET', '/api/v1/publications/open-sky');
    expect(free.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('lists only the assigned titles to a student, with search and paging; the teacher filters assigned and unassigned', async () => {
    const all = await call('anonymous', 'GET', '/api/v1/publications');
    expect(all.body.total).toBe(3);
    const student = await call('student', 'GET', '/api/v1/publications?filter=all');
    expect(student.body.items.map((i: any) => i.slug).sort()).toEqual(['open-sky', 'secret-garden']);
    expect(student.body.total).toBe(2);
    expect(student.headers.get('cache-control')).toBe('private, no-store');
    const searched = await call('student', 'GET', '/api/v1/publications?search=secret&pageSize=1');
    expect(searched.body).toMatchObject({ total: 1, items: [{ slug: 'secret-garden' }] });
    const paged = await call('student', 'GET', '/api/v1/publications?pageSize=1&page=2&sort=title_z_a');
    expect(paged.body).toMatchObject({ total: 2, page: 2, items: [{ slug: 'open-sky' }] });

    const assigned = await call('licensedTeacher', 'GET', '/api/v1/publications?filter=assigned');
    expect(assigned.body.items.map((i: any) => i.slug).sort()).toEqual(['open-sky', 'secret-garden']);
    expect(assigned.headers.get('cache-control')).toBe('private, no-store');
    const unassigned = await call('licensedTeacher', 'GET', '/api/v1/publications?filter=unassigned');
    expect(unassigned.body.items.map((i: any) => i.slug)).toEqual(['far-hills']);
    // Another school's teacher assigned nothing.
    expect((await call('otherSchoolTeacher', 'GET', '/api/v1/publications?filter=assigned')).body.total).toBe(0);
    // A signed-in teacher's class code header is ignored: the whole catalog.
    const both = await call('licensedTeacher', 'GET', '/api/v1/publications');
    expect(both.body.total).toBe(3);
    const bad = await call('anonymous', 'GET', '/api/v1/publications?filter=everything');
    expect(bad.status).toBe(400);
  });

  it('ignores a signed-in reader’s class code, good or bad', async () => {
    const headers = { ...actorHeaders.individual, 'X-Group-Code': 'ZZZZ9999' };
    const res = await getJson(server, `/api/v1/passages?editionId=${ids.enGold}&position=1`, { headers });
    expect(res.body.licenseRequired).toBe(true);
    expect(res.body.groupCodeRequired).toBe(false);
    const withStudentCode = await getJson(server, `/api/v1/passages?editionId=${ids.enGold}&position=1`, {
      headers: { ...actorHeaders.individual, 'X-Group-Code': actorHeaders.student['X-Group-Code']! },
    });
    expect(withStudentCode.body.licenseRequired).toBe(true);
  });
});
