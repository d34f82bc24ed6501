/**
 * The narration queue in the database (the `narration_jobs` table), shared by every server on one PostgreSQL and
 * surviving restarts and crashes. One row per passage whose narration is missing or stale:
 *
 *  - **Claim**: one UPDATE whose subqueries pick the next row `FOR UPDATE SKIP LOCKED` (priority, then rank), so two
 *    servers claiming at once get different jobs, and sets a lease (`lease_until`, `leased_by`) and counts the
 *    attempt. A job whose narration key another worker holds a live lease on waits (the same text in two passages
 *    is narrated once).
 *  - **Lease**: renewed while the worker narrates; when a worker dies its leases run out and the jobs are claimed
 *    again. `release()` (a server stopping) gives its leases back at once, and the attempt does not count.
 *  - **Failure**: the job waits `retryBaseMs · 2^(attempts-1)` (at most `retryMaxMs`) before the next claim; after
 *    `maxAttempts` the background queue leaves it (a new scan or a reader's request tries again).
 *  - **Done**: the row is deleted.
 *
 * Every statement is a single atomic one, so PGlite (one connection) and PostgreSQL (a pool, several servers) behave
 * alike. Times are the database's `now()`, which all servers share.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';

/** A passage someone asked for. */
export const PRIORITY_REQUESTED = 2;
/** The passage after one someone is reading. */
export const PRIORITY_NEXT = 1;
/** The background scan of the library. */
export const PRIORITY_BACKGROUND = 0;
/** Every priority a job may have, highest first. */
const PRIORITIES = [PRIORITY_REQUESTED, PRIORITY_NEXT, PRIORITY_BACKGROUND];

export interface JobSettings {
  /** How long a claim holds a job without renewal. @default 30000 */
  leaseMs: number;
  /** Claims before the background queue gives up on a job. @default 5 */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with each further one. @default 2000 */
  retryBaseMs: number;
  /** The longest wait between attempts. @default 300000 */
  retryMaxMs: number;
}

export const DEFAULT_JOB_SETTINGS: JobSettings = { leaseMs: 30_000, maxAttempts: 5, retryBaseMs: 2000, retryMaxMs: 300_000 };

export interface NewJob {
  passageId: number;
  /** The narration key of the passage's current text. */
  key: string;
  /** Lower first within a priority (the passage's position). */
  rank: number;
  priority: number;
}

export interface ClaimedJob {
  passageId: number;
  key: string;
  /** Claims so far, this one included. */
  attempts: number;
  priority: number;
}

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const ms = (value: number) => sql`(${value}::float8 * interval '1 millisecond')`;

function toJob(row: { passage_id: number; key: string; attempts: number; priority: number }): ClaimedJob {
  return { passageId: Number(row.passage_id), key: row.key, attempts: Number(row.attempts), priority: Number(row.priority) };
}

const RETURNING = sql.raw('returning passage_id, key, attempts, priority');
/** Most rows in one INSERT (four parameters each). */
const ENQUEUE_CHUNK = 500;

export class NarrationJobs {
  readonly settings: JobSettings;

  constructor(
    private readonly database: Database,
    /** Who holds the leases this instance takes (one per NarrationService: host, pid and a random part). */
    readonly workerId: string,
    settings: Partial<JobSettings> = {},
  ) {
    this.settings = { ...DEFAULT_JOB_SETTINGS, ...settings };
  }

  private async run(query: SQL): Promise<unknown> {
    return this.database.db.execute(query);
  }

  /**
   * Queue jobs. An existing job keeps its place and lease, and its priority only rises; a job whose text changed
   * (a new key) starts over with no attempts and no lease. With `retryGivenUp`, jobs the queue gave up on start over
   * too (a scan: a restart or a library change).
   */
  async enqueue(jobs: NewJob[], options: { retryGivenUp?: boolean } = {}): Promise<void> {
    const { maxAttempts } = this.settings;
    const again = options.retryGivenUp ? sql`j.key <> excluded.key or j.attempts >= ${maxAttempts}` : sql`j.key <> excluded.key`;
    for (let i = 0; i < jobs.length; i += ENQUEUE_CHUNK) {
      const chunk = jobs.slice(i, i + ENQUEUE_CHUNK);
      const values = sql.join(
        chunk.map((j) => sql`(${j.passageId}::int, ${j.key}::text, ${j.priority}::int, ${j.rank}::int)`),
        sql`, `,
      );
      await this.run(sql`
        insert into narration_jobs as j (passage_id, key, priority, rank) values ${values}
        on conflict (passage_id) do update set
          priority = case when j.key = excluded.key then greatest(j.priority, excluded.priority) else excluded.priority end,
          rank = excluded.rank,
          attempts = case when ${again} then 0 else j.attempts end,
          run_after = case when ${again} then now() else j.run_after end,
          lease_until = case when j.key <> excluded.key then null else j.lease_until end,
          leased_by = case when j.key <> excluded.key then null else j.leased_by end,
          last_error = case when ${again} then null else j.last_error end,
          key = excluded.key`);
    }
  }

  /** Claim the background queue's next job: free (no live lease), due, not given up, highest priority first. */
  async claimNext(): Promise<ClaimedJob | null> {
    const { leaseMs, maxAttempts } = this.settings;
    // One subquery per priority, highest first (COALESCE stops at the first that finds a job): each walks the
    // (priority, rank, passage_id) index in order and stops at its first free job, so a claim costs the same with
    // a hundred jobs or a hundred thousand.
    const next = (priority: number) => sql`(
        select j.passage_id from narration_jobs j
        where j.priority = ${priority}::int
          and (j.lease_until is null or j.lease_until <= now())
          and j.run_after <= now()
          and j.attempts < ${maxAttempts}::int
          and not exists (
            select 1 from narration_jobs o where o.key = j.key and o.passage_id <> j.passage_id and o.lease_until > now()
          )
        order by j.rank, j.passage_id
        limit 1
        for update skip locked
      )`;
    const result = await this.run(sql`
      update narration_jobs set lease_until = now() + ${ms(leaseMs)}, leased_by = ${this.workerId}, attempts = attempts + 1
      where passage_id = coalesce(${sql.join(PRIORITIES.map(next), sql`, `)})
      ${RETURNING}`);
    const [row] = rows<Parameters<typeof toJob>[0]>(result);
    return row ? toJob(row) : null;
  }

  /**
   * Claim one passage's job now (a reader asked for it), whatever its backoff or attempts, unless another worker
   * holds a live lease on it. Null when it is held, or there is no such job.
   */
  async claim(passageId: number): Promise<ClaimedJob | null> {
    const { leaseMs } = this.settings;
    const result = await this.run(sql`
      update narration_jobs set lease_until = now() + ${ms(leaseMs)}, leased_by = ${this.workerId}, attempts = attempts + 1,
        priority = greatest(priority, ${PRIORITY_REQUESTED}::int)
      where passage_id = (
        select passage_id from narration_jobs
        where passage_id = ${passageId} and (lease_until is null or lease_until <= now())
        for update skip locked
      )
      ${RETURNING}`);
    const [row] = rows<Parameters<typeof toJob>[0]>(result);
    return row ? toJob(row) : null;
  }

  /** Extend every lease this worker holds. Returns how many. */
  async renew(): Promise<number> {
    const result = await this.run(sql`
      update narration_jobs set lease_until = now() + ${ms(this.settings.leaseMs)}
      where leased_by = ${this.workerId} and lease_until is not null
      returning passage_id`);
    return rows(result).length;
  }

  /** The passage is narrated: delete its job (for any of these keys: a newer text's job stays). */
  async complete(passageId: number, keys: string[]): Promise<void> {
    await this.run(sql`delete from narration_jobs where passage_id = ${passageId} and key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})`);
  }

  /**
   * The attempt failed: free the job and make it wait before the next claim. Returns 'given-up' when it has had
   * its attempts, 'retry' otherwise, or null when this worker no longer held it.
   */
  async fail(passageId: number, key: string, error: string): Promise<'retry' | 'given-up' | null> {
    const { retryBaseMs, retryMaxMs, maxAttempts } = this.settings;
    const result = await this.run(sql`
      update narration_jobs set lease_until = null, leased_by = null, last_error = ${error.slice(0, 2000)},
        run_after = now() + least(${retryBaseMs}::float8 * power(2, greatest(attempts - 1, 0)), ${retryMaxMs}::float8) * interval '1 millisecond'
      where passage_id = ${passageId} and key = ${key} and leased_by = ${this.workerId}
      returning attempts`);
    const [row] = rows<{ attempts: number }>(result);
    if (!row) return null;
    return Number(row.attempts) >= maxAttempts ? 'given-up' : 'retry';
  }

  /**
   * Give back every lease this worker holds (it is stopping): another worker may claim the jobs at once, and the
   * attempts they were on do not count. Returns how many.
   */
  async release(): Promise<number> {
    const result = await this.run(sql`
      update narration_jobs set lease_until = null, leased_by = null, attempts = greatest(attempts - 1, 0)
      where leased_by = ${this.workerId}
      returning passage_id`);
    return rows(result).length;
  }

  /** Jobs not yet done and not given up (a job on its last attempt counts while it is leased). */
  async pending(): Promise<number> {
    const result = await this.run(
      sql`select count(*)::int as n from narration_jobs where attempts < ${this.settings.maxAttempts} or lease_until > now()`,
    );
    return Number(rows<{ n: number }>(result)[0].n);
  }
}
