/**
 * A pool of narration worker threads with two lanes. Background workers (NARRATION_CONCURRENCY of them) work
 * through the library; priority workers (one by default) are kept for passages someone asked for. While any
 * priority job runs, every background worker pauses at its next chunk of audio (about every 100 ms of speech),
 * so a requested passage gets the CPU to itself and is ready in about a second even when the library is being
 * narrated. Background workers also run at a lower CPU priority (niceness 10, on Linux), so the HTTP server and
 * other programs on the machine come first. Idle background workers also take priority jobs. Workers start on
 * first use.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { WorkerReply, WorkerRequest } from './worker';
import type { NarrationHead, NarrationResult } from './pipeline';

export interface PoolResult extends NarrationResult {
  /** Milliseconds the job spent paused for priority work. */
  pausedMs: number;
}

interface Job {
  id: number;
  plain: string;
  language: string;
  /** The voice's id ('flite-slt', 'espeak-en-us', …). */
  voice: string;
  priority: boolean;
  warm?: boolean;
  /** Given the head of a Flite narration before the whole (only asked of the worker when set). */
  onHead?: (head: NarrationHead) => void;
  resolve(result: PoolResult): void;
  reject(error: Error): void;
}

interface Slot {
  index: number;
  lane: 'background' | 'priority';
  worker: Worker | null;
  job: Job | null;
}

export interface PoolOptions {
  /** Workers for background jobs. */
  background: number;
  /** Workers kept for requested passages. @default 1 */
  priority?: number;
  logger?: Logger;
}

const ENTRY = new URL('./worker-entry.mjs', import.meta.url);
/** Background workers run at this niceness (Linux), so serving requests and other programs come first. @default 10 */
export const BACKGROUND_NICE = 10;

export class NarrationPool {
  private readonly slots: Slot[] = [];
  private readonly flags: Int32Array;
  private readonly queue: { priority: Job[]; background: Job[] } = { priority: [], background: [] };
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    const priority = Math.max(1, options.priority ?? 1);
    const total = options.background + priority;
    this.flags = new Int32Array(new SharedArrayBuffer(4 * total));
    for (let i = 0; i < total; i++) this.slots.push({ index: i, lane: i < options.background ? 'background' : 'priority', worker: null, job: null });
  }

  /**
   * Narrate in a worker. A priority job goes before every background job and pauses the running ones. `onHead` is
   * given the head of a Flite narration while the rest is said (pipeline.ts NarrateOptions.onHead).
   */
  run(plain: string, language: string, voice: string, priority: boolean, onHead?: (head: NarrationHead) => void): { id: number; promise: Promise<PoolResult> } {
    if (this.closed) return { id: 0, promise: Promise.reject(new Error('The narration pool is closed')) };
    const id = this.nextId++;
    const promise = new Promise<PoolResult>((resolve, reject) => {
      this.queue[priority ? 'priority' : 'background'].push({ id, plain, language, voice, priority, onHead, resolve, reject });
    });
    this.dispatch();
    return { id, promise };
  }

  /** Make a queued or running background job a priority job (someone asked for its passage). */
  promote(id: number): void {
    const i = this.queue.background.findIndex((j) => j.id === id);
    if (i >= 0) {
      const [job] = this.queue.background.splice(i, 1);
      job.priority = true;
      this.queue.priority.push(job);
      this.dispatch();
      return;
    }
    const slot = this.slots.find((s) => s.job?.id === id);
    if (slot?.job && !slot.job.priority) {
      slot.job.priority = true;
      this.updatePauses();
    }
  }

  /** Start a priority worker and load the voice's engine in it (espeak or Flite), so the first request is fast. */
  warm(language: string, voice: string): void {
    const slot = this.slots.find((s) => s.lane === 'priority' && !s.worker && !s.job);
    if (!slot || this.closed) return;
    const job: Job = { id: this.nextId++, plain: '', language, voice, priority: true, warm: true, resolve: () => {}, reject: () => {} };
    this.start(slot, job);
  }

  get busy(): number {
    return this.slots.filter((s) => s.job).length + this.queue.priority.length + this.queue.background.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.queue.priority, ...this.queue.background];
    this.queue.priority = [];
    this.queue.background = [];
    for (const job of pending) job.reject(new Error('The narration pool is closed'));
    for (let i = 0; i < this.flags.length; i++) Atomics.store(this.flags, i, 0);
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.job?.reject(new Error('The narration pool is closed'));
        slot.job = null;
        const w = slot.worker;
        slot.worker = null;
        if (w) await w.terminate();
      }),
    );
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.priority.shift() ?? (slot.lane === 'background' ? this.queue.background.shift() : undefined);
      if (job) this.start(slot, job);
    }
    this.updatePauses();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    Atomics.store(this.flags, slot.index, 0);
    const worker = slot.worker ?? this.spawn(slot);
    const request: WorkerRequest = job.warm
      ? { type: 'warm', id: job.id, language: job.language, voice: job.voice }
      : { type: 'job', id: job.id, plain: job.plain, language: job.language, voice: job.voice, head: job.onHead !== undefined };
    worker.postMessage(request);
  }

  private spawn(slot: Slot): Worker {
    const nice = slot.lane === 'background' ? BACKGROUND_NICE : 0;
    const worker = new Worker(ENTRY, { workerData: { pause: this.flags.buffer, slot: slot.index, nice } });
    slot.worker = worker;
    worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      if (reply.type === 'head') {
        const { type: _type, id: _id, ...head } = reply;
        job.onHead?.(head);
        return;
      }
      slot.job = null;
      if (reply.type === 'done') {
        const { type: _type, id: _id, ...result } = reply;
        job.resolve(result);
      } else {
        job.reject(new Error(reply.message));
      }
      this.dispatch();
    });
    const fail = (error: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      const job = slot.job;
      slot.job = null;
      if (job) job.reject(error);
      if (!this.closed) this.options.logger?.warn({ err: error }, 'narration worker stopped; a new one starts with the next job');
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`narration worker exited with code ${code}`)));
    return worker;
  }

  private updatePauses(): void {
    const priorityRunning = this.slots.some((s) => s.job?.priority);
    for (const slot of this.slots) {
      const pause = priorityRunning && slot.job !== null && !slot.job.priority ? 1 : 0;
      if (Atomics.load(this.flags, slot.index) !== pause) {
        Atomics.store(this.flags, slot.index, pause);
        if (!pause) Atomics.notify(this.flags, slot.index);
      }
    }
  }
}
