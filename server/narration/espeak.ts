/**
 * Speech synthesis with eSpeak NG compiled to WASM (@echogarden/espeak-ng-emscripten, GPL-3; runs offline, no
 * downloads). One espeak instance per thread, initialised on first use (about 0.2 s, plus about 0.3 s the first
 * time a language's dictionary loads). Synthesis is synchronous and CPU-bound, so the server runs it in worker
 * threads (see pool.ts); the CLI and the bench may call it directly.
 */
import Init, { type EspeakNGWorker } from '@echogarden/espeak-ng-emscripten';
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

/** Speak `text` with `voice`: 16-bit mono PCM at 22 050 Hz and espeak's word and clause-end events. */
export async function synthesize(text: string, voice: string, options: SynthesizeOptions = {}): Promise<Synthesis> {
  const espeak = await espeakInstance();
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
  const chunks: Int16Array[] = [];
  let length = 0;
  const events: EspeakWordEvent[] = [];
  espeak.synthesize(text, (samples, raw) => {
    if (samples && samples.length) {
      chunks.push(samples);
      length += samples.length;
    }
    for (const e of raw) {
      if (e.type === 'word' || e.type === 'end') {
        events.push({ type: e.type, position: e.text_position, length: e.word_length, time: e.audio_position });
      }
    }
    options.yieldPoint?.();
    return false;
  });
  const samples = new Int16Array(length);
  let at = 0;
  for (const c of chunks) {
    samples.set(c, at);
    at += c.length;
  }
  return { samples, sampleRate: ESPEAK_SAMPLE_RATE, events, durationMs: (length / ESPEAK_SAMPLE_RATE) * 1000 };
}
