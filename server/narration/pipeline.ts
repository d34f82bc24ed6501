/**
 * One passage's narration: plain text → espeak (PCM + word events) → MP3 + speech marks. Pure computation with
 * no database or files, so it runs the same in a worker thread, the CLI, the bench and the tests.
 */
import crypto from 'node:crypto';
import { espeakInstance, synthesizeWith } from './espeak';
import { encodeMp3With, mp3Encoder, MP3_BITRATE_KBPS, MP3_ENCODER_DELAY_MS, MP3_SAMPLE_RATE, readMp3Info } from './mp3';
import { alignSpeechMarks, prepareSpokenText, speechMarkProblems, type SpeechMark } from './speechMarks';
import { segmenterLocale, SPEAKING_RATE_WPM, voiceFor } from './voices';

/**
 * Bump when anything that changes the audio or the marks changes: every passage is then narrated again.
 * 2: the MP3 is 16 000 Hz (was 22 050 Hz), so the marks' encoder-delay shift is 69 ms (was 50 ms).
 */
export const PIPELINE_VERSION = 2;

/** A passage with no words still gets a short silence, so the listen flow can play and advance. @default 300 */
const SILENCE_MS = 300;

export interface NarrationResult {
  mp3: Uint8Array;
  speechMarks: SpeechMark[];
  /** Length of the MP3 as decoders play it, ms. */
  durationMs: number;
  voice: string;
  /** Milliseconds spent synthesizing and encoding (wall clock in this thread). */
  synthMs: number;
  encodeMs: number;
}

/**
 * The storage key for a narration: the voice and a hash of everything that shapes the audio (pipeline version,
 * voice, rate, bitrate and the exact plain text). Changed text gets a new key, so new audio; the same text is
 * never narrated twice.
 */
export function narrationKey(plain: string, voice: string): string {
  const hash = crypto
    .createHash('sha256')
    .update(`${PIPELINE_VERSION}\0${voice}\0${SPEAKING_RATE_WPM}\0${MP3_BITRATE_KBPS}\0${MP3_SAMPLE_RATE}\0${plain}`)
    .digest('hex')
    .slice(0, 32);
  return `${voice}-${hash}`;
}

export const NARRATION_KEY_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{32}$/;

/** Narrate a passage's plain text (`passagePlainText(passage.text)`) in a spec language. */
export async function narrate(plain: string, language: string, options: { yieldPoint?: () => void } = {}): Promise<NarrationResult> {
  const voice = voiceFor(language);
  if (!voice) throw new Error(`No voice for language '${language}'`);
  const spoken = prepareSpokenText(plain);
  // The thread's espeak and LAME instances (made once, reused for every passage). From here on nothing awaits:
  // the PCM lives in buffers this thread reuses for its next passage.
  const [espeak, encoder] = await Promise.all([espeakInstance(), mp3Encoder()]);
  const t0 = performance.now();
  const synthesis = synthesizeWith(espeak, spoken.text, voice, { yieldPoint: options.yieldPoint });
  let samples = synthesis.samples;
  const minSamples = Math.round((SILENCE_MS / 1000) * synthesis.sampleRate);
  if (samples.length < minSamples) {
    const padded = new Int16Array(minSamples);
    padded.set(samples);
    samples = padded;
  }
  const t1 = performance.now();
  const mp3 = encodeMp3With(encoder, samples, synthesis.sampleRate, options.yieldPoint);
  const t2 = performance.now();
  const info = readMp3Info(mp3);
  if (!info) throw new Error('The MP3 encoder produced an unreadable stream');
  const locale = segmenterLocale(language);
  const durationMs = Math.floor(info.durationMs);
  const speechMarks = alignSpeechMarks({
    plain,
    spoken,
    events: synthesis.events,
    pcmDurationMs: (samples.length / synthesis.sampleRate) * 1000,
    delayMs: MP3_ENCODER_DELAY_MS,
    audioDurationMs: durationMs,
    locale,
  });
  const problems = speechMarkProblems(plain, speechMarks, durationMs, locale);
  if (problems.length) throw new Error(`Speech marks break their contract: ${problems.slice(0, 3).join('; ')}`);
  return { mp3, speechMarks, durationMs, voice, synthMs: t1 - t0, encodeMs: t2 - t1 };
}
