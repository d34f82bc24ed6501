/**
 * Fixed-window rate limits whose counters live in the database (the `rate_limits` table), so that several server
 * processes on one PostgreSQL share one budget per key: a class-code guesser gets the same number of tries however
 * many servers answer. Counting is one atomic upsert (`INSERT … ON CONFLICT … DO UPDATE … RETURNING`), which
 * PGlite and PostgreSQL run alike; the windows follow the database's clock, which every server shares. Windows
 * that have ended are swept (docs/decisions.md).
 *
 * When the store cannot be reached (a query throws), each rule says what happens: `closed` refuses the request
 * with 503 (a guess we cannot count is not allowed), `open` lets it through (a limit we cannot check must not stop
 * a school from working).
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { HttpError } from '../kit/errors';

export interface RateLimitRule {
  /** Attempts (or failures) allowed per window. */
  max: number;
  windowMs: number;
  /**
   * When the counters cannot be read or written: 'closed' answers 503 rate_limit_unavailable, 'open' lets the
   * request through as if under budget. @default 'open'
   */
  whenStoreFails?: 'closed' | 'open';
}

/** A key's current window. */
export interface RateLimitWindow {
  count: number;
  /** Milliseconds until the window ends. */
  resetInMs: number;
}

/** Where the counters live: the database in the product (DbRateLimitStore); a unit test may pass a double. */
export interface RateLimitStore {
  /** The key's window, or null when it has none (or it has ended). */
  read(key: string): Promise<RateLimitWindow | null>;
  /** Count one attempt; a key without a live window gets a new one of `windowMs`. */
  increment(key: string, windowMs: number): Promise<RateLimitWindow>;
  remove(key: string): Promise<void>;
}

/** How often a store deletes the windows that have ended (checked on each increment). Not in the spec. @default 60000 */
export const RATE_LIMIT_SWEEP_MS = 60_000;

/**
 * Keys come from the request (emails, client ids, forwarded addresses): one longer than this, or with any character
 * outside SAFE_KEY, is stored as its SHA-256, so a key can never be what makes a store query fail, and a store error
 * always means the store.
 */
const MAX_KEY_LENGTH = 200;
const SAFE_KEY = /^[A-Za-z0-9@._:+-]*$/;

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const msLeft = sql.raw(`(extract(epoch from (reset_at - now())) * 1000)::float8`);

/** The counters in the `rate_limits` table, on PGlite or PostgreSQL. */
export class DbRateLimitStore implements RateLimitStore {
  private lastSweep: number;

  constructor(
    private readonly database: Database,
    private readonly options: { logger?: Logger; sweepEveryMs?: number; now?: () => number } = {},
  ) {
    this.lastSweep = this.now();
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async read(key: string): Promise<RateLimitWindow | null> {
    const result = await this.database.db.execute(
      sql`select count, ${msLeft} as "resetInMs" from rate_limits where key = ${key} and reset_at > now()`,
    );
    const [row] = rows<RateLimitWindow>(result);
    return row ? { count: Number(row.count), resetInMs: Number(row.resetInMs) } : null;
  }

  async increment(key: string, windowMs: number): Promise<RateLimitWindow> {
    await this.sweepIfDue();
    const window = sql`now() + ${windowMs}::float8 * interval '1 millisecond'`;
    const result = await this.database.db.execute(sql`
      insert into rate_limits as r (key, count, reset_at) values (${key}, 1, ${window})
      on conflict (key) do update set
        count = case when r.reset_at <= now() then 1 else r.count + 1 end,
        reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
      returning count, ${msLeft} as "resetInMs"`);
    const [row] = rows<RateLimitWindow>(result);
    return { count: Number(row.count), resetInMs: Number(row.resetInMs) };
  }

  async remove(key: string): Promise<void> {
    await this.database.db.execute(sql`delete from rate_limits where key = ${key}`);
  }

  /** Delete every window that has ended. Returns how many rows went. */
  async sweep(): Promise<number> {
    this.lastSweep = this.now();
    const result = await this.database.db.execute(sql`delete from rate_limits where reset_at <= now() returning key`);
    return rows(result).length;
  }

  private async sweepIfDue(): Promise<void> {
    if (this.now() - this.lastSweep < (this.options.sweepEveryMs ?? RATE_LIMIT_SWEEP_MS)) return;
    try {
      await this.sweep();
    } catch (err) {
      this.options.logger?.warn({ err }, 'rate-limit sweep failed');
    }
  }
}

/** The 503 a `closed` rule answers when its counters cannot be reached. */
export function rateLimitUnavailable(): HttpError {
  const error = new HttpError(503, [
    { code: 'rate_limit_unavailable', message: 'Attempts cannot be counted right now. Try again in a minute.' },
  ]);
  (error as HttpError & { retryAfter?: number }).retryAfter = 60;
  return error;
}

/** One rule's counters, keyed `<name>:<key>` in its store. */
export class RateLimiter {
  constructor(
    readonly name: string,
    readonly rule: RateLimitRule,
    private readonly store: RateLimitStore,
    private readonly logger?: Logger,
  ) {}

  private storeKey(key: string): string {
    const k = key.length > MAX_KEY_LENGTH || !SAFE_KEY.test(key) ? `sha256:${crypto.createHash('sha256').update(key).digest('hex')}` : key;
    return `${this.name}:${k}`;
  }

  /** Milliseconds until the key may try again, or 0 when it is under its budget. */
  async blockedFor(key: string): Promise<number> {
    try {
      const w = await this.store.read(this.storeKey(key));
      return w && w.count >= this.rule.max ? Math.max(1, w.resetInMs) : 0;
    } catch (err) {
      this.storeFailed(err);
      return 0;
    }
  }

  /**
   * Count one attempt and say whether it was within the budget, in one atomic step (two requests at once cannot
   * both pass a budget of one): milliseconds until the key may try again, or 0 when this attempt is allowed.
   */
  async take(key: string): Promise<number> {
    try {
      const w = await this.store.increment(this.storeKey(key), this.rule.windowMs);
      return w.count > this.rule.max ? Math.max(1, w.resetInMs) : 0;
    } catch (err) {
      this.storeFailed(err);
      return 0;
    }
  }

  /** Count one attempt. */
  async hit(key: string): Promise<void> {
    try {
      await this.store.increment(this.storeKey(key), this.rule.windowMs);
    } catch (err) {
      this.storeFailed(err);
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.store.remove(this.storeKey(key));
    } catch (err) {
      this.storeFailed(err);
    }
  }

  /** Log the fault (the store itself failed: keys are always safe to query), then refuse (closed) or carry on (open). */
  private storeFailed(err: unknown): void {
    const closed = this.rule.whenStoreFails === 'closed';
    this.logger?.error({ err, limit: this.name, failClosed: closed }, `rate-limit store failed; ${closed ? 'refusing' : 'allowing'} the request`);
    if (closed) throw rateLimitUnavailable();
  }
}
