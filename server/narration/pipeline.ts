/**
 * One passage's narration: plain text → espeak (PCM + word events) or Flite (PCM + phone times) → MP3 + speech
 * marks. Pure computation with no database (Flite uses a temporary directory of its thread), so it runs the same in
 * a worker thread, the CLI, the bench and the tests.
 */
import crypto from 'node:crypto';
import { ESPEAK_SAMPLE_RATE, espeakInstance, synthesizeWith, type Synthesis } from './espeak';
import { encodeMp3With, mp3Encoder, MP3_BITRATE_KBPS, MP3_ENCODER_DELAY_MS, MP3_SAMPLE_RATE, readMp3Info } from './mp3';
import { nativeEspeakTag, nativeSpeech } from './native';
import { alignSpeechMarks, prepareSpokenText, speechMarkProblems, wordsOf, type SpeechMark } from './speechMarks';
import { fliteText, synthesizeFlitePassage, unitPhones, FLITE_DURATION_STRETCH, FLITE_SAMPLE_RATE, type FliteSynthesis } from './flite';
import { fliteSpeechMarks, wordUnits } from './fliteMarks';
import { narrationVoice, narrationVoiceById, segmenterLocale, SPEAKING_RATE_WPM, type NarrationVoice } from './voices';

/**
 * Bump when anything that changes the audio or the marks changes: every passage is then narrated again.
 * 2: the MP3 is 16 000 Hz (was 22 050 Hz), so the marks' encoder-delay shift is 69 ms (was 50 ms).
 * (Flite came without a bump: its narrations have keys of their own, `flite-slt-…`, and espeak's did not change.)
 */
export const PIPELINE_VERSION = 2;

/** A passage with no words still gets a short silence, so the listen flow can play and advance. @default 300 */
const SILENCE_MS = 300;

export interface NarrationResult {
  mp3: Uint8Array;
  speechMarks: SpeechMark[];
  /** Length of the MP3 as decoders play it, ms. */
  durationMs: number;
  /** The voice that spoke, as the audio answers name it ('flite-slt', 'espeak-en-us', …). */
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
  const flite = voice.startsWith('flite-');
  // Flite's rate is its duration stretch; espeak's keys stay as they were.
  const rate = flite ? `stretch ${FLITE_DURATION_STRETCH}` : SPEAKING_RATE_WPM;
  // espeak spoken by the native helper (another build of espeak-ng) sounds a little different: keys of its own.
  // The MP3 encoder is LAME 3.100 with the same settings either way, so it is not part of the key.
  const engine = flite ? null : nativeEspeakTag();
  const hash = crypto
    .createHash('sha256')
    .update(`${PIPELINE_VERSION}\0${voice}\0${rate}\0${MP3_BITRATE_KBPS}\0${MP3_SAMPLE_RATE}\0${engine ? `${engine}\0` : ''}${plain}`)
    .digest('hex')
    .slice(0, 32);
  return `${voice}-${hash}`;
}

export const NARRATION_KEY_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*-[0-9a-f]{32}$/;

export interface NarrateOptions {
  /** Called between chunks of work: a worker pauses here while a requested passage is narrated. */
  yieldPoint?: () => void;
  /** The voice, by its id ('flite-slt', 'espeak-en-us'). @default the language's voice with Flite for English */
  voice?: string;
  /**
   * Given the PCM that was encoded (the bench compares it with the decoded MP3). It views a buffer the thread reuses:
   * copy it before the call returns.
   */
  onSource?: (samples: Int16Array, sampleRate: number) => void;
  /**
   * Which build of espeak and LAME: the native helper (native.ts) or the portable JavaScript and WASM. Narration
   * keys assume the default; the bench and the tests compare the two. @default 'native' where it is built
   */
  engine?: 'native' | 'portable';
  /**
   * Given the head of a Flite narration with more than its head, before the rest is said: a requested passage can
   * play it while the rest is made. Not called for espeak voices or a passage said whole.
   */
  onHead?: (head: NarrationHead) => void;
}

/** The native helper for this narration, or null for the portable pipeline. */
function helperFor(options: NarrateOptions) {
  if (options.engine === 'portable') return null;
  const native = nativeSpeech();
  if (!native && options.engine === 'native') throw new Error('The native narration helper is not built here (npm run build:native)');
  return native;
}

/** Narrate a passage's plain text (`passagePlainText(passage.text)`) in a spec language. */
export async function narrate(plain: string, language: string, options: NarrateOptions = {}): Promise<NarrationResult> {
  const voice = options.voice ? narrationVoiceById(options.voice) : narrationVoice(language);
  if (!voice) throw new Error(options.voice ? `No voice '${options.voice}'` : `No voice for language '${language}'`);
  return voice.engine === 'flite' ? narrateWithFlite(plain, language, voice, options) : narrateWithEspeak(plain, language, voice, options);
}

/** Pad PCM to SILENCE_MS, so that a passage with no words still plays. */
function padded(samples: Int16Array, sampleRate: number): Int16Array {
  const minSamples = Math.round((SILENCE_MS / 1000) * sampleRate);
  if (samples.length >= minSamples) return samples;
  const out = new Int16Array(minSamples);
  out.set(samples);
  return out;
}

/**
 * espeak's PCM and events, then the MP3: by the native helper where it is built (native.ts), else by espeak's
 * JavaScript build and LAME's WASM, whose instances are awaited first so that nothing awaits between synthesis and
 * encoding (their PCM lives in a buffer the thread reuses for its next passage).
 */
async function speakAndEncode(
  text: string,
  voice: NarrationVoice,
  options: NarrateOptions,
): Promise<{ synthesis: Pick<Synthesis, 'events' | 'sampleRate'>; samples: Int16Array; mp3: Uint8Array; synthMs: number; encodeMs: number }> {
  const native = helperFor(options);
  if (native) {
    options.yieldPoint?.();
    const t0 = performance.now();
    const spoken = await native.synthesize(text, voice.engineVoice, SPEAKING_RATE_WPM);
    const samples = padded(spoken.samples, ESPEAK_SAMPLE_RATE);
    options.onSource?.(samples, ESPEAK_SAMPLE_RATE);
    const t1 = performance.now();
    const mp3 = await encodeNarration(samples, ESPEAK_SAMPLE_RATE, options);
    return { synthesis: { events: spoken.events, sampleRate: ESPEAK_SAMPLE_RATE }, samples, mp3, synthMs: t1 - t0, encodeMs: performance.now() - t1 };
  }
  const [espeak, encoder] = await Promise.all([espeakInstance(), mp3Encoder()]);
  const t0 = performance.now();
  const synthesis = synthesizeWith(espeak, text, voice.engineVoice, { yieldPoint: options.yieldPoint });
  const samples = padded(synthesis.samples, synthesis.sampleRate);
  options.onSource?.(samples, synthesis.sampleRate);
  const t1 = performance.now();
  const mp3 = encodeMp3With(encoder, samples, synthesis.sampleRate, options.yieldPoint);
  return { synthesis, samples, mp3, synthMs: t1 - t0, encodeMs: performance.now() - t1 };
}

/** PCM to the narration's MP3: by the native helper where it is built, else by LAME's WASM. */
async function encodeNarration(samples: Int16Array, sampleRate: number, options: NarrateOptions): Promise<Uint8Array> {
  const native = helperFor(options);
  if (native) {
    options.yieldPoint?.();
    return native.encode(samples, sampleRate, MP3_SAMPLE_RATE, MP3_BITRATE_KBPS);
  }
  return encodeMp3With(await mp3Encoder(), samples, sampleRate, options.yieldPoint);
}

async function narrateWithEspeak(plain: string, language: string, voice: NarrationVoice, options: NarrateOptions): Promise<NarrationResult> {
  const spoken = prepareSpokenText(plain);
  const { synthesis, samples, mp3, synthMs, encodeMs } = await speakAndEncode(spoken.text, voice, options);
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
  checkMarks(plain, speechMarks, durationMs, locale);
  return { mp3, speechMarks, durationMs, voice: voice.id, synthMs, encodeMs };
}

/**
 * A Flite narration is said head first: its first clause or sentence (at least FLITE_HEAD_MIN_CHARS of the plain
 * text, when the passage has more), then the rest. A reader who asks for a passage never narrated can then hear the
 * head while the rest is made (NarrateOptions.onHead). A short head plays sooner (its cost grows with its length);
 * its audio (about 1.5 s at 20 characters) is the time the rest has to be ready in. @default 20
 */
export const FLITE_HEAD_MIN_CHARS = 20;

/** Where a clause, a sentence or a paragraph ends in plain text (the index after its closing punctuation). */
const CLAUSE_END = /[.!?;:,…]["'”’»)\]]*(?=\s)|(?=\n)/g;

/**
 * The index in `plain` where the head of a Flite narration ends: the first end of a clause, sentence or paragraph at
 * or past FLITE_HEAD_MIN_CHARS after which text with a word follows, or `plain.length` (the passage is said whole).
 */
export function fliteHeadEnd(plain: string, locale: string): number {
  for (const m of plain.matchAll(CLAUSE_END)) {
    const end = m.index + m[0].length;
    if (end < FLITE_HEAD_MIN_CHARS) continue;
    const speaks = (part: string) => wordsOf(part, locale).length > 0 && /[a-z0-9]/i.test(fliteText(part));
    return speaks(plain.slice(0, end)) && speaks(plain.slice(end)) ? end : plain.length;
  }
  return plain.length;
}

/** The head of a narration, ready before the rest: an MP3 of its own whose audio and marks start the whole one. */
export interface NarrationHead {
  mp3: Uint8Array;
  /** The marks of the head's words: the same, time for time, as the first marks of the whole narration. */
  speechMarks: SpeechMark[];
  /** Length of the head's MP3 as decoders play it, ms. */
  durationMs: number;
  /** Where the head's speech ends and the rest's begins, ms, on the timeline of both MP3s. */
  seamMs: number;
}

/** One part of a Flite narration (the head or the rest), said on its own. */
interface FlitePart {
  plain: string;
  /** Where the part starts in the passage's plain text. */
  offset: number;
  synthesis: FliteSynthesis | null;
  unitPhones: string[][];
}

function sayFlitePart(plain: string, offset: number, locale: string, voice: NarrationVoice, options: NarrateOptions): FlitePart {
  const text = fliteText(prepareSpokenText(plain).text).trim();
  const hasWords = wordsOf(plain, locale).length > 0 && /[a-z0-9]/i.test(text);
  const synthesis = hasWords ? synthesizeFlitePassage(text, { voice: voice.engineVoice, yieldPoint: options.yieldPoint }) : null;
  const unitPhonesOfPart = synthesis ? unitPhones(wordUnits(plain, locale).units.map(fliteText)) : [];
  return { plain, offset, synthesis, unitPhones: unitPhonesOfPart };
}

/** A part's marks, on the timeline of a narration whose PCM has `startMs` of audio before the part. */
function flitePartMarks(part: FlitePart, locale: string, startMs: number, endMs: number): SpeechMark[] {
  if (!part.synthesis) return [];
  const marks = fliteSpeechMarks({
    plain: part.plain,
    locale,
    unitPhones: part.unitPhones,
    phones: part.synthesis.phones,
    pcmDurationMs: part.synthesis.durationMs,
    delayMs: MP3_ENCODER_DELAY_MS + startMs,
    audioDurationMs: endMs,
  });
  return marks.map((m) => ({ offset: m.offset + part.offset, time: m.time }));
}

/**
 * Flite: the passage is said in two parts, its head (fliteHeadEnd) and the rest, each paragraph by paragraph (long
 * ones in pieces of sentences), each piece one utterance, with every phone time exact from the start of the PCM
 * (flite.ts synthesizeFlitePassage). The parts' PCM is joined, so the head's PCM is the start of the whole; each
 * part's marks come from its own phones (fliteMarks.ts) and the head's are computed once, so the head's MP3 (made
 * only for `onHead`) and the whole MP3 carry the same marks for the head's words. Paragraph breaks without closing
 * punctuation get a full stop, as for espeak. The PCM is 16 kHz, the MP3's rate: LAME does not resample.
 */
async function narrateWithFlite(plain: string, language: string, voice: NarrationVoice, options: NarrateOptions): Promise<NarrationResult> {
  const locale = segmenterLocale(language);
  const t0 = performance.now();
  const split = fliteHeadEnd(plain, locale);
  const head = sayFlitePart(plain.slice(0, split), 0, locale, voice, options);
  const headMs = head.synthesis?.durationMs ?? 0;
  const headMarks = flitePartMarks(head, locale, 0, MP3_ENCODER_DELAY_MS + headMs);
  let encodeMs = 0;
  if (split < plain.length && options.onHead && head.synthesis) {
    const t = performance.now();
    const mp3 = await encodeNarration(head.synthesis.samples, FLITE_SAMPLE_RATE, options);
    encodeMs += performance.now() - t;
    const info = readMp3Info(mp3);
    if (!info) throw new Error('The MP3 encoder produced an unreadable stream');
    const durationMs = Math.floor(info.durationMs);
    checkMarks(head.plain, headMarks, durationMs, locale);
    options.onHead({ mp3, speechMarks: headMarks, durationMs, seamMs: MP3_ENCODER_DELAY_MS + headMs });
  }
  const rest = split < plain.length ? sayFlitePart(plain.slice(split), split, locale, voice, options) : null;
  const parts = [head.synthesis?.samples, rest?.synthesis?.samples].filter((s): s is Int16Array => Boolean(s));
  const joined = new Int16Array(parts.reduce((n, s) => n + s.length, 0));
  parts.reduce((at, s) => (joined.set(s, at), at + s.length), 0);
  const samples = padded(joined, FLITE_SAMPLE_RATE);
  options.onSource?.(samples, FLITE_SAMPLE_RATE);
  const t1 = performance.now();
  const mp3 = await encodeNarration(samples, FLITE_SAMPLE_RATE, options);
  const t2 = performance.now();
  const info = readMp3Info(mp3);
  if (!info) throw new Error('The MP3 encoder produced an unreadable stream');
  const durationMs = Math.floor(info.durationMs);
  const speechMarks = rest ? joinMarks(headMarks, flitePartMarks(rest, locale, headMs, durationMs)) : headMarks.filter((m) => m.time < durationMs);
  checkMarks(plain, speechMarks, durationMs, locale);
  return { mp3, speechMarks, durationMs, voice: voice.id, synthMs: t1 - t0 - encodeMs, encodeMs: encodeMs + t2 - t1 };
}

/** The head's marks, then the rest's, which rise strictly past them (a rest mark rounded onto the head's last moves on a ms). */
function joinMarks(head: SpeechMark[], rest: SpeechMark[]): SpeechMark[] {
  const out = [...head];
  for (const m of rest) {
    const last = out[out.length - 1]?.time ?? -1;
    out.push(m.time > last ? m : { offset: m.offset, time: last + 1 });
  }
  return out;
}

/** A narration whose marks break their contract fails loudly rather than be served. */
function checkMarks(plain: string, marks: SpeechMark[], durationMs: number, locale: string): void {
  const problems = speechMarkProblems(plain, marks, durationMs, locale);
  if (problems.length) throw new Error(`Speech marks break their contract: ${problems.slice(0, 3).join('; ')}`);
}
