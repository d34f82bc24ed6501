/**
 * Speech synthesis with eSpeak NG compiled by Emscripten (@echogarden/espeak-ng-emscripten, GPL-3; runs offline,
 * no downloads). Note that this build is wasm2js output: plain JavaScript, not a .wasm module, so V8 compiles it
 * like any JS (its wave generator is most of the narration's CPU after the MP3 encoder). One espeak instance per thread, initialised on first use (about 0.2 s, plus about 0.3 s the first
 * time a language's dictionary loads). Synthesis is synchronous and CPU-bound, so the server runs it in worker
 * threads (see pool.ts); the CLI and the bench may call it directly.
 *
 * The instance is made once per thread and reused for every passage: the voice and rate are set again only when
 * they change.
 */
import Init, { type EspeakNGWorker } from '@echogarden/espeak-ng-emscripten';
export type { EspeakNGWorker };
import { writeGrowing } from './bytes';
import type { EspeakWordEvent } from './speechMarks';
import { SPEAKING_RATE_WPM } from './voices';

/** espeak-ng's output rate. */
export const ESPEAK_SAMPLE_RATE = 22050;

let instance: Promise<EspeakNGWorker> | null = null;
let currentVoice: string | null = null;
let currentRate: number | null = null;

/** The thread's espeak instance, created on first call. */
export function espeakInstance(): Promise<EspeakNGWorker> {
  instance ??= Init()
    .then((module) => new module.eSpeakNGWorker())
    .catch((e) => {
      instance = null;
      throw e;
    });
  return instance;
}

export interface Synthesis {
  samples: Int16Array;
  sampleRate: number;
  /** Word events (length > 0 or not) and clause ends, in time order. */
  events: EspeakWordEvent[];
  durationMs: number;
}

export interface SynthesizeOptions {
  /** Words per minute. @default SPEAKING_RATE_WPM */
  rate?: number;
  /** Called after each chunk of audio (about every 100 ms of speech): a worker pauses here when asked to. */
  yieldPoint?: () => void;
}

/** The voices espeak knows, by identifier (e.g. 'gmw/en-US') and by language names (e.g. 'en-us'). */
export async function listVoices(): Promise<{ identifier: string; name: string; languages: string[] }[]> {
  const espeak = await espeakInstance();
  return espeak.list_voices().map((v) => ({ identifier: v.identifier, name: v.name, languages: v.languages.map((l) => l.name) }));
}

/**
 * The PCM of the last synthesis, reused from one passage to the next (it grows to the longest passage): a fresh
 * buffer of several MB per passage costs more in page faults and GC than the copy into it.
 */
let pcm = new Int16Array(ESPEAK_SAMPLE_RATE * 60);

/**
 * Speak `text` with `voice` on a ready instance, synchronously: 16-bit mono PCM at 22 050 Hz and espeak's word and
 * clause-end events. `samples` views a buffer this thread reuses: it is valid until the next synthesis, so use
 * it (encode it) before anything else can run.
 */
export function synthesizeWith(espeak: EspeakNGWorker, text: string, voice: string, options: SynthesizeOptions = {}): Synthesis {
  const rate = options.rate ?? SPEAKING_RATE_WPM;
  if (voice !== currentVoice) {
    const status = espeak.set_voice(voice);
    if (typeof status === 'number' && status !== 0) throw new Error(`espeak has no voice '${voice}' (status ${status})`);
    currentVoice = voice;
    currentRate = null;
  }
  if (rate !== currentRate) {
    espeak.set_rate(rate);
    currentRate = rate;
  }
  let length = 0;
  const events: EspeakWordEvent[] = [];
  const yieldPoint = options.yieldPoint;
  espeak.synthesize(text, (samples, raw) => {
    if (samples && samples.length) {
      pcm = writeGrowing(pcm, length, samples, (size) => new Int16Array(size));
      length += samples.length;
    }
    for (let i = 0; i < raw.length; i++) {
      const e = raw[i];
      if (e.type === 'word' || e.type === 'end') {
        events.push({ type: e.type, position: e.text_position, length: e.word_length, time: e.audio_position });
      }
    }
    yieldPoint?.();
    return false;
  });
  return { samples: pcm.subarray(0, length), sampleRate: ESPEAK_SAMPLE_RATE, events, durationMs: (length / ESPEAK_SAMPLE_RATE) * 1000 };
}

/** Speak `text` with `voice`: 16-bit mono PCM at 22 050 Hz (a copy the caller owns) and espeak's events. */
export async function synthesize(text: string, voice: string, options: SynthesizeOptions = {}): Promise<Synthesis> {
  const synthesis = synthesizeWith(await espeakInstance(), text, voice, options);
  return { ...synthesis, samples: synthesis.samples.slice() };
}
