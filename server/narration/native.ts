/**
 * The native narration helper (native/lectern-speech.c, built by native/build.mjs where the system has eSpeak NG
 * and LAME): the same synthesis and MP3 encoding as espeak.ts and mp3.ts, in C. Where it is built, espeak voices
 * and every MP3 go through it (docs/narration.md "Native engine"); elsewhere, and with NARRATION_NATIVE=off, the
 * portable pipeline does. One helper process per thread, started on first use; its requests are answered in order.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { NATIVE_BINARY, NATIVE_RECORD } from './native/build.mjs';
import type { EspeakWordEvent } from './speechMarks';

export interface NativeBuild {
  binary: string;
  /** The libraries' versions, as the helper reported them when it was built. */
  espeak: string;
  lame: string;
}

let build: NativeBuild | null | undefined;

/** The built helper, or null where there is none or NARRATION_NATIVE is 'off'. Read once per thread. */
export function nativeBuild(): NativeBuild | null {
  if (build !== undefined) return build;
  build = null;
  if (process.env.NARRATION_NATIVE === 'off') return build;
  try {
    const record = JSON.parse(fs.readFileSync(NATIVE_RECORD, 'utf8')) as { espeak?: unknown; lame?: unknown };
    if (typeof record.espeak === 'string' && typeof record.lame === 'string' && fs.existsSync(NATIVE_BINARY)) {
      build = { binary: NATIVE_BINARY, espeak: record.espeak, lame: record.lame };
    }
  } catch {
    // Not built here.
  }
  return build;
}

/** What narration keys add for espeak voices spoken natively (their audio is not the JavaScript build's). */
export function nativeEspeakTag(): string | null {
  const b = nativeBuild();
  return b ? `native espeak-ng ${b.espeak}` : null;
}

const EVENT_TYPES: Record<number, EspeakWordEvent['type']> = { 1: 'word', 5: 'end' };

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value);
  return b;
}

/** A running helper process and the reader of its answers. */
class NativeSpeech {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private wake: (() => void) | null = null;
  private failure: Error | null = null;
  /** Requests run one after another: each waits for the one before it. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(binary: string) {
    this.child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      this.wake?.();
    });
    const stop = (error: Error) => {
      this.failure ??= error;
      this.wake?.();
    };
    this.child.on('error', stop);
    this.child.on('exit', (code, signal) => stop(new Error(`The native narration helper stopped (${signal ?? `exit ${code}`})`)));
    this.child.stdin.on('error', stop);
    this.idle();
  }

  /** The process has stopped (it is started again on the next use). */
  get stopped(): boolean {
    return this.failure !== null;
  }

  /** Between requests the helper does not keep a process (a CLI, a test) alive. */
  private idle(): void {
    this.child.unref();
    (this.child.stdout as Readable & { unref?: () => void }).unref?.();
  }

  private busy(): void {
    this.child.ref();
    (this.child.stdout as Readable & { ref?: () => void }).ref?.();
  }

  private async take(n: number): Promise<Buffer> {
    while (this.buffered < n) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  private async readU32(): Promise<number> {
    return (await this.take(4)).readUInt32LE(0);
  }

  /** Sends a request and reads its answer with `read`, after every earlier request has been answered. */
  private request<T>(message: Buffer, read: () => Promise<T>): Promise<T> {
    const run = async () => {
      if (this.failure) throw this.failure;
      this.busy();
      try {
        this.child.stdin.write(message);
        const status = (await this.take(1))[0];
        if (status !== 0) throw new Error((await this.take(await this.readU32())).toString('utf8'));
        return await read();
      } finally {
        this.idle();
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** 16-bit mono PCM at espeak's rate (a copy the caller owns) and espeak's word and clause-end events. */
  synthesize(text: string, voice: string, rate: number): Promise<{ samples: Int16Array; events: EspeakWordEvent[] }> {
    const textBytes = Buffer.from(text, 'utf8');
    const voiceBytes = Buffer.from(voice, 'utf8');
    const head = Buffer.alloc(3);
    head[0] = 'S'.charCodeAt(0);
    head.writeUInt16LE(voiceBytes.length, 1);
    return this.request(Buffer.concat([head, voiceBytes, u32(rate), u32(textBytes.length), textBytes]), async () => {
      const count = await this.readU32();
      const pcm = await this.take(count * 2);
      // Aligned, owned samples: the answer's bytes may start at any offset of a shared buffer.
      const samples = new Int16Array(count);
      Buffer.from(samples.buffer).set(pcm);
      const eventCount = await this.readU32();
      const raw = await this.take(eventCount * 16);
      const events: EspeakWordEvent[] = [];
      for (let i = 0; i < eventCount; i++) {
        const at = i * 16;
        const type = EVENT_TYPES[raw.readInt32LE(at)];
        if (!type) continue;
        events.push({ type, position: raw.readInt32LE(at + 4), length: raw.readInt32LE(at + 8), time: raw.readInt32LE(at + 12) });
      }
      return { samples, events };
    });
  }

  /** A constant-bitrate mono MP3 at `outputRate` of 16-bit PCM at `inputRate`, as mp3.ts's encoder writes it. */
  encode(samples: Int16Array, inputRate: number, outputRate: number, kbps: number): Promise<Uint8Array> {
    const head = Buffer.concat([Buffer.from('E'), u32(inputRate), u32(outputRate), u32(kbps), u32(samples.length)]);
    const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    return this.request(Buffer.concat([head, pcm]), async () => new Uint8Array(await this.take(await this.readU32())));
  }
}

let helper: NativeSpeech | null = null;

/** This thread's helper, started on first use; null where there is none. A helper that stopped is started again. */
export function nativeSpeech(): NativeSpeech | null {
  const b = nativeBuild();
  if (!b) return null;
  if (!helper || helper.stopped) helper = new NativeSpeech(b.binary);
  return helper;
}

export type { NativeSpeech };
