/**
 * The analytics port's real adapter: it keeps the tracked events in a queue and sends them in batches to
 * `POST /api/v1/events` through a transport (src/api's `postEvents` in the browser), every few seconds or as soon as
 * a batch is full, never more than one request a second; when the page goes away, what is left leaves by beacon.
 * What goes on the wire is only what the server stores (src/domain/analyticsSchema.ts): the event's name and time,
 * the publication's slug, the edition id, the position and the seconds heard. Anything else a tracking call
 * carries (a URL, a playback speed) stays here. A failed send is logged and forgotten (SPEC §8).
 *
 * Framework-free and DOM-free: the clock and the transport are injected, so tests drive it with a manual clock.
 */
import type { AnalyticsPort, ClockPort, LoggerPort, TrackedEvent } from '../engine/ports';
import { ANALYTICS_MAX_BATCH, ANALYTICS_MAX_BODY_BYTES, LISTENING_EVENTS, MAX_LISTENING_SECONDS } from '../domain/analytics';
import type { AnalyticsBatchBody, AnalyticsEventBody } from '../domain/analyticsSchema';

/** How long an event waits for others before its batch is sent. @default 5000 */
export const ANALYTICS_FLUSH_MS = 5000;
/** A batch is sent at once (within the rate limit) when this many events wait. @default 20 */
export const ANALYTICS_BATCH_SIZE = 20;
/**
 * The least time between two requests. The server allows one a second per client id; the margin covers a second
 * request overtaking the first on the network. @default 1500
 */
export const ANALYTICS_MIN_INTERVAL_MS = 1500;
/** Events kept while sends fail or wait; the oldest go first beyond it. @default 200 */
export const ANALYTICS_MAX_QUEUE = 200;

export interface AnalyticsTransport {
  /** POST one batch; rejects when it could not be delivered. */
  send(batch: AnalyticsBatchBody): Promise<void>;
  /** Hand one batch to the browser to deliver as the page goes (sendBeacon); false when it refused. */
  beacon?(batch: AnalyticsBatchBody): boolean;
}

export interface AnalyticsStats {
  /** Events delivered (or handed to a beacon) this session. */
  sent: number;
  /** Events waiting. */
  queued: number;
  /** Events dropped after a failed send. */
  failed: number;
}

export interface BatchingAnalytics extends AnalyticsPort {
  /** Send what waits now, if the rate limit allows; otherwise as soon as it does. */
  flush(): void;
  /** The page is going (hidden, unloading): send what waits by beacon, in one request. */
  flushOnHide(): void;
  stats(): AnalyticsStats;
  /** Called whenever the stats change. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
  /** Stop the timer (what waits is dropped). */
  stop(): void;
}

export interface BatchingAnalyticsOptions {
  transport: AnalyticsTransport;
  clock: ClockPort;
  /** The browser's random analytics id (a UUID). */
  clientId: () => string;
  /** The class code, for beacons, which cannot carry the X-Group-Code header. */
  groupCode?: () => string | null | undefined;
  logger?: LoggerPort;
  /** @default ANALYTICS_FLUSH_MS */
  flushMs?: number;
  /** @default ANALYTICS_BATCH_SIZE */
  batchSize?: number;
  /** @default ANALYTICS_MIN_INTERVAL_MS */
  minIntervalMs?: number;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2 ** 31 - 1;

/** The wire form of one tracking call: only the properties the server stores, each checked; the rest dropped. */
export function wireEvent(event: TrackedEvent, properties: Record<string, unknown> | undefined, at: number): AnalyticsEventBody {
  const out: AnalyticsEventBody = { name: event, at: new Date(at).toISOString() };
  const p = properties ?? {};
  if (typeof p.slug === 'string' && p.slug.length <= 120 && SLUG.test(p.slug)) out.publication = p.slug;
  if (isCount(p.editionId)) out.editionId = p.editionId;
  if (isCount(p.position) && p.position <= 1_000_000) out.position = p.position;
  if (LISTENING_EVENTS.includes(event) && typeof p.seconds === 'number' && Number.isFinite(p.seconds)) {
    out.seconds = Math.min(MAX_LISTENING_SECONDS, Math.max(0, Math.round(p.seconds)));
  }
  return out;
}

export function createBatchingAnalytics(options: BatchingAnalyticsOptions): BatchingAnalytics {
  const { transport, clock, logger } = options;
  const flushMs = options.flushMs ?? ANALYTICS_FLUSH_MS;
  const batchSize = Math.min(options.batchSize ?? ANALYTICS_BATCH_SIZE, ANALYTICS_MAX_BATCH);
  const minIntervalMs = options.minIntervalMs ?? ANALYTICS_MIN_INTERVAL_MS;
  const queue: AnalyticsEventBody[] = [];
  const listeners = new Set<() => void>();
  const stats = { sent: 0, failed: 0 };
  let lastSendAt = -Infinity;
  let inFlight = false;
  let timer: unknown = null;
  let timerAt = Infinity;
  let stopped = false;

  const notify = () => listeners.forEach((listener) => listener());

  /** (Re)arm the one timer to fire at `at`, unless it fires sooner already. */
  function schedule(at: number): void {
    if (stopped || (timer !== null && timerAt <= at)) return;
    if (timer !== null) clock.clearTimeout(timer);
    timerAt = at;
    timer = clock.setTimeout(() => {
      timer = null;
      timerAt = Infinity;
      flush();
    }, Math.max(0, at - clock.now()));
  }

  /** The next batch: up to `limit` events from the front of the queue whose body fits the server's limit. */
  function takeBatch(limit: number, withCode: boolean): AnalyticsBatchBody | null {
    if (!queue.length) return null;
    const groupCode = withCode ? options.groupCode?.() || undefined : undefined;
    const batch: AnalyticsBatchBody = { clientId: options.clientId(), ...(groupCode ? { groupCode } : {}), events: queue.slice(0, limit) };
    while (batch.events.length > 1 && new TextEncoder().encode(JSON.stringify(batch)).length > ANALYTICS_MAX_BODY_BYTES) batch.events.pop();
    queue.splice(0, batch.events.length);
    return batch;
  }

  function flush(): void {
    if (stopped || inFlight || !queue.length) return;
    const allowedAt = lastSendAt + minIntervalMs;
    if (clock.now() < allowedAt) {
      schedule(allowedAt);
      return;
    }
    const batch = takeBatch(batchSize, false)!;
    inFlight = true;
    lastSendAt = clock.now();
    notify();
    transport.send(batch).then(
      () => {
        stats.sent += batch.events.length;
      },
      (error: unknown) => {
        stats.failed += batch.events.length;
        logger?.warn('Analytics send failed', error);
      },
    ).finally(() => {
      inFlight = false;
      notify();
      if (queue.length) schedule(queue.length >= batchSize ? lastSendAt + minIntervalMs : clock.now() + flushMs);
    });
  }

  return {
    track(event, properties) {
      if (stopped) return;
      queue.push(wireEvent(event, properties, clock.now()));
      if (queue.length > ANALYTICS_MAX_QUEUE) queue.splice(0, queue.length - ANALYTICS_MAX_QUEUE);
      notify();
      if (queue.length >= batchSize) flush();
      else schedule(clock.now() + flushMs);
    },
    flush,
    flushOnHide() {
      if (stopped || !transport.beacon) return;
      const batch = takeBatch(ANALYTICS_MAX_BATCH, true);
      if (!batch) return;
      let handed = false;
      try {
        handed = transport.beacon(batch);
      } catch (error) {
        logger?.warn('Analytics send failed', error);
      }
      if (handed) {
        stats.sent += batch.events.length;
        lastSendAt = clock.now();
      } else {
        // The browser refused the beacon (too much queued): the events stay for the next regular send.
        queue.unshift(...batch.events);
      }
      notify();
    },
    stats: () => ({ sent: stats.sent, queued: queue.length, failed: stats.failed }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      queue.length = 0;
    },
  };
}
