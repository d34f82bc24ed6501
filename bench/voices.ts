/**
 * Flite slt against eSpeak en-us on the same English passages, for `npm run bench`:
 * - **CPU per minute of audio**: each passage narrated in this thread by `narrate()` (synthesis, the word marks and
 *   the MP3), after one warm-up narration per voice, CPU of the process and its children (bench/cpu.ts: the
 *   native narration helper is one);
 * - **kbps** of the MP3s;
 * - **mark drift against the decoded MP3 in Chromium**: each MP3 is decoded by Chromium's own decoder
 *   (`decodeAudioData` into a 16 kHz OfflineAudioContext: the decoder the reader's audio element uses, encoder delay
 *   included). For every mark, the 100 ms of the synthesizer's own PCM from the word's start (the mark's time less
 *   the encoder delay the pipeline assumed) is looked for in the decoded audio within ±60 ms of the mark, by
 *   normalised cross-correlation; the drift is the mark's time − where that sound is. This checks the marks' time
 *   base against what the browser plays: the encoder delay in Chromium's decoder and any drift over the passage. It
 *   does not check the synthesizers' own word timings (the next column does, roughly), nor the rounding to whole
 *   ms (at most 0.5 ms), since the source is read at the mark less the delay. (Marks whose 100 ms are near-silence,
 *   or that match poorly, are left out.) Target: |drift| p95 ≤ 30 ms, as for the highlight.
 * - **onsets**, for reference: word starts after at least 100 ms of near-silence found in the decoded sound itself
 *   (the first loud 5 ms frame), paired with the nearest mark within 150 ms. They check the synthesizers' own
 *   timings, but a word that starts with a stop ('p', 't', 'k', 'b', 'd', 'g') starts with its silent closure, so its
 *   sound comes 30–130 ms after its mark by nature: the p95 of this column is that, not an error.
 *
 * Run alone: `node --import tsx bench/voices.ts` (BENCH_VOICE_PASSAGES, default 4). Nothing is written to DATA_DIR.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config';
import { readLibrary } from '../server/content/read';
import { MP3_ENCODER_DELAY_MS } from '../server/narration/mp3';
import { narrate, type NarrationResult } from '../server/narration/pipeline';
import { passagePlainText } from '../src/domain/sanitize';
import { processTreeCpuSeconds } from './cpu';
import { percentile } from './stats';

export const VOICES_COMPARED = ['flite-slt', 'espeak-en-us'] as const;
export const MARK_DRIFT_TARGET_MS = 30;
/** Frame of the onset search, ms. */
const FRAME_MS = 5;
/** Near-silence before an onset, ms. */
const SILENCE_MS = 100;
/** An onset and a mark further apart than this are not the same word. */
const PAIR_MS = 150;

export interface VoiceRow {
  voice: string;
  passages: number;
  audioSeconds: number;
  cpuSecondsPerAudioMinute: number;
  kbps: number;
  /** Marks whose sound was found in the decoded MP3. */
  marks: number;
  /** |mark − where its sound is in the decoded MP3|, ms. */
  driftP50: number;
  driftP95: number;
  /** mark − sound on average, ms. */
  driftMean: number;
  /** Word onsets after a pause found in the decoded sound and paired with a mark; |mark − onset| p50 and p95, ms. */
  onsets: number;
  onsetP50: number;
  onsetP95: number;
}


/** English passages spread through the library, with at least 30 words each. */
function englishPassages(contentDir: string, count: number): string[] {
  const library = readLibrary(contentDir);
  const all: string[] = [];
  for (const pub of library.publications) {
    for (const edition of pub.editions) {
      if (edition.language !== 'en') continue;
      for (const p of edition.passages) {
        const plain = passagePlainText(p.html);
        if (plain.split(/\s+/).length >= 30) all.push(plain);
      }
    }
  }
  return Array.from({ length: Math.min(count, all.length) }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / count)]);
}

/** Word onsets (ms) in decoded audio, given each frame's RMS. */
export function onsetsOf(rms: readonly number[]): number[] {
  const loud = percentile([...rms], 90);
  const quiet = loud * 0.03;
  const minSilent = SILENCE_MS / FRAME_MS;
  const onsets: number[] = [];
  let silent = 0;
  for (let i = 0; i < rms.length; i++) {
    if (rms[i] < quiet) {
      silent++;
      continue;
    }
    if (silent >= minSilent) onsets.push(i * FRAME_MS);
    silent = 0;
  }
  return onsets;
}

/** 16-bit PCM at `rate` as floats at 16 kHz (linear interpolation: enough to find a sound again). The copy is taken at once. */
function to16k(pcm: Int16Array, rate: number): Float32Array {
  const n = Math.floor((pcm.length * 16000) / rate);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const x = (i * rate) / 16000;
    const k = Math.floor(x);
    const a = pcm[k] ?? 0;
    const b = pcm[k + 1] ?? a;
    out[i] = (a + (b - a) * (x - k)) / 32768;
  }
  return out;
}

/** Samples of the source looked for, and how far from the mark (16 kHz). */
const WINDOW = 1600;
const SEARCH = 960;

/**
 * Where (ms, relative to the mark) the 100 ms of source sound from `sourceAt` best matches the decoded audio near
 * `decodedAt`, or null when that sound is near-silence or matches poorly.
 */
function soundOffset(source: Float32Array, sourceAt: number, decoded: Float32Array, decodedAt: number, quiet: number): number | null {
  if (sourceAt < 0 || sourceAt + WINDOW > source.length) return null;
  let energy = 0;
  for (let k = 0; k < WINDOW; k++) energy += source[sourceAt + k] ** 2;
  if (Math.sqrt(energy / WINDOW) < quiet) return null;
  const score = (lag: number) => {
    const at = decodedAt + lag;
    if (at < 0 || at + WINDOW > decoded.length) return -1;
    let dot = 0;
    let e = 0;
    for (let k = 0; k < WINDOW; k++) {
      dot += source[sourceAt + k] * decoded[at + k];
      e += decoded[at + k] ** 2;
    }
    return e > 0 ? dot / Math.sqrt(energy * e) : -1;
  };
  let best = 0;
  let bestScore = -2;
  for (let lag = -SEARCH; lag <= SEARCH; lag += 4) {
    const v = score(lag);
    if (v > bestScore) [best, bestScore] = [lag, v];
  }
  for (let lag = best - 3; lag <= best + 3; lag++) {
    const v = score(lag);
    if (v > bestScore) [best, bestScore] = [lag, v];
  }
  return bestScore >= 0.5 ? (best / 16000) * 1000 : null;
}

export async function voiceComparisonBench(options: { contentDir?: string; passages?: number } = {}): Promise<VoiceRow[]> {
  const contentDir = path.resolve(options.contentDir ?? process.env.CONTENT_DIR ?? path.join(import.meta.dirname, '..', 'content'));
  const texts = englishPassages(contentDir, options.passages ?? Number(process.env.BENCH_VOICE_PASSAGES ?? 4));
  const narrated = new Map<string, { result: NarrationResult; source: Float32Array }[]>();
  const cpu = new Map<string, number>();
  for (const voice of VOICES_COMPARED) {
    await narrate('Ready.', 'en', { voice });
    const results: { result: NarrationResult; source: Float32Array }[] = [];
    let spent = 0;
    for (const plain of texts) {
      // The source PCM views a buffer the thread reuses: copied here, resampled for the drift check after the
      // narration's CPU is read, so the bench's own resampling is not counted as the voice's.
      let pcm = new Int16Array(0);
      let pcmRate = 16000;
      const before = processTreeCpuSeconds();
      const result = await narrate(plain, 'en', { voice, onSource: (samples, rate) => void ((pcm = samples.slice()), (pcmRate = rate)) });
      spent += processTreeCpuSeconds() - before;
      results.push({ result, source: to16k(pcm, pcmRate) });
    }
    cpu.set(voice, spent);
    narrated.set(voice, results);
  }

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto('about:blank');
    const rows: VoiceRow[] = [];
    for (const voice of VOICES_COMPARED) {
      const results = narrated.get(voice)!;
      const drifts: number[] = [];
      const onsets: number[] = [];
      for (const { result, source } of results) {
        const b64 = await page.evaluate(async (mp3: string) => {
          const bytes = Uint8Array.from(atob(mp3), (c) => c.charCodeAt(0));
          const buffer = await new OfflineAudioContext(1, 16000, 16000).decodeAudioData(bytes.buffer);
          const data = buffer.getChannelData(0);
          const pcm = new Int16Array(data.length);
          for (let i = 0; i < data.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(data[i] * 32768)));
          const u8 = new Uint8Array(pcm.buffer);
          let text = '';
          for (let i = 0; i < u8.length; i += 0x8000) text += String.fromCharCode(...u8.subarray(i, i + 0x8000));
          return btoa(text);
        }, Buffer.from(result.mp3).toString('base64'));
        const raw = Buffer.from(b64, 'base64');
        const decoded = new Float32Array(raw.length / 2);
        for (let i = 0; i < decoded.length; i++) decoded[i] = raw.readInt16LE(2 * i) / 32768;

        const frame = (16000 * FRAME_MS) / 1000;
        const rms: number[] = [];
        for (let i = 0; i + frame <= decoded.length; i += frame) {
          let sum = 0;
          for (let k = i; k < i + frame; k++) sum += decoded[k] ** 2;
          rms.push(Math.sqrt(sum / frame));
        }
        const quiet = percentile([...rms], 90) * 0.03;
        for (const mark of result.speechMarks) {
          const at = Math.round((mark.time * 16000) / 1000);
          const offset = soundOffset(source, Math.round(((mark.time - MP3_ENCODER_DELAY_MS) * 16000) / 1000), decoded, at, quiet);
          if (offset !== null) drifts.push(-offset);
        }
        const times = result.speechMarks.map((m) => m.time);
        for (const onset of onsetsOf(rms)) {
          let best: number | null = null;
          for (const t of times) if (Math.abs(t - onset) <= PAIR_MS && (best === null || Math.abs(t - onset) < Math.abs(best - onset))) best = t;
          if (best !== null) onsets.push(best - onset);
        }
      }
      const audioMs = results.reduce((n, r) => n + r.result.durationMs, 0);
      const bytes = results.reduce((n, r) => n + r.result.mp3.length, 0);
      rows.push({
        voice,
        passages: results.length,
        audioSeconds: audioMs / 1000,
        cpuSecondsPerAudioMinute: cpu.get(voice)! / (audioMs / 60_000),
        kbps: (bytes * 8) / audioMs,
        marks: drifts.length,
        driftP50: percentile(drifts.map(Math.abs), 50),
        driftP95: percentile(drifts.map(Math.abs), 95),
        driftMean: drifts.reduce((a, b) => a + b, 0) / (drifts.length || 1),
        onsets: onsets.length,
        onsetP50: percentile(onsets.map(Math.abs), 50),
        onsetP95: percentile(onsets.map(Math.abs), 95),
      });
    }
    return rows;
  } finally {
    await browser.close();
  }
}

export function formatVoiceComparison(rows: VoiceRow[]): string {
  const lines = [
    `English voices on the same ${rows[0]?.passages ?? 0} passages: mark drift against the MP3 as Chromium decodes it (target |drift| p95 <= ${MARK_DRIFT_TARGET_MS} ms)`,
    'voice           audio s   CPU s/audio min   kbps   marks   |drift| p50   p95   mean ms   target    onsets   |onset| p50   p95 ms',
  ];
  for (const r of rows) {
    lines.push(
      `${r.voice.padEnd(15)} ${r.audioSeconds.toFixed(0).padStart(7)}   ${r.cpuSecondsPerAudioMinute.toFixed(2).padStart(15)}   ${r.kbps.toFixed(1).padStart(4)}   ${String(r.marks).padStart(5)}   ` +
        `${r.driftP50.toFixed(1).padStart(11)}   ${r.driftP95.toFixed(1).padStart(3)}   ${r.driftMean.toFixed(1).padStart(7)}   ${(r.driftP95 <= MARK_DRIFT_TARGET_MS ? 'met' : 'NOT met').padEnd(7)}   ` +
        `${String(r.onsets).padStart(6)}   ${r.onsetP50.toFixed(0).padStart(11)}   ${r.onsetP95.toFixed(0).padStart(6)}`,
    );
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatVoiceComparison(await voiceComparisonBench()));
}
