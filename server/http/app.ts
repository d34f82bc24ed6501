/**
 * The Hono application: the request log and the checks every request goes through, then each feature's routes
 * mounted under /api/v1, the audio files and library media, and the web app. Only server.ts builds it.
 */
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import type { AccessDeps } from '../access';
import type { Accounts } from '../auth';
import { authFieldKinds, registerAuth } from '../auth/http';
import { registerAnalyticsApi } from '../analytics/http';
import { registerContentApi, registerMedia } from '../content/http';
import type { OnDemandResult } from '../content/onDemand';
import type { ContentStore } from '../content/store';
import { drainRefusedBodies } from '../kit/body';
import { apiPathTricks, edgeInput } from '../kit/edgeInput';
import type { Env } from '../kit/env';
import { HttpError, badRequest, notFound } from '../kit/errors';
import { CLIENT_ID_RE } from '../kit/headers';
import { registerAudioFiles, registerNarrationApi } from '../narration/http';
import { registerEpubApi } from '../epub/http';
import type { NarrationService } from '../narration/queue';
import { registerRosterApi } from '../roster/http';
import type { Sso } from '../sso';
import { registerSsoApi } from '../sso/http';
import { privateContentGate, registerUploadsApi } from '../uploads';
import { registerUsersApi } from '../users/http';
import { registerHealth, type Readiness } from './health';
import { buildOpenApiDocument } from './openapi';
import { createAppPages, type ApiGet } from './page';
import { securityMiddleware } from './security';
import type { StaticSite } from './static';

export const API_BASE = '/api/v1';

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
  /** Single sign-on (server/sso): /sso/*, with accounts. Without it they answer 404. */
  sso?: Sso;
  /** What GET /health/ready checks (./health.ts); without it readiness answers 503. */
  readiness?: Readiness;
}

function errorResponse(c: Context, error: HttpError): Response {
  const retryAfter = (error as HttpError & { retryAfter?: number }).retryAfter;
  return c.json({ errors: error.errors }, error.status, retryAfter ? { 'Retry-After': String(retryAfter) } : undefined);
}

export function createApp({ store, logger, site, extraRoutes, onDemand, narration, accounts, sso, readiness }: AppDeps) {
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
  // the answer (server/kit/body.ts).
  app.use('*', drainRefusedBodies());

  // CSRF origin check and security headers (server/http/security.ts), for every response.
  app.use(
    '*',
    securityMiddleware({
      isHttps: accounts ? accounts.auth.isHttps : (request) => new URL(request.url).protocol === 'https:',
      publicOrigin: accounts?.auth.settings.publicOrigin,
    }),
  );

  // An address sent under /api/ with dot segments answers the API's JSON 404, never the web app (server/kit/edgeInput.ts).
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

  // The text rule on every path, query and body, before any route or database call (server/kit/edgeInput.ts).
  api.use('*', edgeInput({ fieldKinds: accounts ? authFieldKinds : undefined }));

  // Private publications (a teacher's uploads, server/uploads): only their owner and the owner's class see them.
  api.use('*', privateContentGate({ store, accounts, apiBase: API_BASE }));

  api.get('/ping', (c) => c.json({ ok: true as const, time: new Date().toISOString() }, 200, { 'Cache-Control': 'no-store' }));

  api.get('/openapi.json', (c) => c.json(buildOpenApiDocument()));

  // GET /health (liveness) and /health/ready (database and audio store), ./health.ts.
  registerHealth(api, readiness);

  const accessDeps: AccessDeps = { accounts };

  // The content routes (server/content/http.ts): the catalog, publications, excerpts, on-demand editions, passages,
  // decode and QR codes.
  registerContentApi(api, { store, access: accessDeps, logger, onDemand, libraryChanged: narration ? () => narration.libraryChanged() : undefined });

  // Narration (server/narration/http.ts): /passages/{id}/audio, /passages/audioOnly, …/audioOnly/onDemand, …/speechMarks.
  registerNarrationApi(api, { store, narration, access: accessDeps });

  // The EPUB export (server/epub/http.ts): /publications/{slug}/editions/epub, gated as the reader is.
  registerEpubApi(api, { store, narration, access: accessDeps });

  if (accounts) {
    // Accounts: better-auth under /auth/* (server/auth), single sign-on under /sso/* (server/sso), the users API
    // (server/users) and staff rosters (server/roster).
    registerAuth(api, accounts);
    if (sso) registerSsoApi(api, { ...accounts, platform: sso.platform });
    registerUsersApi(api, { ...accounts, store });
    registerRosterApi(api, accounts);
  }
  // Uploads (server/uploads): POST/GET /uploads, DELETE /uploads/{slug}.
  if (accounts) registerUploadsApi(api, { accounts, store, narration });
  // First-party analytics (server/analytics): POST /events.
  if (accounts) registerAnalyticsApi(api, { database: accounts.database, store, logger });

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

  // The library's media (server/content/http.ts).
  registerMedia(app, store);

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
