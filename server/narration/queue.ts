/**
 * The narration service: a background queue that narrates the whole library while the server runs, and the
 * answers the audio endpoints give.
 *
 *  - Never at the cost of start-up: startServer calls `prepare` (one UPDATE for the editions' audio flags and
 *    totals) and then `start`, which scans the library in the background after the server listens.
 *  - A durable queue shared by every server on the database (`narration_jobs`, server/narration/jobs.ts): the scan
 *    queues one job per passage whose narration is missing or stale; background workers claim jobs with a lease
 *    (`FOR UPDATE SKIP LOCKED`), renew it while they narrate, and delete the job when the passage is narrated. A
 *    failed job backs off and is retried up to a maximum; a crashed server's jobs come back when their lease runs
 *    out; `stop()` gives this server's leases back at once.
 *  - Never twice: a job is held by one worker on one server at a time, and within a process work is also keyed by
 *    `narrationKey(plain text, voice)` (later askers join it). A finished narration is in the audio store (MP3 + a
 *    JSON sidecar with the marks) and in the passages row, so a restart, a second passage with the same text, or a
 *    fresh database reuses it.
 *  - A requested passage jumps the queue: its job is raised to the top priority and claimed by the server that was
 *    asked, which narrates it in the pool's priority lane (background workers pause); the request waits up to
 *    NARRATION_WAIT_MS for it before answering 202 'generating'. When another server holds the job, the request
 *    waits for that server's narration to reach the database.
 *  - As passages finish, passages.audioUrl / speechMarks / audioDurationMs and editions.audioTotalLength are
 *    updated and the content store's cached passage and publication answers are dropped.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { editions, passages, publications } from '../db/schema';
import type { ContentStore } from '../content/store';
import { passagePlainText } from '../../src/domain/sanitize';
import { NarrationPool } from './pool';
import { narrationKey, type NarrationHead } from './pipeline';
import { mp3Name, readMeta, writeNarration, type AudioStore, type NarrationMeta } from './storage';
import type { SpeechMark } from './speechMarks';
import { englishVoiceFromEnv, narrationVoice, VOICED_LANGUAGES, type EnglishVoice, type NarrationVoice } from './voices';
import { narrationVoiceOfUrl } from '../../src/domain/narrationVoice';
import { DEFAULT_JOB_SETTINGS, NarrationJobs, PRIORITY_BACKGROUND, PRIORITY_NEXT, PRIORITY_REQUESTED, type ClaimedJob, type JobSettings } from './jobs';

/** Where narration MP3s are served. */
export const AUDIO_ROUTE = '/audio';
export const audioUrl = (key: string) => `${AUDIO_ROUTE}/${key}.mp3`;

/** How long an audio request waits for its narration before answering 202 'generating'. @default 1800 */
export const DEFAULT_NARRATION_WAIT_MS = 1800;
/** Background workers on a persistent server: two, or one on a one-core machine. */
export const defaultConcurrency = () => Math.min(2, os.availableParallelism());

export interface NarrationSettings {
  /** Background workers; 0 disables the background queue (requested passages are still narrated). */
  concurrency: number;
  waitMs: number;
  /** Workers kept for requested passages. @default 1 */
  priorityWorkers: number;
  /** How long a claimed job is held without renewal (a crashed server's jobs come back after it). @default 30000 */
  leaseMs?: number;
  /** Claims before the background queue gives up on a passage (a restart or a request tries again). @default 5 */
  maxAttempts?: number;
  /** The wait after a failed attempt; it doubles with each further one, up to retryMaxMs. @default 2000 */
  retryBaseMs?: number;
  /** @default 300000 */
  retryMaxMs?: number;
  /** How often an idle background queue looks for jobs (other servers', retries due, leases run out). @default 2000 */
  pollMs?: number;
  /** The voice of English editions (NARRATION_VOICE_EN); the other languages are espeak's. @default 'flite-slt' */
  englishVoice?: EnglishVoice;
}

/**
 * Settings from the environment: NARRATION_CONCURRENCY (default 2 on a server with a data directory or
 * PostgreSQL, 0 for an in-memory database such as the test servers'), NARRATION_WAIT_MS (default 1800),
 * NARRATION_PRIORITY_WORKERS (default 1), NARRATION_LEASE_MS (default 30000) and NARRATION_VOICE_EN (default
 * 'flite-slt', or 'espeak').
 */
export function narrationSettings(env: NodeJS.ProcessEnv, persistent: boolean, overrides: Partial<NarrationSettings> = {}): NarrationSettings {
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      throw new Error(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
    }
    return Number(raw);
  };
  return {
    concurrency: overrides.concurrency ?? int('NARRATION_CONCURRENCY', persistent ? defaultConcurrency() : 0, 0, 64),
    waitMs: overrides.waitMs ?? int('NARRATION_WAIT_MS', DEFAULT_NARRATION_WAIT_MS, 0, 60_000),
    priorityWorkers: overrides.priorityWorkers ?? int('NARRATION_PRIORITY_WORKERS', 1, 1, 16),
    leaseMs: overrides.leaseMs ?? int('NARRATION_LEASE_MS', DEFAULT_JOB_SETTINGS.leaseMs, 1000, 3_600_000),
    englishVoice: overrides.englishVoice ?? englishVoiceFromEnv(env),
    ...(overrides.maxAttempts !== undefined && { maxAttempts: overrides.maxAttempts }),
    ...(overrides.retryBaseMs !== undefined && { retryBaseMs: overrides.retryBaseMs }),
    ...(overrides.retryMaxMs !== undefined && { retryMaxMs: overrides.retryMaxMs }),
    ...(overrides.pollMs !== undefined && { pollMs: overrides.pollMs }),
  };
}

export interface ReadyAudio {
  url: string;
  speechMarks: SpeechMark[];
  /** Length of the MP3, ms. */
  duration: number;
  /** The voice that spoke ('flite-slt', 'espeak-en-us', …). */
  voice: string;
}

/**
 * The head of a narration still being made (pipeline.ts NarrationHead): its own MP3, whose audio and marks are the
 * start of the whole one's, up to `seam`.
 */
export interface PartialAudio extends ReadyAudio {
  /** Where the head's speech ends on the timeline of both MP3s, ms: the whole narration goes on from there. */
  seam: number;
}

/** The name of a narration head's MP3: `head-<key>` (a narration key of its own, so /audio serves it). */
export const headKey = (key: string) => `head-${key}`;

export type AudioAnswer =
  | { kind: 'ready'; passageId: number; audio: ReadyAudio }
  /** `partial`: the head of the narration, when it is ready before the whole. */
  | { kind: 'generating'; passageId: number; partial?: PartialAudio }
  | { kind: 'unvoiced'; passageId: number }
  | { kind: 'missing' };

interface PassageRow {
  id: number;
  editionId: number;
  position: number;
  text: string;
  audioUrl: string | null;
  speechMarks: SpeechMark[] | null;
  audioDurationMs: number | null;
  language: string;
  slug: string;
}

/** A ready narration kept in memory, for the content revision it was read at. */
interface ReadyEntry {
  editionId: number;
  position: number;
  answer: { kind: 'ready'; passageId: number; audio: ReadyAudio };
}

/** Most ready answers kept in memory (one per passage); past it the cache starts over. Not in the spec. @default 50000 */
export const READY_CACHE_SIZE = 50_000;

interface InFlight {
  promise: Promise<NarrationMeta>;
  priority: boolean;
  poolJob: number | null;
}

/** A job this process claimed and is working on. */
interface Working {
  promise: Promise<ReadyAudio | null>;
  /** The narration key, once the passage was read. */
  key: string | null;
  priority: boolean;
}

export interface NarrationProgress {
  passageId: number;
  editionId: number;
  outcome: 'synthesized' | 'reused' | 'failed';
  durationMs: number;
  bytes: number;
}

export interface NarrationStats {
  /** Narrations made by espeak in this process. */
  synthesized: number;
  /** Narrations taken from the audio store instead. */
  reused: number;
  failed: number;
  /** Passages whose row was updated. */
  persisted: number;
  /** Audio made by espeak, ms, and its MP3 bytes. */
  audioMs: number;
  mp3Bytes: number;
  /** How many times each key was synthesized (every value should be 1). */
  perKey: Map<string, number>;
}

export interface NarrationServiceOptions {
  database: Database;
  store: ContentStore;
  audio: AudioStore;
  logger: Logger;
  settings: NarrationSettings;
  /** Who holds this service's job leases. @default `<host>:<pid>:<random>` */
  workerId?: string;
}

/** How often a request waiting for another server's narration looks at the passage. Not in the spec. @default 200 */
export const REMOTE_WAIT_POLL_MS = 200;
/** @default 2000 */
export const DEFAULT_POLL_MS = 2000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class NarrationService {
  readonly settings: NarrationSettings;
  readonly stats: NarrationStats = { synthesized: 0, reused: 0, failed: 0, persisted: 0, audioMs: 0, mp3Bytes: 0, perKey: new Map() };
  /** The durable queue (narration_jobs). */
  readonly jobs: NarrationJobs;
  private readonly pool: NarrationPool;
  private readonly inflight = new Map<string, InFlight>();
  /** Heads of the narrations this process is making, by key, while the whole is made; and who waits for one. */
  private readonly heads = new Map<string, PartialAudio>();
  private readonly headWaiters = new Map<string, Set<(head: PartialAudio) => void>>();
  /** Jobs this process claimed, by passage id. */
  private readonly working = new Map<number, Working>();
  /** Background slots claiming or working, and their turns (stop waits for them). */
  private active = 0;
  private readonly turns = new Set<Promise<void>>();
  /** Whether a claim may find work (false after one found none, until something is queued or the poll comes). */
  private hungry = true;
  private pendingCount = 0;
  private pendingCountedAt = 0;
  private scanning: Promise<number> | null = null;
  private stopped = false;
  /** The one stop: a second caller (the SIGTERM handler, then the server's stop) waits for the same work. */
  private stopping: Promise<void> | null = null;
  private checkingIdle = false;
  private pollTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private idleWaiters: (() => void)[] = [];
  private readonly listeners = new Set<(p: NarrationProgress) => void>();
  /**
   * Ready narrations by passage id, so that a warm audio request costs no database round trip. Only ready answers
   * are kept (a narration, once recorded, changes only with the passage's text); the whole cache is dropped when the
   * content revision moves (an import, an upload or its deletion: every change of a passage's text).
   */
  private readonly ready = new Map<number, ReadyEntry>();
  /** `editionId:position` of passages known to have audio: the next page of a reader needs no prefetch query. */
  private readonly voicedAt = new Set<string>();
  private readyRevision = -1;

  constructor(private readonly options: NarrationServiceOptions) {
    this.settings = options.settings;
    this.pool = new NarrationPool({ background: this.settings.concurrency, priority: this.settings.priorityWorkers, logger: options.logger });
    const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
    const jobSettings: Partial<JobSettings> = {};
    for (const k of ['leaseMs', 'maxAttempts', 'retryBaseMs', 'retryMaxMs'] as const) {
      if (this.settings[k] !== undefined) jobSettings[k] = this.settings[k];
    }
    this.jobs = new NarrationJobs(options.database, workerId, jobSettings);
  }

  get audioStore(): AudioStore {
    return this.options.audio;
  }

  /**
   * Make the editions' audio fields true to what we can narrate: audioEnabled and highlightModeEnabled for every
   * voiced language (audio is made on request, so it is available from the start), and audioTotalLength from the
   * passages narrated so far. Drops the cached details of the publications whose editions changed.
   */
  async prepare(): Promise<void> {
    const { db } = this.options.database;
    const voiced = sql`${editions.language} in (${sql.join(VOICED_LANGUAGES.map((l) => sql`${l}`), sql`, `)})`;
    const total = sql`coalesce((select sum(${passages.audioDurationMs}) from ${passages} where ${passages.editionId} = ${editions.id} and ${passages.audioUrl} is not null), 0) / 1000.0`;
    const changed = await this.options.database.exclusive(() =>
      db
        .update(editions)
        .set({ audioEnabled: voiced, highlightModeEnabled: voiced, audioTotalLength: total })
        .where(
          sql`${editions.audioEnabled} is distinct from (${voiced}) or ${editions.highlightModeEnabled} is distinct from (${voiced}) or abs(${editions.audioTotalLength} - ${total}) > 0.01`,
        )
        .returning({ publicationId: editions.publicationId }),
    );
    if (!changed.length) return;
    // Only a publication's details carry these fields (the catalog and the passages do not).
    const ids = [...new Set(changed.map((c) => c.publicationId))];
    const slugs = await db.selectDistinct({ slug: publications.slug }).from(publications).where(inArray(publications.id, ids));
    for (const { slug } of slugs) this.options.store.invalidatePublication(slug);
  }

  /** Begin narrating the library in the background (when concurrency > 0). Returns at once. */
  start(): void {
    if (this.settings.concurrency <= 0 || this.stopped) return;
    this.pool.warm('en', this.voiceOf('en')!.id);
    void this.scan().catch((err) => this.options.logger.warn({ err }, 'narration scan failed'));
  }

  /** The library changed (an import or an edition built on demand): fix the edition flags and queue new work. */
  async libraryChanged(): Promise<void> {
    await this.prepare();
    if (this.settings.concurrency > 0 && !this.stopped) void this.scan().catch((err) => this.options.logger.warn({ err }, 'narration scan failed'));
  }

  /**
   * Queue every voiced passage whose narration is missing or stale (jobs given up on start over). Returns how many
   * jobs are left in the queue, for this server and any other on the database.
   */
  scan(): Promise<number> {
    this.scanning ??= this.doScan().finally(() => {
      this.scanning = null;
      this.settle();
    });
    return this.scanning;
  }

  private async doScan(): Promise<number> {
    const { db } = this.options.database;
    const eds = await db
      .select({ id: editions.id, language: editions.language })
      .from(editions)
      .where(inArray(editions.language, [...VOICED_LANGUAGES]));
    const todo: { passageId: number; key: string; rank: number; priority: number; editionId: number }[] = [];
    for (const e of eds) {
      const voice = this.voiceOf(e.language)!;
      const rows = await db
        .select({ id: passages.id, position: passages.position, text: passages.text, audioUrl: passages.audioUrl, hasMarks: isNotNull(passages.speechMarks) })
        .from(passages)
        .where(eq(passages.editionId, e.id));
      for (const r of rows) {
        const key = narrationKey(passagePlainText(r.text), voice.keyVoice);
        if (r.audioUrl === audioUrl(key) && r.hasMarks) continue;
        // Every edition's first passages first: that is where readers start.
        todo.push({ passageId: r.id, key, rank: r.position, priority: PRIORITY_BACKGROUND, editionId: e.id });
      }
    }
    todo.sort((a, b) => a.rank - b.rank || a.editionId - b.editionId);
    await this.jobs.enqueue(todo, { retryGivenUp: true });
    this.pendingCount = await this.jobs.pending();
    this.wake();
    return this.pendingCount;
  }

  /** Queue a passage ahead of the rest of the background work (the next page of someone's reading). */
  async prefetch(passageId: number): Promise<void> {
    if (this.settings.concurrency <= 0 || this.stopped) return;
    const row = await this.row(passageId);
    const voice = row && this.voiceOf(row.language);
    if (!row || !voice) return;
    const key = narrationKey(passagePlainText(row.text), voice.keyVoice);
    if (this.isReady(row, key)) return;
    await this.jobs.enqueue([{ passageId, key, rank: row.position, priority: PRIORITY_NEXT }]);
    this.wake();
  }

  /**
   * Resolves when no work is left: nothing running in this process and, with a background queue, no job left in
   * the database that is not done or given up (whichever server holds it).
   */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.settle();
    });
  }

  /** Jobs left in the queue (queued or running, on any server), as last counted. */
  get pending(): number {
    return this.pendingCount;
  }

  onProgress(listener: (p: NarrationProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Stop narrating: end the workers, let this process's bookkeeping settle, and give its leased jobs back (their
   * attempts do not count), so that another server takes them at once.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.pollTimer = this.renewTimer = null;
    await this.pool.close();
    // Let in-flight bookkeeping settle (their pool jobs were rejected).
    await Promise.allSettled([...this.turns]);
    await Promise.allSettled([...this.working.values()].map((w) => w.promise));
    await Promise.allSettled([...this.inflight.values()].map((f) => f.promise));
    if (this.scanning) await this.scanning.catch(() => undefined);
    try {
      const released = await this.jobs.release();
      if (released) this.options.logger.info({ released }, 'narration jobs given back');
    } catch (err) {
      this.options.logger.warn({ err }, 'could not give narration jobs back; they return when their lease runs out');
    }
    this.settle();
  }

  private locallyQuiet(): boolean {
    return this.active === 0 && this.working.size === 0 && this.inflight.size === 0 && !this.scanning;
  }

  private settle(): void {
    if (!this.idleWaiters.length || !this.locallyQuiet()) return;
    const done = () => {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const w of waiters) w();
    };
    if (this.settings.concurrency <= 0 || this.stopped) return done();
    if (this.checkingIdle) return;
    this.checkingIdle = true;
    this.jobs
      .pending()
      .then((n) => {
        this.pendingCount = n;
        // Work left (held by another server, or waiting for its retry): the poll looks again.
        if (n === 0 && this.locallyQuiet()) done();
      })
      .catch((err) => this.options.logger.warn({ err }, 'narration queue count failed'))
      .finally(() => {
        this.checkingIdle = false;
      });
  }

  /** Something may be claimable: let the background slots look. */
  private wake(): void {
    this.hungry = true;
    this.pump();
  }

  private pump(): void {
    if (this.stopped || this.settings.concurrency <= 0) return;
    this.startPolling();
    while (this.hungry && this.active < this.settings.concurrency) {
      this.active++;
      const turn = this.backgroundTurn()
        .catch((err) => {
          if (!this.stopped) this.options.logger.warn({ err }, 'background narration failed');
        })
        .finally(() => {
          this.active--;
          this.turns.delete(turn);
          this.pump();
          this.settle();
        });
      this.turns.add(turn);
    }
  }

  /** Claim the next job and work on it. */
  private async backgroundTurn(): Promise<void> {
    let job: ClaimedJob | null;
    try {
      job = await this.jobs.claimNext();
    } catch (err) {
      this.hungry = false;
      throw err;
    }
    if (!job || this.stopped) {
      this.hungry = false;
      return;
    }
    await this.work(job, false);
    this.refreshPending();
  }

  /** Look for work now and then while idle: other servers' jobs, retries that are due, leases that ran out. */
  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => {
      this.wake();
      this.settle();
    }, this.settings.pollMs ?? DEFAULT_POLL_MS);
    this.pollTimer.unref();
  }

  /** Keep this process's leases alive while it holds jobs. */
  private startRenewing(): void {
    if (this.renewTimer || this.stopped) return;
    this.renewTimer = setInterval(() => {
      if (!this.working.size) return;
      this.jobs.renew().catch((err) => this.options.logger.warn({ err }, 'narration lease renewal failed'));
    }, Math.max(100, Math.floor(this.jobs.settings.leaseMs / 3)));
    this.renewTimer.unref();
  }

  /** Count the jobs left, at most once a second (a count reads the whole table). */
  private refreshPending(): void {
    const now = Date.now();
    if (now - this.pendingCountedAt < 1000) return;
    this.pendingCountedAt = now;
    this.jobs
      .pending()
      .then((n) => {
        this.pendingCount = n;
      })
      .catch(() => undefined);
  }

  /** Work on a claimed job: narrate its passage (or find it done), record it, and finish the job. */
  private work(job: ClaimedJob, priority: boolean): Promise<ReadyAudio | null> {
    const entry: Working = { promise: Promise.resolve(null), key: null, priority };
    entry.promise = this.runJob(job, entry).finally(() => {
      this.working.delete(job.passageId);
      this.settle();
    });
    this.working.set(job.passageId, entry);
    this.startRenewing();
    return entry.promise;
  }

  private async runJob(job: ClaimedJob, entry: Working): Promise<ReadyAudio | null> {
    let editionId = 0;
    try {
      const row = await this.row(job.passageId);
      editionId = row?.editionId ?? 0;
      const voice = row && this.voiceOf(row.language);
      if (!row || !voice) {
        await this.jobs.complete(job.passageId, [job.key]);
        return null;
      }
      const key = narrationKey(passagePlainText(row.text), voice.keyVoice);
      entry.key = key;
      if (this.isReady(row, key)) {
        await this.jobs.complete(job.passageId, [job.key, key]);
        return this.rowAudio(row, voice);
      }
      const meta = await this.narration(key, row, voice, entry.priority);
      const audio = await this.persist(row, key, meta);
      await this.jobs.complete(job.passageId, [job.key, key]);
      return audio;
    } catch (error) {
      if (!this.stopped) {
        this.stats.failed++;
        this.emit({ passageId: job.passageId, editionId, outcome: 'failed', durationMs: 0, bytes: 0 });
        const outcome = await this.jobs.fail(job.passageId, job.key, error instanceof Error ? error.message : String(error)).catch(() => null);
        if (outcome === 'given-up') this.options.logger.warn({ err: error, passageId: job.passageId, attempts: job.attempts }, 'narration given up after its attempts');
      }
      throw error;
    }
  }

  // ---- answers for the endpoints ----

  /** The narration of a passage: ready, or started with priority and waited for up to `waitMs`. */
  async audioFor(passageId: number, options: { editionId?: number; wait?: boolean; prefetchNext?: boolean } = {}): Promise<AudioAnswer> {
    const hit = this.readyEntry(passageId);
    if (hit) {
      if (options.editionId !== undefined && hit.editionId !== options.editionId) return { kind: 'missing' };
      if (options.prefetchNext) void this.prefetchAfter(hit).catch(() => undefined);
      return hit.answer;
    }
    const row = await this.row(passageId);
    if (!row || (options.editionId !== undefined && row.editionId !== options.editionId)) return { kind: 'missing' };
    const voice = this.voiceOf(row.language);
    if (!voice) return { kind: 'unvoiced', passageId: row.id };
    const key = narrationKey(passagePlainText(row.text), voice.keyVoice);
    if (options.prefetchNext) void this.prefetchAfter(row).catch(() => undefined);
    if (this.isReady(row, key)) {
      return this.remember(row, this.rowAudio(row, voice)).answer;
    }
    if (this.stopped) return { kind: 'generating', passageId: row.id };
    const waitMs = options.wait === false ? 0 : this.settings.waitMs;
    // A head made meanwhile answers at once; one made before this request is sent when the wait runs out.
    const head = this.heads.has(key) ? null : this.nextHead(key);
    const work = this.requested(row, key, Date.now() + waitMs);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    });
    try {
      const audio = await Promise.race([work, timeout, ...(head ? [head.promise.then(() => null)] : [])]);
      if (audio) return { kind: 'ready', passageId: row.id, audio };
      const partial = this.heads.get(key);
      return partial ? { kind: 'generating', passageId: row.id, partial } : { kind: 'generating', passageId: row.id };
    } finally {
      clearTimeout(timer);
      head?.cancel();
    }
  }

  /** Resolves when this process has the head of the narration of `key`; `cancel` stops waiting. */
  private nextHead(key: string): { promise: Promise<PartialAudio>; cancel: () => void } {
    let waiter: (head: PartialAudio) => void = () => {};
    const promise = new Promise<PartialAudio>((resolve) => {
      waiter = resolve;
    });
    const set = this.headWaiters.get(key) ?? new Set();
    set.add(waiter);
    this.headWaiters.set(key, set);
    return {
      promise,
      cancel: () => {
        set.delete(waiter);
        if (!set.size && this.headWaiters.get(key) === set) this.headWaiters.delete(key);
      },
    };
  }

  /** Store the head of a narration being made and tell who waits for it. A head that cannot be stored is left out. */
  private async keepHead(key: string, voice: string, head: NarrationHead): Promise<void> {
    const name = headKey(key);
    try {
      await this.options.audio.put(mp3Name(name), head.mp3);
    } catch (error) {
      this.options.logger.warn({ err: error, key }, 'narration head not stored');
      return;
    }
    if (!this.inflight.has(key)) return; // the whole is already done
    const partial: PartialAudio = { url: audioUrl(name), speechMarks: head.speechMarks, duration: head.durationMs, voice: narrationVoiceOfUrl(audioUrl(key)) ?? voice, seam: head.seamMs };
    this.heads.set(key, partial);
    for (const tell of this.headWaiters.get(key) ?? []) tell(partial);
  }

  /**
   * A reader asked for this passage: join this process's work on it, or raise its job to the top, claim it and
   * narrate it in the priority lane; if another server holds it, wait (until `deadline`) for its narration to reach
   * the database. Resolves with the audio, or null when it is not ready by the deadline.
   */
  private requested(row: PassageRow, key: string, deadline: number): Promise<ReadyAudio | null> {
    const local = this.joinLocal(row.id);
    if (local) return local;
    return (async () => {
      await this.jobs.enqueue([{ passageId: row.id, key, rank: row.position, priority: PRIORITY_REQUESTED }]);
      for (;;) {
        const joined = this.joinLocal(row.id);
        if (joined) return joined;
        if (this.stopped) return null;
        const job = await this.jobs.claim(row.id);
        if (job) return this.work(job, true);
        // Held elsewhere (another server, or a claim of ours about to register): look again shortly.
        if (Date.now() >= deadline) return null;
        await sleep(REMOTE_WAIT_POLL_MS);
        const fresh = await this.row(row.id);
        if (!fresh) return null;
        if (this.isReady(fresh, key)) {
          // Another server narrated it: our cached answers for the passage are stale.
          this.options.store.forgetPassage(fresh.editionId, fresh.position);
          this.options.store.invalidatePublication(fresh.slug);
          return this.remember(fresh, this.rowAudio(fresh, this.voiceOf(fresh.language)!)).answer.audio;
        }
      }
    })();
  }

  /** This process's work on a passage, raised to priority, or null. */
  private joinLocal(passageId: number): Promise<ReadyAudio | null> | null {
    const w = this.working.get(passageId);
    if (!w) return null;
    w.priority = true;
    if (w.key) this.prioritize(w.key);
    return w.promise;
  }

  /** Put the passage after this one at the head of the background queue: the reader will want it next. */
  private async prefetchAfter(row: { editionId: number; position: number }): Promise<void> {
    if (this.settings.concurrency <= 0 || this.stopped) return;
    const revision = this.options.store.contentRevision;
    const nextAt = `${row.editionId}:${row.position + 1}`;
    if (this.readyRevision === revision && this.voicedAt.has(nextAt)) return;
    const [next] = await this.options.database.db
      .select({ id: passages.id, audioUrl: passages.audioUrl })
      .from(passages)
      .where(and(eq(passages.editionId, row.editionId), eq(passages.position, row.position + 1)));
    if (next && next.audioUrl === null) await this.prefetch(next.id);
    else if (next && this.readyRevision === revision && this.voicedAt.size < READY_CACHE_SIZE) this.voicedAt.add(nextAt);
  }

  /** The cached ready answer of a passage, if the content revision has not moved since it was read. */
  private readyEntry(passageId: number): ReadyEntry | undefined {
    if (this.readyRevision !== this.options.store.contentRevision) {
      this.ready.clear();
      this.voicedAt.clear();
      this.readyRevision = this.options.store.contentRevision;
      return undefined;
    }
    return this.ready.get(passageId);
  }

  /** Keep a passage's ready narration (read from its row or just recorded) for the next requests. */
  private remember(row: { id: number; editionId: number; position: number }, audio: ReadyAudio): ReadyEntry {
    const entry: ReadyEntry = { editionId: row.editionId, position: row.position, answer: { kind: 'ready', passageId: row.id, audio } };
    this.readyEntry(row.id); // drops the cache first if the revision moved
    if (this.ready.size >= READY_CACHE_SIZE) {
      this.ready.clear();
      this.voicedAt.clear();
    }
    this.ready.set(row.id, entry);
    this.voicedAt.add(`${row.editionId}:${row.position}`);
    return entry;
  }

  /** The voice of a language on this service (English follows `settings.englishVoice`). */
  private voiceOf(language: string): NarrationVoice | null {
    return narrationVoice(language, this.settings.englishVoice);
  }

  /** The ready audio recorded on a passage's row; its voice follows from its key. */
  private rowAudio(row: PassageRow, voice: NarrationVoice): ReadyAudio {
    return { url: row.audioUrl!, speechMarks: row.speechMarks!, duration: row.audioDurationMs!, voice: narrationVoiceOfUrl(row.audioUrl!) ?? voice.id };
  }

  private isReady(row: PassageRow, key: string): boolean {
    return row.audioUrl === audioUrl(key) && row.speechMarks !== null && row.audioDurationMs !== null;
  }

  private async row(passageId: number): Promise<PassageRow | null> {
    const { db } = this.options.database;
    const [row] = await db
      .select({
        id: passages.id,
        editionId: passages.editionId,
        position: passages.position,
        text: passages.text,
        audioUrl: passages.audioUrl,
        speechMarks: passages.speechMarks,
        audioDurationMs: passages.audioDurationMs,
        language: editions.language,
        slug: publications.slug,
      })
      .from(passages)
      .innerJoin(editions, eq(editions.id, passages.editionId))
      .innerJoin(publications, eq(publications.id, editions.publicationId))
      .where(eq(passages.id, passageId));
    return row ?? null;
  }

  private prioritize(key: string): void {
    const f = this.inflight.get(key);
    if (!f || f.priority) return;
    f.priority = true;
    if (f.poolJob !== null) this.pool.promote(f.poolJob);
  }

  /** The narration for a key: from the audio store, or made once by the pool however many ask at once. */
  private narration(key: string, row: PassageRow, voice: NarrationVoice, priority: boolean): Promise<NarrationMeta> {
    const existing = this.inflight.get(key);
    if (existing) {
      if (priority) this.prioritize(key);
      return existing.promise;
    }
    const flight: InFlight = { promise: Promise.resolve(null as never), priority, poolJob: null };
    flight.promise = (async () => {
      const { audio } = this.options;
      const stored = await readMeta(audio, key);
      if (stored && (await audio.has(mp3Name(key)))) {
        this.stats.reused++;
        this.emit({ passageId: row.id, editionId: row.editionId, outcome: 'reused', durationMs: stored.durationMs, bytes: 0 });
        return stored;
      }
      if (this.stopped) throw new Error('Narration is stopped');
      // A requested passage's head is made first, so the reader hears it while the rest is said.
      const onHead = flight.priority ? (head: NarrationHead) => void this.keepHead(key, voice.id, head) : undefined;
      const job = this.pool.run(passagePlainText(row.text), row.language, voice.id, flight.priority, onHead);
      flight.poolJob = job.id;
      const result = await job.promise;
      this.stats.synthesized++;
      this.stats.perKey.set(key, (this.stats.perKey.get(key) ?? 0) + 1);
      this.stats.audioMs += result.durationMs;
      this.stats.mp3Bytes += result.mp3.length;
      const meta: NarrationMeta = {
        key,
        voice: result.voice,
        durationMs: result.durationMs,
        speechMarks: result.speechMarks,
        createdAt: new Date().toISOString(),
      };
      await writeNarration(audio, meta, result.mp3);
      this.emit({ passageId: row.id, editionId: row.editionId, outcome: 'synthesized', durationMs: result.durationMs, bytes: result.mp3.length });
      return meta;
    })().finally(() => {
      this.inflight.delete(key);
      this.heads.delete(key);
      this.settle();
    });
    this.inflight.set(key, flight);
    return flight.promise;
  }

  /** Record a narration on its passage (if the text is still the one narrated) and on its edition's total. */
  private async persist(row: PassageRow, key: string, meta: NarrationMeta): Promise<ReadyAudio> {
    const url = audioUrl(key);
    const { db } = this.options.database;
    const updated = await this.options.database.exclusive(async () => {
      const done = await db
        .update(passages)
        .set({ audioUrl: url, speechMarks: meta.speechMarks, audioDurationMs: meta.durationMs })
        .where(and(eq(passages.id, row.id), eq(passages.text, row.text)))
        .returning({ id: passages.id });
      if (done.length) {
        await db
          .update(editions)
          .set({
            audioTotalLength: sql`coalesce((select sum(${passages.audioDurationMs}) from ${passages} where ${passages.editionId} = ${row.editionId} and ${passages.audioUrl} is not null), 0) / 1000.0`,
          })
          .where(eq(editions.id, row.editionId));
      }
      return done.length > 0;
    });
    const audio: ReadyAudio = { url, speechMarks: meta.speechMarks, duration: meta.durationMs, voice: narrationVoiceOfUrl(url) ?? meta.voice };
    if (updated) {
      this.stats.persisted++;
      this.options.store.forgetPassage(row.editionId, row.position);
      this.options.store.invalidatePublication(row.slug);
      this.remember(row, audio);
    }
    return audio;
  }

  private emit(p: NarrationProgress): void {
    for (const l of this.listeners) l(p);
  }
}
