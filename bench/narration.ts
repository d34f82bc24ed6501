/**
 * Synthesis bench (measured here, never asserted in tests): CPU seconds per minute of audio and MP3 kbps over a few
 * passages of the real library, and how long the whole library takes at the configured concurrency.
 *
 * `narrationBench()` is for the main bench to call; `node --import tsx bench/narration.ts` runs it alone.
 * The sample is narrated twice in this thread: the first pass is what a fresh worker pays while V8 still compiles
 * espeak's JavaScript (its code paths are optimised, dropped and optimised again as new input reaches them); the
 * second is a warm worker, which is what a worker pays for most of the library. CPU time is process.cpuUsage (all
 * threads) plus the CPU of the process's children (the native helpers, server/narration/native.ts, read from
 * /proc), which other programs on the machine disturb far less than wall time.
 * The row is the "eSpeak pipeline": every voiced language spoken by its espeak voice (English too, whose
 * default voice is Flite), by the native helper where it is built; the portable pipeline (espeak's JavaScript,
 * LAME's WASM) is measured on the same sample in the same run, as the baseline of the ratio.
 * By default the whole library is estimated from the warm sample (CPU per character of text, per language, divided
 * over the workers); `full: true` (or BENCH_NARRATION_FULL=1) narrates the whole library through the worker pool
 * and measures its time and CPU (worker start-up and warm-up included). Nothing is written to DATA_DIR.
 */
import os from 'node:os';
import path from 'node:path';
import { readLibrary } from '../server/content/read';
import { readMp3Info } from '../server/narration/mp3';
import { narrate } from '../server/narration/pipeline';
import { NarrationPool } from '../server/narration/pool';
import { defaultConcurrency, narrationSettings } from '../server/narration/queue';
import { nativeBuild } from '../server/narration/native';
import { isVoiced, voiceFor } from '../server/narration/voices';
import { processTreeCpuSeconds } from './cpu';
import { espeakVoiceName } from '../src/domain/narrationVoice';
import { passagePlainText } from '../src/domain/sanitize';

export interface NarrationBenchOptions {
  /** The library folder. @default CONTENT_DIR or ./content */
  contentDir?: string;
  /** Passages sampled per language. @default 2 */
  perLanguage?: number;
  /** Narrate the whole library through the pool and time it, instead of estimating. */
  full?: boolean;
  /** Background workers. @default NARRATION_CONCURRENCY, else the server's default (2 on this machine) */
  concurrency?: number;
}

export interface NarrationBenchResult {
  /** The warm pass over the sample. */
  sample: { passages: number; languages: string[]; audioSeconds: number; cpuSeconds: number; mp3Bytes: number };
  /** CPU seconds (synthesis by each language's espeak voice, resampling, MP3 encoding, speech marks) per minute of narration, in a warm worker. */
  cpuSecondsPerAudioMinute: number;
  /** Which build spoke: 'native' (the helper, with the libraries' versions) or 'portable'. */
  engine: string;
  /** The same sample by the portable pipeline in a warm worker, in the same run: the baseline. Absent when the row is the portable one. */
  portableCpuSecondsPerAudioMinute?: number;
  /** The same for the first pass over the sample, in a thread that had only said 'Ready.' in each language. */
  coldCpuSecondsPerAudioMinute: number;
  kbps: number;
  /** The MP3's sample rate, Hz. */
  sampleRate: number;
  library: {
    passages: number;
    concurrency: number;
    cores: number;
    /** Wall-clock seconds to narrate every voiced passage. */
    seconds: number;
    audioMinutes: number;
    /** CPU seconds for every voiced passage (all threads; worker start-up included when measured). */
    cpuSeconds: number;
    /** true when measured by narrating everything; false when estimated from the sample. */
    measured: boolean;
  };
}

interface LibraryPassage {
  language: string;
  plain: string;
}

function libraryPassages(contentDir: string): LibraryPassage[] {
  const library = readLibrary(contentDir);
  if (library.problems.length) throw new Error(`The library in ${contentDir} has problems; run npm run content:import to see them`);
  const out: LibraryPassage[] = [];
  for (const pub of library.publications) {
    for (const edition of pub.editions) {
      if (!isVoiced(edition.language)) continue;
      for (const p of edition.passages) out.push({ language: edition.language, plain: passagePlainText(p.html) });
    }
  }
  return out;
}

/** The espeak voice of a language, by id ('espeak-en-us'). */
const espeakVoiceOf = (language: string) => espeakVoiceName(voiceFor(language)!);

export async function narrationBench(options: NarrationBenchOptions = {}): Promise<NarrationBenchResult> {
  const contentDir = path.resolve(options.contentDir ?? process.env.CONTENT_DIR ?? path.join(import.meta.dirname, '..', 'content'));
  const perLanguage = options.perLanguage ?? 2;
  const concurrency = Math.max(1, options.concurrency ?? (process.env.NARRATION_CONCURRENCY ? narrationSettings(process.env, true).concurrency : defaultConcurrency()));
  const full = options.full ?? process.env.BENCH_NARRATION_FULL === '1';
  const all = libraryPassages(contentDir);
  const languages = [...new Set(all.map((p) => p.language))];

  // The sample: passages spread through each language's list. Each language is warmed first (espeak start-up
  // and dictionary loading are one-off costs, not per-passage ones).
  const sample: LibraryPassage[] = [];
  for (const language of languages) {
    const list = all.filter((p) => p.language === language && p.plain.length > 0);
    for (let i = 0; i < Math.min(perLanguage, list.length); i++) sample.push(list[Math.floor(((i + 0.5) * list.length) / perLanguage)]);
  }
  const native = nativeBuild();
  const engine: 'native' | 'portable' = native ? 'native' : 'portable';
  for (const language of languages) {
    await narrate('Ready.', language, { voice: espeakVoiceOf(language), engine: 'portable' });
    if (native) await narrate('Ready.', language, { voice: espeakVoiceOf(language), engine: 'native' });
  }
  const pass = async (engine: 'native' | 'portable', perChar?: Map<string, { cpu: number; chars: number; audioMs: number }>) => {
    let audioMs = 0;
    let cpu = 0;
    let bytes = 0;
    let sampleRate = 0;
    for (const p of sample) {
      const before = processTreeCpuSeconds();
      const result = await narrate(p.plain, p.language, { voice: espeakVoiceOf(p.language), engine });
      const c = processTreeCpuSeconds() - before;
      cpu += c;
      audioMs += result.durationMs;
      bytes += result.mp3.length;
      sampleRate = readMp3Info(result.mp3)?.sampleRate ?? 0;
      if (perChar) {
        const per = perChar.get(p.language) ?? { cpu: 0, chars: 0, audioMs: 0 };
        per.cpu += c;
        per.chars += p.plain.length;
        per.audioMs += result.durationMs;
        perChar.set(p.language, per);
      }
    }
    return { audioMs, cpu, bytes, sampleRate };
  };
  const cold = await pass(engine);
  const cpuPerChar = new Map<string, { cpu: number; chars: number; audioMs: number }>();
  const { audioMs, cpu, bytes, sampleRate } = await pass(engine, cpuPerChar);
  // The baseline gets the same treatment: a first pass (V8 still compiling espeak's JavaScript), then the warm one.
  const portable = native ? (await pass('portable'), await pass('portable')) : null;
  const cpuPerAudioMinute = cpu / (audioMs / 60_000);
  const cores = os.availableParallelism();

  let seconds: number;
  let audioMinutes: number;
  let libraryCpu = 0;
  if (full) {
    const cpu0 = processTreeCpuSeconds();
    const pool = new NarrationPool({ background: concurrency, priority: 1 });
    const t0 = performance.now();
    let total = 0;
    try {
      const results = await Promise.all(all.map((p) => pool.run(p.plain, p.language, espeakVoiceOf(p.language), false).promise));
      total = results.reduce((n, r) => n + r.durationMs, 0);
      // Before the pool closes: its workers' helpers are still there to be read.
      libraryCpu = processTreeCpuSeconds() - cpu0;
    } finally {
      await pool.close();
    }
    seconds = (performance.now() - t0) / 1000;
    audioMinutes = total / 60_000;
  } else {
    let estimatedCpu = 0;
    let estimatedAudioMs = 0;
    for (const p of all) {
      const per = cpuPerChar.get(p.language)!;
      estimatedCpu += (per.cpu / per.chars) * p.plain.length;
      estimatedAudioMs += (per.audioMs / per.chars) * p.plain.length;
    }
    // Workers share the cores; worker start-up (about 0.5 s each) happens once.
    seconds = estimatedCpu / Math.min(concurrency, cores) + 0.5;
    libraryCpu = estimatedCpu;
    audioMinutes = estimatedAudioMs / 60_000;
  }

  return {
    sample: { passages: sample.length, languages, audioSeconds: audioMs / 1000, cpuSeconds: cpu, mp3Bytes: bytes },
    cpuSecondsPerAudioMinute: cpuPerAudioMinute,
    engine: native ? `native (espeak-ng ${native.espeak}, LAME ${native.lame})` : 'portable (espeak-ng JavaScript, LAME WASM)',
    ...(portable ? { portableCpuSecondsPerAudioMinute: portable.cpu / (portable.audioMs / 60_000) } : {}),
    coldCpuSecondsPerAudioMinute: cold.cpu / (cold.audioMs / 60_000),
    kbps: (bytes * 8) / audioMs,
    sampleRate,
    library: { passages: all.length, concurrency, cores, seconds, audioMinutes, cpuSeconds: libraryCpu, measured: full },
  };
}

export function formatNarrationBench(r: NarrationBenchResult): string {
  const lib = r.library;
  return [
    `narration, eSpeak pipeline (every language's espeak voice + MP3, ${r.sampleRate} Hz mono), ${r.engine}: ${r.cpuSecondsPerAudioMinute.toFixed(2)} CPU s per minute of audio in a warm worker ` +
      `(${r.coldCpuSecondsPerAudioMinute.toFixed(2)} in a fresh one; target <= 0.3: ${r.cpuSecondsPerAudioMinute <= 0.3 ? 'met' : 'NOT met'}), ${r.kbps.toFixed(1)} kbps ` +
      `(${r.sample.passages} passages in ${r.sample.languages.join(', ')}: ${r.sample.audioSeconds.toFixed(0)} s of audio in ${r.sample.cpuSeconds.toFixed(1)} CPU s)`,
    `whole library: ${lib.passages} passages, ${lib.audioMinutes.toFixed(1)} min of audio, ${lib.cpuSeconds.toFixed(0)} CPU s = ` +
      `${(lib.cpuSeconds / lib.audioMinutes).toFixed(2)} CPU s per minute of audio, ${lib.seconds.toFixed(0)} s at concurrency ${lib.concurrency} on ${lib.cores} core(s)` +
      (lib.measured ? ' (measured through the worker pool, worker start-up included)' : ' (estimated from the warm sample; BENCH_NARRATION_FULL=1 measures it)'),
    ...(r.portableCpuSecondsPerAudioMinute !== undefined
      ? [
          `  baseline, the same sample by the portable pipeline in this run: ${r.portableCpuSecondsPerAudioMinute.toFixed(2)} CPU s per minute of audio ` +
            `(ratio ${(r.cpuSecondsPerAudioMinute / r.portableCpuSecondsPerAudioMinute).toFixed(2)})`,
        ]
      : []),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatNarrationBench(await narrationBench()));
}
