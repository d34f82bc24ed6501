/**
 * The narration service: a background queue that narrates the whole library while the server runs, and the
 * answers the audio endpoints give.
 *
 *  - Never at the cost of start-up: startServer calls `prepare` (one UPDATE for the editions' audio flags and
 *    totals) and then `start`, which scans the library in the background after the server listens.
 *  - Never twice: work is keyed by `narrationKey(plain text, voice)`. One narration per key runs at a time
 *    (later askers join it); a finished one is in the audio store (MP3 + a JSON sidecar with the marks) and in
 *    the passages row, so a restart, a second passage with the same text, or a fresh database reuses it.
 *  - A requested passage jumps the queue: it runs in the pool's priority lane, background workers pause, and the
 *    request waits up to NARRATION_WAIT_MS for it before answering 202 'generating'.
 *  - As passages finish, passages.audioUrl / speechMarks / audioDurationMs and editions.audioTotalLength are
 *    updated and the content store's cached passage and publication answers are dropped.
 */
import os from 'node:os';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { editions, passages, publications } from '../db/schema';
import type { ContentStore } from '../content/store';
import { passagePlainText } from '../../src/domain/sanitize';
import { NarrationPool } from './pool';
import { narrationKey } from './pipeline';
import { mp3Name, readMeta, writeNarration, type AudioStore, type NarrationMeta } from './storage';
import type { SpeechMark } from './speechMarks';
import { VOICED_LANGUAGES, voiceFor } from './voices';

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
}

/**
 * Settings from the environment: NARRATION_CONCURRENCY (default 2 on a server with a data directory or
 * PostgreSQL, 0 for an in-memory database such as the test servers'), NARRATION_WAIT_MS (default 1800) and
 * NARRATION_PRIORITY_WORKERS (default 1).
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
  };
}

export interface ReadyAudio {
  url: string;
  speechMarks: SpeechMark[];
  /** Length of the MP3, ms. */
  duration: number;
}

export type AudioAnswer =
  | { kind: 'ready'; passageId: number; audio: ReadyAudio }
  | { kind: 'generating'; passageId: number }
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
}

export class NarrationService {
  readonly settings: NarrationSettings;
  readonly stats: NarrationStats = { synthesized: 0, reused: 0, failed: 0, persisted: 0, audioMs: 0, mp3Bytes: 0, perKey: new Map() };
  private readonly pool: NarrationPool;
  private readonly inflight = new Map<string, InFlight>();
  private readonly persisting = new Map<string, Promise<ReadyAudio>>();
  private backlog: number[] = [];
  private readonly queued = new Set<number>();
  private running = 0;
  private scanning: Promise<number> | null = null;
  private stopped = false;
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
  }

  get audioStore(): AudioStore {
    return this.options.audio;
  }

  /**
   * Make the editions' audio fields true to what we can narrate: audioEnabled and highlightModeEnabled for every
   * voiced language (audio is made on request, so it is available from the start), and audioTotalLength from the
   * passages narrated so far. Drops the content store's cache if anything changed.
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
        .returning({ id: editions.id }),
    );
    if (changed.length) this.options.store.invalidate();
  }

  /** Begin narrating the library in the background (when concurrency > 0). Returns at once. */
  start(): void {
    if (this.settings.concurrency <= 0 || this.stopped) return;
    this.pool.warm();
    void this.scan().catch((err) => this.options.logger.warn({ err }, 'narration scan failed'));
  }

  /** The library changed (an import or an edition built on demand): fix the edition flags and queue new work. */
  async libraryChanged(): Promise<void> {
    await this.prepare();
    if (this.settings.concurrency > 0 && !this.stopped) void this.scan().catch((err) => this.options.logger.warn({ err }, 'narration scan failed'));
  }

  /** Queue every voiced passage whose narration is missing or stale. Returns how many were queued. */
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
    const todo: { id: number; position: number; editionId: number }[] = [];
    for (const e of eds) {
      const voice = voiceFor(e.language)!;
      const rows = await db
        .select({ id: passages.id, position: passages.position, text: passages.text, audioUrl: passages.audioUrl, hasMarks: isNotNull(passages.speechMarks) })
        .from(passages)
        .where(eq(passages.editionId, e.id));
      for (const r of rows) {
        if (r.audioUrl === audioUrl(narrationKey(passagePlainText(r.text), voice)) && r.hasMarks) continue;
        todo.push({ id: r.id, position: r.position, editionId: e.id });
      }
    }
    // Every edition's first passages first: that is where readers start.
    todo.sort((a, b) => a.position - b.position || a.editionId - b.editionId);
    let added = 0;
    for (const t of todo) {
      if (this.queued.has(t.id)) continue;
      this.queued.add(t.id);
      this.backlog.push(t.id);
      added++;
    }
    this.pump();
    return added;
  }

  /** Queue a passage ahead of the rest of the background work (the next page of someone's reading). */
  prefetch(passageId: number): void {
    if (this.settings.concurrency <= 0 || this.stopped) return;
    if (this.queued.has(passageId)) {
      this.backlog = [passageId, ...this.backlog.filter((id) => id !== passageId)];
    } else {
      this.queued.add(passageId);
      this.backlog.unshift(passageId);
    }
    this.pump();
  }

  /** Resolves when no background or requested work is left. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Background passages still queued or running. */
  get pending(): number {
    return this.backlog.length + this.running;
  }

  onProgress(listener: (p: NarrationProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.backlog = [];
    this.queued.clear();
    await this.pool.close();
    // Let in-flight bookkeeping settle (their pool jobs were rejected).
    await Promise.allSettled([...this.inflight.values()].map((f) => f.promise));
    await Promise.allSettled([...this.persisting.values()]);
  }

  private isIdle(): boolean {
    return this.backlog.length === 0 && this.running === 0 && this.inflight.size === 0 && this.persisting.size === 0 && !this.scanning;
  }

  private settle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private pump(): void {
    while (!this.stopped && this.running < this.settings.concurrency && this.backlog.length) {
      const id = this.backlog.shift()!;
      this.running++;
      this.runBackground(id)
        .catch((err) => {
          if (!this.stopped) this.options.logger.warn({ err, passageId: id }, 'background narration failed');
        })
        .finally(() => {
          this.queued.delete(id);
          this.running--;
          this.pump();
          this.settle();
        });
    }
  }

  private async runBackground(passageId: number): Promise<void> {
    const row = await this.row(passageId);
    if (!row) return;
    const voice = voiceFor(row.language);
    if (!voice) return;
    const key = narrationKey(passagePlainText(row.text), voice);
    if (this.isReady(row, key)) return;
    await this.ensurePassage(row, key, false);
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
    const voice = voiceFor(row.language);
    if (!voice) return { kind: 'unvoiced', passageId: row.id };
    const key = narrationKey(passagePlainText(row.text), voice);
    if (options.prefetchNext) void this.prefetchAfter(row).catch(() => undefined);
    if (this.isReady(row, key)) {
      return this.remember(row, { url: row.audioUrl!, speechMarks: row.speechMarks!, duration: row.audioDurationMs! }).answer;
    }
    if (this.stopped) return { kind: 'generating', passageId: row.id };
    const work = this.ensurePassage(row, key, true);
    const waitMs = options.wait === false ? 0 : this.settings.waitMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    });
    try {
      const audio = await Promise.race([work, timeout]);
      return audio ? { kind: 'ready', passageId: row.id, audio } : { kind: 'generating', passageId: row.id };
    } finally {
      clearTimeout(timer);
    }
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
    if (next && next.audioUrl === null) this.prefetch(next.id);
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

  /** Narrate (or reuse) a passage's audio and record it on the passage. One at a time per passage and text. */
  private ensurePassage(row: PassageRow, key: string, priority: boolean): Promise<ReadyAudio> {
    const id = `${row.id}:${key}`;
    let work = this.persisting.get(id);
    if (work) {
      if (priority) this.prioritize(key);
      return work;
    }
    work = this.narration(key, row, priority)
      .then((meta) => this.persist(row, key, meta))
      .finally(() => {
        this.persisting.delete(id);
        this.settle();
      });
    this.persisting.set(id, work);
    return work;
  }

  private prioritize(key: string): void {
    const f = this.inflight.get(key);
    if (!f || f.priority) return;
    f.priority = true;
    if (f.poolJob !== null) this.pool.promote(f.poolJob);
  }

  /** The narration for a key: from the audio store, or made once by the pool however many ask at once. */
  private narration(key: string, row: PassageRow, priority: boolean): Promise<NarrationMeta> {
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
      const job = this.pool.run(passagePlainText(row.text), row.language, flight.priority);
      flight.poolJob = job.id;
      let result;
      try {
        result = await job.promise;
      } catch (error) {
        this.stats.failed++;
        this.emit({ passageId: row.id, editionId: row.editionId, outcome: 'failed', durationMs: 0, bytes: 0 });
        throw error;
      }
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
    const audio: ReadyAudio = { url, speechMarks: meta.speechMarks, duration: meta.durationMs };
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
