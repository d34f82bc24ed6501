/**
 * Uploads (USER_UPLOAD) on a real server (in-memory PGlite, fixture library): a licensed teacher
 * uploads a text, it is split into passages, listed, read and narrated; it stays private to the teacher and the
 * teacher's class; bad files and the limits get clear errors. Licenses and roles are granted through the
 * functions the admin CLI uses. State-changing requests carry a same-origin Origin header (CSRF check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import { createOrganization, grantLicense, makeOrgAdmin, makeTeacher } from '../../server/accounts/service';
import { CurrentUserSchema, UploadListSchema, UploadSchema } from '../../src/domain/schemas';
import {
  DOCUMENT_MESSAGES,
  MAX_DOCUMENT_BYTES,
  MAX_UPLOADS_PER_TEACHER,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PASSAGES,
  PASSAGE_MAX_WORDS,
  UPLOAD_MESSAGES,
} from '../../server/uploads';

let server: RunningServer;

beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
const freshIp = () => `203.0.113.${(counter % 250) + 1}`;
const PASSWORD = 'violet-harbor-lantern';

interface CallOptions {
  cookie?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  json?: unknown;
}

function call(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'X-Forwarded-For': freshIp(), Origin: server.url, ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.json !== undefined) headers['Content-Type'] = 'application/json';
  return getJson(server, `/api/v1${path}`, { method, headers, body: options.json !== undefined ? JSON.stringify(options.json) : options.body });
}

async function signUp(name = 'Maria Montessori') {
  const email = `upload.${Date.now()}.${counter++}@example.org`;
  const res = await call('POST', '/auth/sign-up/email', { json: { email, password: PASSWORD, name } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { email, cookie };
}

/** A teacher of a licensed school (USER_UPLOAD and GROUP_CODES by default) and their class code. */
async function teacher(features: Parameters<typeof grantLicense>[2] = ['USER_UPLOAD', 'GROUP_CODES', 'AUDIO']) {
  const db = server.database.db;
  const { cookie, email } = await signUp();
  await makeTeacher(db, email);
  const org = await createOrganization(db, `Upload School ${Date.now()} ${counter++}`);
  await makeOrgAdmin(db, email, org.slug);
  await grantLicense(db, org.slug, features, null);
  const me = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
  return { cookie, code: me.groupCode };
}

function form(content: BlobPart | null, name = 'story.txt', fields: Record<string, string> = {}, type = 'text/plain'): FormData {
  const data = new FormData();
  if (content !== null) data.set('file', new File([content], name, { type }));
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

const upload = (cookie: string, data: FormData) => call('POST', '/uploads', { cookie, body: data });

function expectError(res: { status: number; body: any }, status: number, code: string, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errors[0].code).toBe(code);
  expect(res.body.errors[0].message.length).toBeGreaterThan(0);
  if (message) expect(res.body.errors[0].message).toMatch(message);
}

const sentence = (i: number) => `The river ${i} carried small boats past the old mill and the quiet houses.`;
/** A paragraph of `n` sentences (14 words each). */
const paragraph = (n: number, from = 0) => Array.from({ length: n }, (_, i) => sentence(from + i)).join(' ');
/** Five paragraphs of 56 words: grouped two to a passage (112 words), the last alone. */
const STORY = [paragraph(4, 0), paragraph(4, 10), paragraph(4, 20), paragraph(4, 30), paragraph(4, 40)].join('\n\n');

async function audioWhenReady(pathname: string, cookie: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call('GET', pathname, { cookie });
    if (res.status !== 202 || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('uploading a text', () => {
  it('splits a plain-text file into passages, lists it, reads it and narrates a passage', async () => {
    const { cookie } = await teacher();
    const res = await upload(cookie, form(STORY, 'the-river_story.txt'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = UploadSchema.parse(res.body);
    expect(created.title).toBe('the river story');
    expect(created.slug).toMatch(/^upload-[a-z0-9]{10}$/);
    expect(created.passageCount).toBe(3);
    expect(created.language).toBe('en');
    expect(created.readerUrl).toBe(`/${created.slug}/v1/en:original/1`);
    expect(created.notes).toEqual([]);

    const list = UploadListSchema.parse((await call('GET', '/uploads', { cookie })).body);
    expect(list.items.map((u) => u.slug)).toEqual([created.slug]);
    expect(list.canUpload).toBe(true);
    expect(list.limits).toEqual({
      maxBytes: MAX_UPLOAD_BYTES,
      maxDocumentBytes: MAX_DOCUMENT_BYTES,
      maxPassages: MAX_UPLOAD_PASSAGES,
      maxUploads: MAX_UPLOADS_PER_TEACHER,
    });

    const pub = await call('GET', `/publications/${created.slug}`, { cookie });
    expect(pub.status).toBe(200);
    expect(pub.headers.get('cache-control')).toBe('private, no-cache');
    expect(pub.body.title).toBe('the river story');
    expect(pub.body.author).toBe('Maria Montessori');
    const [edition] = pub.body.editions;
    expect(edition).toMatchObject({ id: created.editionId, level: 'ORIGINAL', passageCount: 3, audioEnabled: true, decodeEnabled: true });

    const first = await call('GET', `/passages?editionId=${edition.id}&position=1`, { cookie });
    expect(first.status).toBe(200);
    expect(first.body.text).toBe(`<p>${paragraph(4, 0)}</p><p>${paragraph(4, 10)}</p>`);
    expect((await call('GET', `/passages?editionId=${edition.id}&position=3`, { cookie })).body.text).toBe(`<p>${paragraph(4, 40)}</p>`);

    // The upload is not in the public catalog.
    const catalog = await call('GET', '/publications?pageSize=100', { cookie });
    expect(catalog.body.items.map((p: any) => p.slug)).not.toContain(created.slug);

    // Narration answers for an uploaded passage, to its owner (anonymous readers get the 404 of the gate).
    expect((await getJson(server, `/api/v1/passages/${first.body.id}/audio?editionId=${edition.id}`)).status).toBe(404);
    const owned = await audioWhenReady(`/passages/${first.body.id}/audio?editionId=${edition.id}`, cookie);
    expect(owned.status, JSON.stringify(owned.body)).toBe(200);
    expect(owned.body.status).toBe('ready');
    // English is narrated by Flite's slt voice by default (NARRATION_VOICE_EN), under a key of its own.
    expect(owned.body.audio.url).toMatch(/^\/audio\/flite-slt-[0-9a-f]{32}\.mp3$/);
    expect(owned.body.audio.voice).toBe('flite-slt');
    expect(owned.body.audio.speechMarks.length).toBeGreaterThan(10);
    const mp3 = await fetch(server.url + owned.body.audio.url);
    expect(mp3.status).toBe(200);
  }, 60_000);

  it('honours --- markers and headings in Markdown, a title and a language', async () => {
    const { cookie } = await teacher();
    const md = '# Part One\n## The Start\nHola, amigos.\n\n---\n\nSegundo *pasaje*.\n\n---\n\n## The End\nAdiós.';
    const res = await upload(cookie, form(md, 'cuento.md', { title: 'Mi cuento', language: 'es' }, 'text/markdown'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ title: 'Mi cuento', language: 'es', passageCount: 3 });
    const pub = (await call('GET', `/publications/${res.body.slug}`, { cookie })).body;
    expect(pub.editions[0].language.code).toBe('es');
    expect(pub.shortcuts).toEqual([
      { name: 'The Start', passage: 1 },
      { name: 'The End', passage: 3 },
    ]);
    const second = (await call('GET', `/passages?editionId=${pub.editions[0].id}&position=2`, { cookie })).body;
    expect(second.text).toBe('<p>Segundo <em>pasaje</em>.</p>');
    expect(second.partName).toBe('Part One');
  });

  it('starts a passage at each heading of a text without markers, and cuts long paragraphs at sentence ends', async () => {
    const { cookie } = await teacher();
    const text = `## One\n${paragraph(2)}\n\n## Two\n${paragraph(20)}`;
    const res = await upload(cookie, form(text, 'headings.md'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const pub = (await call('GET', `/publications/${res.body.slug}`, { cookie })).body;
    expect(pub.shortcuts.map((s: any) => s.name)).toEqual(['One', 'Two']);
    const id = pub.editions[0].id;
    expect(pub.editions[0].passageCount).toBe(3); // 28 words; then 280 words cut into 140 + 140
    for (let position = 1; position <= 3; position++) {
      const p = (await call('GET', `/passages?editionId=${id}&position=${position}`, { cookie })).body;
      expect(p.text.replace(/<[^>]+>/g, ' ').trim().split(/\s+/).length).toBeLessThanOrEqual(PASSAGE_MAX_WORDS);
    }
  });

  it('deletes an upload; it is gone for everyone', async () => {
    const { cookie } = await teacher();
    const { body } = await upload(cookie, form('A short note for the class.'));
    expect((await call('DELETE', `/uploads/${body.slug}`, { cookie })).status).toBe(204);
    expect((await call('GET', `/publications/${body.slug}`, { cookie })).status).toBe(404);
    expect((await call('GET', '/uploads', { cookie })).body.items).toEqual([]);
    expectError(await call('DELETE', `/uploads/${body.slug}`, { cookie }), 404, 'not_found', 'Upload not found');
  });
});

describe('privacy', () => {
  it('hides an upload from anonymous readers and other teachers, and shows it to the class', async () => {
    const owner = await teacher();
    const { body } = await upload(owner.cookie, form(STORY));
    const pub = (await call('GET', `/publications/${body.slug}`, { cookie: owner.cookie })).body;
    const editionId = pub.editions[0].id;
    const passage = (await call('GET', `/passages?editionId=${editionId}&position=1`, { cookie: owner.cookie })).body;

    const other = await teacher();
    for (const who of [{}, { cookie: other.cookie }, { headers: { 'X-Group-Code': other.code! } }] as CallOptions[]) {
      expectError(await call('GET', `/publications/${body.slug}`, who), 404, 'not_found', 'Publication not found');
      expectError(await call('GET', `/publications/${body.slug}/editions/passage`, who), 404, 'not_found', 'Publication not found');
      expectError(await call('GET', `/passages?editionId=${editionId}&position=1`, who), 404, 'not_found', 'Edition not found');
      expectError(await call('GET', `/passages/${passage.id}/audio`, who), 404, 'not_found', 'Passage not found');
      expectError(await call('GET', `/passages/${passage.id}/decode`, who), 404, 'not_found', 'Passage not found');
      expect((await call('GET', '/uploads', who)).body.items ?? []).toEqual([]);
      // Another teacher cannot delete it either.
      if (who.cookie) expectError(await call('DELETE', `/uploads/${body.slug}`, who), 404, 'not_found');
    }

    // A student with the owner's class code reads it (no account needed).
    const student = { headers: { 'X-Group-Code': owner.code!, 'X-Client-Id': 'student-7' } };
    expect((await call('GET', `/publications/${body.slug}`, student)).status).toBe(200);
    const read = await call('GET', `/passages?editionId=${editionId}&position=2`, student);
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-cache');
    expect((await call('GET', `/publications/${body.slug}/editions/passage?position=1`, student)).status).toBe(200);
    // The public library is unchanged for everyone.
    expect((await call('GET', '/publications/alpha-owls')).headers.get('cache-control')).toMatch(/^public/);
  });
});

describe('who may upload', () => {
  it('answers 401 without a session', async () => {
    expectError(await upload('', form(STORY)), 401, 'unauthorized');
    expectError(await call('GET', '/uploads'), 401, 'unauthorized');
    expectError(await call('DELETE', '/uploads/upload-abcdefghij'), 401, 'unauthorized');
  });

  it('answers 403 for a teacher without USER_UPLOAD and for a licensed non-teacher', async () => {
    const unlicensed = await teacher(['GROUP_CODES', 'AUDIO']);
    expectError(await upload(unlicensed.cookie, form(STORY)), 403, 'forbidden', UPLOAD_MESSAGES.forbidden);
    expect((await call('GET', '/uploads', { cookie: unlicensed.cookie })).body).toMatchObject({ items: [], canUpload: false });
    const reader = await signUp('Rea Der');
    expectError(await upload(reader.cookie, form(STORY)), 403, 'forbidden');
  });

  it('refuses a cross-site upload (CSRF origin check)', async () => {
    const { cookie } = await teacher();
    const res = await call('POST', '/uploads', { cookie, body: form(STORY), headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });
});

describe('bad files', () => {
  let cookie: string;
  beforeAll(async () => {
    ({ cookie } = await teacher());
  });

  it('too large: 413', async () => {
    expectError(await upload(cookie, form('a'.repeat(MAX_UPLOAD_BYTES + 1))), 413, 'file_too_large', UPLOAD_MESSAGES.tooLarge);
    expectError(await upload(cookie, form('a '.repeat(MAX_UPLOAD_BYTES))), 413, 'file_too_large');
  });

  it('not text: 415 for a binary file, invalid UTF-8 or another kind of file', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expectError(await upload(cookie, form(png, 'picture.png', {}, 'image/png')), 415, 'unsupported_file_type', DOCUMENT_MESSAGES.unsupportedType);
    expectError(await upload(cookie, form(png, 'sneaky.txt')), 415, 'unsupported_file_type', UPLOAD_MESSAGES.notText);
    expectError(await upload(cookie, form(new Uint8Array([0x48, 0x69, 0xff, 0xfe]), 'latin.txt')), 415, 'unsupported_file_type');
    // Text named as a Word document is not one.
    expectError(await upload(cookie, form('Fine text', 'story.docx', {}, '')), 415, 'file_type_mismatch', /“story\.docx” is named as a Word document/);
    expectError(await call('POST', '/uploads', { cookie, json: { title: 'x', text: 'y' } }), 415, 'unsupported_media_type', UPLOAD_MESSAGES.notMultipart);
  });

  it('empty: 400', async () => {
    expectError(await upload(cookie, form('')), 400, 'empty_file', UPLOAD_MESSAGES.empty);
    expectError(await upload(cookie, form(' \n\n \r\n')), 400, 'empty_file');
    expectError(await upload(cookie, form(null)), 400, 'missing_file', UPLOAD_MESSAGES.noFile);
  });

  it('too many passages: 400', async () => {
    const md = Array.from({ length: MAX_UPLOAD_PASSAGES + 1 }, (_, i) => `Passage ${i + 1}.`).join('\n\n---\n\n');
    expectError(await upload(cookie, form(md, 'many.md')), 400, 'too_many_passages', new RegExp(`${MAX_UPLOAD_PASSAGES + 1} passages`));
    const exactly = Array.from({ length: MAX_UPLOAD_PASSAGES }, (_, i) => `Passage ${i + 1}.`).join('\n\n---\n\n');
    const ok = await upload(cookie, form(exactly, 'exactly.md'));
    expect(ok.status).toBe(201);
    expect(ok.body.passageCount).toBe(MAX_UPLOAD_PASSAGES);
  });

  it('broken Markdown and bad fields: 400 with the reason', async () => {
    expectError(await upload(cookie, form('One.\n\n---\n\n---\n\nTwo.', 'gap.md')), 400, 'invalid_text', /Passage 2 has no text/);
    expectError(await upload(cookie, form('### Too deep\nText.', 'deep.md')), 400, 'invalid_text', /Only # \(part\) and ## \(section\)/);
    expectError(await upload(cookie, form(STORY, 'a.txt', { language: 'xx' })), 400, 'invalid_parameter', /language/);
    expectError(await upload(cookie, form(STORY, 'a.txt', { title: 't'.repeat(201) })), 400, 'invalid_parameter', /title/);
  });
});

describe('limits', () => {
  it(`keeps at most ${MAX_UPLOADS_PER_TEACHER} uploads per teacher (429), and room comes back after a delete`, async () => {
    const { cookie } = await teacher();
    const slugs: string[] = [];
    for (let i = 0; i < MAX_UPLOADS_PER_TEACHER; i++) {
      const res = await upload(cookie, form(`Note ${i}.`));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      slugs.push(res.body.slug);
    }
    expectError(await upload(cookie, form('One more.')), 429, 'upload_limit', UPLOAD_MESSAGES.limit);
    expect((await call('GET', '/uploads', { cookie })).body.items).toHaveLength(MAX_UPLOADS_PER_TEACHER);
    expect((await call('DELETE', `/uploads/${slugs[0]}`, { cookie })).status).toBe(204);
    expect((await upload(cookie, form('One more.'))).status).toBe(201);
  }, 60_000);
});
