/**
 * First-party analytics: the tracked events of SPEC §4 as the browser sends them, stored in
 * `analytics_events` (server/db/schema.ts) without an IP address, a user id or free text; deleted after
 * ANALYTICS_RETENTION_DAYS by a daily job; summed for `npm run admin -- events summary`.
 */
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { analyticsEvents, publications } from '../db/schema';
import type { AnalyticsBatchSchema } from '../../src/domain/analyticsSchema';
import type { z } from 'zod';

/** Events older than this many days are deleted. @default 180 */
export const ANALYTICS_RETENTION_DAYS = 180;
/** How often the retention job runs (it runs once at start too). @default 24 hours */
export const ANALYTICS_RETENTION_EVERY_MS = 24 * 60 * 60 * 1000;
/**
 * How far a client's clock is trusted: an event's time is clamped to [now − this, now]. A batch waits a few seconds
 * in the browser, so a day covers a slow clock and a laptop that slept, without letting a client write the past.
 * @default 24 hours
 */
export const ANALYTICS_CLOCK_WINDOW_MS = 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** One event ready to store: ids resolved, the class owner known. */
export interface EventRow {
  at: Date;
  name: string;
  clientId: string;
  publicationId: number | null;
  editionId: number | null;
  position: number | null;
  seconds: number | null;
  classOwnerId: string | null;
}

/** A client's time, clamped into the window the server trusts. */
export function clampTime(clientTime: string, now: number): Date {
  const t = Date.parse(clientTime);
  return new Date(Math.min(now, Math.max(now - ANALYTICS_CLOCK_WINDOW_MS, Number.isFinite(t) ? t : now)));
}

/** What the events of a batch refer to, resolved: a slug to its publication's id, an edition id checked. */
export interface EventLookups {
  publicationId(slug: string): Promise<number | null>;
  edition(editionId: number): Promise<{ publicationId: number } | null>;
}

/** The rows of one validated batch. Unknown slugs and editions are stored as null (the library may have changed). */
export async function rowsOf(
  batch: z.output<typeof AnalyticsBatchSchema>,
  lookups: EventLookups,
  classOwnerId: string | null,
  now: number,
): Promise<EventRow[]> {
  return Promise.all(
    batch.events.map(async (event) => {
      const edition = event.editionId === undefined ? null : await lookups.edition(event.editionId);
      const publicationId = event.publication !== undefined ? await lookups.publicationId(event.publication) : (edition?.publicationId ?? null);
      return {
        at: clampTime(event.at, now),
        name: event.name,
        clientId: batch.clientId,
        publicationId,
        editionId: edition ? event.editionId! : null,
        position: event.position ?? null,
        seconds: event.seconds ?? null,
        classOwnerId,
      };
    }),
  );
}

export async function storeEvents(db: Db, rows: EventRow[]): Promise<void> {
  if (rows.length) await db.insert(analyticsEvents).values(rows);
}

/** Delete the events older than the retention period. Returns how many went. */
export async function deleteExpiredEvents(db: Db, now = Date.now(), days = ANALYTICS_RETENTION_DAYS): Promise<number> {
  const deleted = await db
    .delete(analyticsEvents)
    .where(lt(analyticsEvents.at, new Date(now - days * DAY_MS)))
    .returning({ id: analyticsEvents.id });
  return deleted.length;
}

/**
 * Run the retention job now and then every `everyMs`, on an unref'd timer (it never keeps the process alive).
 * Returns the stop function.
 */
export function startRetentionJob(db: Db, logger: Logger, everyMs = ANALYTICS_RETENTION_EVERY_MS): () => void {
  const run = () =>
    deleteExpiredEvents(db)
      .then((n) => {
        if (n) logger.info({ deleted: n, retentionDays: ANALYTICS_RETENTION_DAYS }, 'analytics events past retention deleted');
      })
      .catch((err) => logger.warn({ err }, 'analytics retention job failed'));
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface EventsSummary {
  days: number;
  since: Date;
  total: number;
  byEvent: { name: string; count: number }[];
  byTitle: { title: string; slug: string; count: number }[];
}

/** Counts of the last `days` days: by event name, and by title (events that name one). */
export async function summarizeEvents(db: Db, days: number, now = Date.now()): Promise<EventsSummary> {
  const since = new Date(now - days * DAY_MS);
  const recent = gte(analyticsEvents.at, since);
  const n = count();
  const byEvent = await db.select({ name: analyticsEvents.name, count: n }).from(analyticsEvents).where(recent).groupBy(analyticsEvents.name).orderBy(desc(n), analyticsEvents.name);
  const byTitle = await db
    .select({ title: publications.title, slug: publications.slug, count: n })
    .from(analyticsEvents)
    .innerJoin(publications, eq(publications.id, analyticsEvents.publicationId))
    .where(and(recent, sql`${analyticsEvents.publicationId} is not null`))
    .groupBy(publications.title, publications.slug)
    .orderBy(desc(n), publications.title);
  const total = byEvent.reduce((sum, row) => sum + Number(row.count), 0);
  return {
    days,
    since,
    total,
    byEvent: byEvent.map((r) => ({ name: r.name, count: Number(r.count) })),
    byTitle: byTitle.map((r) => ({ title: r.title, slug: r.slug, count: Number(r.count) })),
  };
}
