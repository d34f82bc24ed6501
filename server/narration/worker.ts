/**
 * A narration worker thread: runs `narrate` for the pool (pool.ts) off the server's event loop. The pool may
 * ask a worker running a background job to pause (its slot in a shared Int32Array set to 1) while a requested
 * passage is narrated; the worker checks at every chunk of audio and sleeps on the slot until it is cleared.
 */
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { narrate, type NarrationHead } from './pipeline';

export type WorkerRequest =
  /** `head`: send the head of a Flite narration ('head') before the whole, for a passage someone asked for. */
  | { type: 'job'; id: number; plain: string; language: string; voice: string; head?: boolean }
  | { type: 'warm'; id: number; language: string; voice: string };

export type WorkerReply =
  | {
      type: 'done';
      id: number;
      mp3: Uint8Array;
      speechMarks: { offset: number; time: number }[];
      durationMs: number;
      voice: string;
      synthMs: number;
      encodeMs: number;
      pausedMs: number;
    }
  | { type: 'head'; id: number; mp3: Uint8Array; speechMarks: { offset: number; time: number }[]; durationMs: number; seamMs: number }
  | { type: 'error'; id: number; message: string };

const port = parentPort;
if (!port) throw new Error('worker.ts runs in a worker thread');
const data = workerData as { pause: SharedArrayBuffer; slot: number; nice?: number } | undefined;
const flags = data ? new Int32Array(data.pause) : null;
const slot = data?.slot ?? 0;
let pausedMs = 0;

// A background worker yields the CPU to everything else (the HTTP server, other programs): on Linux a thread has
// its own id, and setpriority() on that id renices only this thread. Elsewhere this is skipped.
if (data?.nice) {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, data.nice);
  } catch {
    // Not Linux, or not allowed: run at normal priority.
  }
}

function yieldPoint(): void {
  if (!flags || Atomics.load(flags, slot) === 0) return;
  const t0 = performance.now();
  while (Atomics.load(flags, slot) !== 0) Atomics.wait(flags, slot, 1, 1000);
  pausedMs += performance.now() - t0;
}

port.on('message', async (msg: WorkerRequest) => {
  pausedMs = 0;
  try {
    const plain = msg.type === 'warm' ? 'Ready.' : msg.plain;
    const onHead =
      msg.type === 'job' && msg.head
        ? (head: NarrationHead) => port.postMessage({ type: 'head', id: msg.id, ...head } satisfies WorkerReply, [head.mp3.buffer as ArrayBuffer])
        : undefined;
    const result = await narrate(plain, msg.language, { yieldPoint, voice: msg.voice, onHead });
    const reply: WorkerReply = { type: 'done', id: msg.id, ...result, pausedMs };
    port.postMessage(reply, [result.mp3.buffer as ArrayBuffer]);
  } catch (error) {
    const reply: WorkerReply = { type: 'error', id: msg.id, message: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
