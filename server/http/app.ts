/** The Hono application: the API under /api/v1, library media under /media, and the web app. */
import { CLIENT_ID_RE } from '../kit/headers';
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { z } from 'zod';
import {
  ExcerptQuerySchema,
  PassageQuerySchema,
  PublicationListQuerySchema,
  PublicationQuerySchema,
  QrCodeSchema,
  SlugSchema,
  OnDemandEditionBodySchema,
  DecodeQuerySchema,
  DEFAULT_SORT,
  DEFAULT_PAGE_SIZE,
} from '../../src/domain/schemas';
import { PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import type { ContentStore, Cached } from '../content/store';
import { HttpError, badRequest, notFound } from '../kit/errors';
import type { OnDemandResult } from '../content/onDemand';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import { jsonBody, query, param } from '../kit/validate';
import { drainRefusedBodies } from '../kit/body';
import { apiPathTricks, edgeInput } from '../kit/edgeInput';
import type { StaticSite } from './static';
import { createAppPages, type ApiGet } from './page';
import { buildOpenApiDocument } from './openapi';
import { registerHealth, type Readiness } from './health';
import { decodedText } from '../phonics/passages';
import { DECODE_NOT_AVAILABLE } from '../phonics/legend';
import type { NarrationService } from '../narration/queue';
import { registerAudioFiles, registerNarrationApi } from '../narration/http';
import { etagMatches, etagOf } from '../kit/etag';
import { securityMiddleware } from './security';
import type { Env } from '../kit/env';
import type { Accounts } from '../auth';
import { registerAccountsApi } from '../auth';
import { authFieldKinds } from '../auth/http';
import { privateContentGate, registerUploadsApi } from '../uploads';
import { registerAnalyticsApi } from '../analytics/http';
import { audioAccess, decodeAccess, isTitleLocked, passageAccess } from '../../src/domain/access';
import type { Passage, PublicationList } from '../../src/domain/schemas';
import {
  ACTOR_VARY,
  accessActorFor,
  actorHeaders,
  assertAllowed,
  gate,
  gatedPassage,
  hasCredentials,
  isFreeFor,
  requestActor,
  roleOf,
  premiumContentError,
  sendPrivateJson,
  type AccessDeps,
  type RequestActor,
} from '../access';
import { INVALID_CLASS_CODE } from '../access/groupCode';
import { titleStatuses } from '../accounts/service';

export const API_BASE = '/api/v1';
/** Content answers may be reused briefly, then revalidated with their ETag. Not in the spec. */
export const CONTENT_CACHE_CONTROL = 'public, max-age=60, must-revalidate';
/**
 * A title's page and the catalog change when an edition is created on demand (SPEC §7: "refreshes publication
 * lists and that publication version"): every use revalidates with the ETag, a 304 from memory when unchanged.
 */
export const TITLE_CACHE_CONTROL = 'public, no-cache';

/** GET /health, /health/ready and /ping: what balancers and monitors ask every few seconds. */
const HEALTH_PROBES = new Set([`${API_BASE}/health`, `${API_BASE}/health/ready`, `${API_BASE}/ping`]);
function isHealthProbe(c: Context): boolean {
  return (c.req.method === 'GET' || c.req.method === 'HEAD') && HEALTH_PROBES.has(c.req.path);
}

export interface AppDeps {
  store: ContentStore;
  logger: Logger;
  site?: StaticSite;
  /** Build a missing edition (from a source, or through a translation provider). */
  onDemand?: (request: { slug: string; version: number; language: LanguageCode; level: Level }) => Promise<OnDemandResult>;
  /** Routes mounted before everything else (the bench's constant-JSON ceiling). */
  extraRoutes?: (app: Hono<Env>) => void;
  /** Narration (server/narration): the audio endpoints and /audio files. Without it they answer 404. */
  narration?: NarrationService;
  /** Accounts (server/auth, server/users): /auth/*, /users/*, /features/me, /visitors/me. Without it they answer 404. */
  accounts?: Accounts;
  /** What GET /health/ready checks (./health.ts); without it readiness answers 503. */
  readiness?: Readiness;
}

/** The passage as sent: decoded text and audio only for those who may have them (decodeAccess, audioAccess). */
function withheld(passage: Passage, keepDecoded: boolean, keepAudio: boolean): Passage {
  if ((keepDecoded || passage.textDecoded === null) && (keepAudio || passage.audio === null)) return passage;
  return { ...passage, textDecoded: keepDecoded ? passage.textDecoded : null, audio: keepAudio ? passage.audio : null };
}

/** The anonymous answer of a free passage whose decoded text or narration needs features: those left out. */
const strippedPassages = new WeakMap<Cached<Passage>, Cached<Passage>>();
function strippedPassage(entry: Cached<Passage>, keepAudio: boolean): Cached<Passage> {
  let hit = strippedPassages.get(entry);
  if (!hit) {
    const value = withheld(entry.value, false, keepAudio);
    const json = JSON.stringify(value);
    hit = { value, json, etag: etagOf(json) };
    strippedPassages.set(entry, hit);
  }
  return hit;
}

function send<T>(c: Context, entry: Cached<T>, cacheControl = CONTENT_CACHE_CONTROL, vary?: string): Response {
  const headers: Record<string, string> = { ETag: entry.etag, 'Cache-Control': cacheControl, 'Content-Type': 'application/json; charset=utf-8' };
  if (vary) headers.Vary = vary;
  if (etagMatches(c.req.header('if-none-match'), entry.etag)) return c.body(null, 304, headers);
  return c.body(entry.json, 200, headers);
}

function errorResponse(c: Context, error: HttpError): Response {
  const retryAfter = (error as HttpError & { retryAfter?: number }).retryAfter;
  return c.json({ errors: error.errors }, error.status, retryAfter ? { 'Retry-After': String(retryAfter) } : undefined);
}

export function createApp({ store, logger, site, extraRoutes, onDemand, narration, accounts, readiness }: AppDeps) {
  const app = new Hono<Env>();

  // One line per API request (and per refusal elsewhere): faults (5xx) at error, client errors (4xx) and answers at
  // info, health probes that pass at debug (a balancer asks every few seconds).
  app.use('*', async (c, next) => {
    const started = performance.now();
    const clientId = c.req.header('x-client-id') ?? null;
    c.set('clientId', clientId);
    await next();
    const status = c.res.status;
    if (c.req.path.startsWith(API_BASE) || status >= 400) {
      const level = status >= 500 ? 'error' : status < 400 && isHealthProbe(c) ? 'debug' : 'info';
      logger[level](
        {
          method: c.req.method,
          path: c.req.path,
          status,
          ms: Math.round((performance.now() - started) * 10) / 10,
          clientId,
          background: c.req.header('x-background-request') === 'true' || undefined,
        },
        'request',
      );
    }
  });

  // A refusal reaches the client: the rest of a body not read is drained first, or the connection closes after
  // the answer (./body.ts).
  app.use('*', drainRefusedBodies());

  // CSRF origin check and security headers (server/http/security.ts), for every response.
  app.use(
    '*',
    securityMiddleware({
      isHttps: accounts ? accounts.auth.isHttps : (request) => new URL(request.url).protocol === 'https:',
      publicOrigin: accounts?.auth.settings.publicOrigin,
    }),
  );

  // An address sent under /api/ with dot segments answers the API's JSON 404, never the web app (./edgeInput.ts).
  app.use('*', apiPathTricks());

  extraRoutes?.(app);

  const api = new Hono<Env>();

  api.use('*', async (c, next) => {
    const clientId = c.get('clientId');
    if (clientId !== null && !CLIENT_ID_RE.test(clientId)) {
      throw badRequest('X-Client-Id must be 1 to 64 letters, digits or dashes', 'invalid_header');
    }
    await next();
  });

  // The text rule on every path, query and body, before any route or database call (./edgeInput.ts).
  api.use('*', edgeInput({ fieldKinds: accounts ? authFieldKinds : undefined }));

  // Private publications (a teacher's uploads, server/uploads): only their owner and the owner's class see them.
  api.use('*', privateContentGate({ store, accounts, apiBase: API_BASE }));

  api.get('/ping', (c) => c.json({ ok: true as const, time: new Date().toISOString() }, 200, { 'Cache-Control': 'no-store' }));

  api.get('/openapi.json', (c) => c.json(buildOpenApiDocument()));

  // GET /health (liveness) and /health/ready (database and audio store), ./health.ts.
  registerHealth(api, readiness);

  const accessDeps: AccessDeps = { store, accounts };

  api.get('/publications', async (c) => {
    const q = query(c, PublicationListQuerySchema);
    const filter = q.filter ?? 'all';
    const listQuery = {
      search: q.search?.trim() || undefined,
      sort: q.sort ?? DEFAULT_SORT,
      page: q.page ?? 1,
      pageSize: q.pageSize ?? DEFAULT_PAGE_SIZE,
      // The Language and Level filters (SPEC §2), for everyone.
      languages: q.languages,
      levels: q.levels,
    };
    // The free catalog, the same for everyone: no actor needed (and none resolved without credentials).
    const actor: RequestActor = filter === 'all' && !hasCredentials(c) ? { kind: 'anonymous' } : await requestActor(accessDeps, c);
    let only: ((id: number) => boolean) | undefined;
    if (actor.kind === 'invalidGroupCode') throw new HttpError(403, [{ code: 'invalid_group_code', message: INVALID_CLASS_CODE }]);
    if (actor.kind === 'student') {
      // A class-code visitor sees the teacher's ASSIGNED titles, whatever the filter.
      only = (id) => actor.assigned.has(id);
    } else if (filter !== 'all') {
      if ((await roleOf(accessDeps, actor)) !== 'TEACHER' || actor.kind !== 'user') {
        throw new HttpError(403, [{ code: 'forbidden', message: 'The assigned and unassigned filters are for teachers.' }]);
      }
      const assigned = new Set((await titleStatuses(accounts!.database.db, actor.userId, 'ASSIGNED')).map((r) => r.titleId));
      only = filter === 'assigned' ? (id) => assigned.has(id) : (id) => !assigned.has(id);
    }
    const list: PublicationList = await store.list({ ...listQuery, only });
    if (only) return c.json(list, 200, actorHeaders());
    const etag = `W/"r${store.contentRevision}-${list.total}-${list.items.map((i) => i.id).join('.')}"`;
    // Vary: a class code turns the same address into the classroom's list.
    const headers = { ETag: etag, 'Cache-Control': TITLE_CACHE_CONTROL, Vary: 'X-Group-Code' };
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    return c.json(list, 200, headers);
  });

  const slugParam = (c: Context) => param(z.object({ publicationSlug: SlugSchema }), { publicationSlug: c.req.param('slug') }).publicationSlug;
  const versionNumber = (v: string | undefined) => (v === undefined ? undefined : Number(v.slice(1)));

  api.get('/publications/:slug', async (c) => {
    const slug = slugParam(c);
    const { publicationVersion } = query(c, PublicationQuerySchema);
    const entry = await store.publication(slug, versionNumber(publicationVersion));
    if (!entry) throw notFound('Publication not found');
    if (!isTitleLocked(entry.value, [])) return send(c, entry, TITLE_CACHE_CONTROL);
    // A premium title needs LEVELS (src/domain/access.ts isTitleLocked).
    const actor = accessActorFor(await requestActor(accessDeps, c), { publicationId: entry.value.id, ownerUserId: null });
    if (isTitleLocked(entry.value, actor.features)) throw premiumContentError();
    return sendPrivateJson(c, entry.json);
  });

  api.get('/publications/:slug/editions/passage', async (c) => {
    const slug = slugParam(c);
    const q = query(c, ExcerptQuerySchema);
    const result = await store.excerpt(slug, { version: versionNumber(q.publicationVersion), language: q.language, level: q.level, position: q.position });
    if (result === null) throw notFound('Publication not found');
    if (result === 'no-edition') throw notFound('Edition not found');
    if (result === 'no-passage') throw notFound(PASSAGE_NOT_FOUND);
    const edition = await store.edition(result.value.editionId);
    if (!edition) throw notFound('Edition not found');
    const gated = await gate(accessDeps, c, passageAccess, edition);
    assertAllowed(gated);
    return gated.actorDependent ? sendPrivateJson(c, result.json) : send(c, result);
  });

  api.post('/publications/:slug/sources/on-demand', async (c) => {
    const slug = slugParam(c);
    const { version, languageCode, level } = await jsonBody(c, OnDemandEditionBodySchema, '{version, languageCode, level}');
    if (!onDemand) throw notFound(PASSAGE_NOT_FOUND);
    // Build only what the asker could read (src/domain/access.ts passageAccess).
    const target = await store.publication(slug, Number(version.slice(1)));
    if (target) {
      const p = target.value;
      const owner = await store.privateOwner({ slug });
      assertAllowed(await gate(accessDeps, c, passageAccess, { publicationId: p.id, ownerUserId: owner, badges: p.badges, language: languageCode, level }));
    }
    const result = await onDemand({ slug, version: Number(version.slice(1)), language: languageCode, level });
    if (result.kind === 'no-publication') throw notFound('Publication not found');
    if (result.kind === 'unavailable') throw notFound(PASSAGE_NOT_FOUND);
    if (result.kind === 'built') {
      await store.refreshRevision();
      await narration?.libraryChanged();
      logger.info({ slug, languageCode, level, origin: result.origin }, 'edition built on demand');
    }
    const publication = await store.publication(slug, Number(version.slice(1)));
    const edition = publication?.value.editions.find((e) => e.id === result.editionId);
    if (!edition) throw notFound(PASSAGE_NOT_FOUND);
    return c.json({ edition, created: result.kind === 'built' }, result.kind === 'built' ? 201 : 200);
  });

  api.get('/passages', async (c) => {
    const { editionId, position } = query(c, PassageQuerySchema);
    const found = await gatedPassage(accessDeps, c, editionId, position);
    if (found.blocked) return found.blocked;
    const { edition, entry, text } = found;
    const passage = entry.value;
    const audioIsFree = passage.audio === null || isFreeFor(audioAccess, edition);
    if (!text.actorDependent) {
      // Free text: the cached answer as it is, unless it holds decode markup or narration that need features.
      if (passage.textDecoded === null && audioIsFree) return send(c, entry);
      if (!hasCredentials(c)) return send(c, strippedPassage(entry, audioIsFree), CONTENT_CACHE_CONTROL, ACTOR_VARY);
    }
    const actor = accessActorFor(await requestActor(accessDeps, c), edition);
    const keepDecoded = decodeAccess(edition, edition, actor) === 'allowed';
    const keepAudio = audioAccess(edition, edition, actor) === 'allowed';
    return sendPrivateJson(c, keepDecoded && keepAudio ? entry.json : JSON.stringify(withheld(passage, keepDecoded, keepAudio)));
  });

  // Decode mode (SPEC §4 Decode): the passage with phonics cues, English only; made on first request and stored.
  api.get('/passages/:passageId/decode', async (c) => {
    const passageId = c.req.param('passageId');
    if (!/^\d{1,9}$/.test(passageId)) throw badRequest('passageId is required');
    const q = query(c, DecodeQuerySchema);
    const passage = await store.passageForDecode(Number(passageId));
    if (!passage) throw notFound(PASSAGE_NOT_FOUND);
    if ((q.editionId !== undefined && q.editionId !== passage.editionId) || (q.position !== undefined && q.position !== passage.position)) {
      throw notFound(PASSAGE_NOT_FOUND);
    }
    if (passage.language !== 'en') throw notFound(DECODE_NOT_AVAILABLE);
    const edition = await store.edition(passage.editionId);
    if (!edition) throw notFound(PASSAGE_NOT_FOUND);
    // Decode needs DECODE, and the text itself must be readable (src/domain/access.ts decodeAccess).
    assertAllowed(await gate(accessDeps, c, decodeAccess, edition));
    const textDecoded = await decodedText(store, passage);
    store.forgetPassage(passage.editionId, passage.position);
    return c.json({ passageId: passage.id, textDecoded }, 200, actorHeaders());
  });
  for (const missing of ['/passages/decode', '/passages//decode']) {
    api.get(missing, () => {
      throw badRequest('passageId is required');
    });
  }

  // Narration (server/narration/http.ts): /passages/{id}/audio, /passages/audioOnly, …/audioOnly/onDemand, …/speechMarks.
  registerNarrationApi(api, { store, narration, access: accessDeps });

  // Accounts: better-auth under /auth/*, and the users API (server/auth, server/users).
  if (accounts) registerAccountsApi(api, { ...accounts, store });
  // Uploads (server/uploads): POST/GET /uploads, DELETE /uploads/{slug}.
  if (accounts) registerUploadsApi(api, { accounts, store, narration });
  // First-party analytics (server/analytics): POST /events.
  if (accounts) registerAnalyticsApi(api, { database: accounts.database, store, logger });

  api.get('/qr/:qrCode', async (c) => {
    const { qrCode } = param(z.object({ qrCode: QrCodeSchema }), { qrCode: c.req.param('qrCode') });
    const url = await store.qr(qrCode);
    if (!url) throw notFound('QR code not found');
    return c.json({ url }, 200, { 'Cache-Control': 'no-cache' });
  });

  api.all('*', (c) => {
    throw notFound(`No API route for ${c.req.method} ${c.req.path}`);
  });

  app.route(API_BASE, api);
  // Any other address under /api/ (another version, a typo) is the API's JSON 404, not the web app's HTML.
  const noApiRoute = (c: Context) => {
    throw notFound(`No API route for ${c.req.method} ${c.req.path}`);
  };
  app.all('/api', noApiRoute);
  app.all('/api/*', noApiRoute);

  registerAudioFiles(app, () => narration?.audioStore);

  app.get('/media/*', async (c) => {
    let rel: string;
    try {
      rel = decodeURIComponent(c.req.path.slice('/media/'.length));
    } catch {
      throw notFound('Media not found');
    }
    if (!/^[a-z0-9-]+\/v\d+\/[A-Za-z0-9_./-]+$/.test(rel) || rel.includes('..')) throw notFound('Media not found');
    const asset = await store.asset(rel);
    if (!asset) throw notFound('Media not found');
    const headers = {
      'Content-Type': asset.contentType,
      ETag: asset.etag,
      'Cache-Control': 'public, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'X-Content-Type-Options': 'nosniff',
    };
    if (etagMatches(c.req.header('if-none-match'), asset.etag)) return c.body(null, 304, headers);
    return c.body(asset.data as Uint8Array<ArrayBuffer>, 200, headers);
  });

  // An app address: its HTML, with the route's chunks and first answers when the server knows them (./page.ts).
  const pages = site ? createAppPages(site) : null;
  const apiGet = (c: Context): ApiGet => async (path, params) => {
    const query = new URLSearchParams(params).toString();
    const cookie = c.req.header('cookie');
    const response = await app.fetch(
      new Request(`http://primer${API_BASE}/${path}${query ? `?${query}` : ''}`, { headers: cookie ? { cookie } : {} }),
      c.env,
    );
    // An answer that sets a cookie (a refreshed session) must reach the browser itself: the page asks for it.
    return response.status === 200 && !response.headers.has('set-cookie') ? response.text() : null;
  };

  app.get('*', async (c) => {
    if (pages && site?.isAppRoute(c.req.path)) {
      const page = await pages.serve(c.req.path, new URL(c.req.url).search, c.req.raw.headers, apiGet(c));
      if (page) return page;
    }
    const response = site?.serve(c.req.path, c.req.raw.headers);
    if (response) return response;
    if (!site?.hasIndex) {
      return c.text('The web app is not built. Run `npm start` (it builds when needed) or `npm run build`.', 503);
    }
    throw notFound('Not found');
  });

  app.notFound((c) => c.json({ errors: [{ code: 'not_found', message: 'Not found' }] }, 404));

  app.onError((error, c) => {
    if (error instanceof HttpError) return errorResponse(c, error);
    logger.error({ err: error, path: c.req.path }, 'unhandled error');
    return c.json({ errors: [{ code: 'internal_error', message: 'Internal server error' }] }, 500);
  });

  return app;
}
