/**
 * `POST /api/v1/events`: a batch of tracked events from one browser (src/domain/analyticsSchema.ts), stored by
 * ./service.ts. JSON, also as `text/plain` (what `navigator.sendBeacon` may send). At most one request a second per
 * client id (429 `rate_limited`), a body of at most 10 KB (413 `payload_too_large`). The class owner comes from the
 * class code (X-Group-Code, or the body's `groupCode` for a beacon, which cannot set headers); a code that does not
 * resolve is simply not recorded, and is not counted as a wrong guess: the answer is the same either way, so it
 * tells a guesser nothing.
 */
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from 'pino';
import { ANALYTICS_MAX_BODY_BYTES, AnalyticsBatchSchema } from '../../src/domain/analyticsSchema';
import type { Database } from '../db/client';
import type { ContentStore } from '../content/store';
import { DbRateLimitStore, RateLimiter, type RateLimitRule } from '../auth/rateLimit';
import { tooManyRequests } from '../auth/limits';
import { HttpError, badRequest, fromZod } from '../kit/errors';
import { CLASS_CODE_RE, resolveClassCode } from '../accounts/service';
import { GROUP_CODE_HEADER } from '../access/groupCode';
import { rowsOf, storeEvents } from './service';

/** Requests per client id: one a second. Counting fails open: analytics must never stop a reader. */
export const EVENTS_PER_CLIENT: RateLimitRule = { max: 1, windowMs: 1000, whenStoreFails: 'open' };

export const EVENTS_MESSAGES = {
  tooLarge: `The events body is larger than ${ANALYTICS_MAX_BODY_BYTES / 1024} KB; send fewer events at a time.`,
  tooFast: 'Too many event batches from this client: send at most one a second.',
  notJson: 'The body must be JSON: {clientId, events:[{name, at, …}]}',
  mediaType: 'Send the events as application/json (or text/plain, as sendBeacon does).',
} as const;

export interface AnalyticsDeps {
  database: Database;
  store: ContentStore;
  logger: Logger;
}

export function registerAnalyticsApi(api: Hono<any>, { database, store, logger }: AnalyticsDeps): void {
  const limiter = new RateLimiter('eventsPerClient', EVENTS_PER_CLIENT, new DbRateLimitStore(database, { logger }), logger);
  const lookups = {
    publicationId: async (slug: string) => (await store.publication(slug))?.value.id ?? null,
    edition: async (editionId: number) => (await store.edition(editionId)) ?? null,
  };

  api.post(
    '/events',
    bodyLimit({
      maxSize: ANALYTICS_MAX_BODY_BYTES,
      onError: (c) => c.json({ errors: [{ code: 'payload_too_large', message: EVENTS_MESSAGES.tooLarge }] }, 413, { Connection: 'close' }),
    }),
    async (c) => {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && type !== 'text/plain') throw new HttpError(415, [{ code: 'unsupported_media_type', message: EVENTS_MESSAGES.mediaType }]);
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw badRequest(EVENTS_MESSAGES.notJson);
      }
      const parsed = AnalyticsBatchSchema.safeParse(body);
      if (!parsed.success) throw fromZod(parsed.error, body);
      const batch = parsed.data;
      const wait = await limiter.take(batch.clientId);
      if (wait > 0) throw tooManyRequests(EVENTS_MESSAGES.tooFast, wait);
      const code = c.req.header(GROUP_CODE_HEADER)?.trim() || batch.groupCode;
      const owner = code && CLASS_CODE_RE.test(code) ? await resolveClassCode(database.db, code) : null;
      const rows = await rowsOf(batch, lookups, owner?.teacherId ?? null, Date.now());
      await storeEvents(database.db, rows);
      return c.json({ accepted: rows.length }, 202, { 'Cache-Control': 'no-store' });
    },
  );
}
