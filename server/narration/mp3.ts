/**
 * MP3 encoding (wasm-media-encoders: LAME compiled to WASM, pure JS, MIT) and a small frame reader used to
 * check what we wrote and to measure it.
 *
 * The narration is 16 000 Hz mono CBR (MPEG-2 Layer III). espeak speaks at 22 050 Hz; LAME resamples it
 * (outputSampleRate) because its cost is per frame: at 16 kHz there are 28 frames a second instead of 38, and
 * 32 kbps at 16 kHz still keeps everything up to about 7 kHz, more than formant speech needs. (A polyphase
 * resampler in JS in front of LAME cost the same CPU, so LAME's own is used.)
 *
 * LAME writes no Xing/Info header here, so decoders play its encoder delay: 1105 samples of silence before the
 * first input sample (576 + 529), at the MP3's own rate; the resampling adds none. Measured in Chromium's decoder:
 * at 22 050 Hz a click at sample 4410 decodes at 5515; encoded at 16 000 Hz, the same click (0.2 s) decodes at
 * sample 4306, 1105–1106 samples (69.1 ms) late. Speech mark times are shifted by that much so they match what the
 * listener hears.
 */
import { createMp3Encoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import { writeGrowing } from './bytes';

/** Constant bitrate of the narration, kbps. @default 32 */
export const MP3_BITRATE_KBPS = 32;
/** Sample rate of the narration MP3, Hz (MPEG-2). @default 16000 */
export const MP3_SAMPLE_RATE = 16000 as const;
/** Samples (at MP3_SAMPLE_RATE) of silence LAME puts before the input (ENCDELAY 576 + decoder delay 529). */
export const MP3_ENCODER_DELAY_SAMPLES = 1105;
/** The encoder delay in milliseconds: what every speech mark time is shifted by. */
export const MP3_ENCODER_DELAY_MS = (MP3_ENCODER_DELAY_SAMPLES / MP3_SAMPLE_RATE) * 1000;

let encoder: Promise<Mp3Encoder> | null = null;

export type Mp3Encoder = WasmMediaEncoder<'audio/mpeg'>;

/** The thread's LAME instance, created on first use and reused for every passage (configure() resets it). */
export function mp3Encoder(): Promise<Mp3Encoder> {
  encoder ??= createMp3Encoder().catch((e) => {
    encoder = null;
    throw e;
  });
  return encoder;
}

/** Input samples per encode() call (about 0.4 s of audio). */
const CHUNK = 8192;
const block = new Float32Array(CHUNK);
/** The MP3 being written, reused from one passage to the next; each passage gets an exact-size copy. */
let out = new Uint8Array(256 * 1024);

/**
 * Encode 16-bit mono PCM at `sampleRate` to a constant-bitrate MP3 at MP3_SAMPLE_RATE, synchronously, on a
 * ready encoder. `yieldPoint` is called between chunks (a worker uses it to pause while a requested passage is
 * narrated).
 */
export function encodeMp3With(enc: Mp3Encoder, samples: Int16Array, sampleRate: number, yieldPoint?: () => void): Uint8Array {
  enc.configure({ sampleRate, channels: 1, bitrate: MP3_BITRATE_KBPS, outputSampleRate: MP3_SAMPLE_RATE });
  let size = 0;
  const append = (bytes: Uint8Array) => {
    // The encoder's output views its WASM memory: copy it before the next call.
    out = writeGrowing(out, size, bytes, (n) => new Uint8Array(n));
    size += bytes.length;
  };
  for (let offset = 0; offset < samples.length; offset += CHUNK) {
    const n = Math.min(CHUNK, samples.length - offset);
    for (let i = 0; i < n; i++) block[i] = samples[offset + i] / 32768;
    append(enc.encode([block.subarray(0, n)]));
    yieldPoint?.();
  }
  append(enc.finalize());
  return out.slice(0, size);
}

/** Encode 16-bit mono PCM at `sampleRate` to a constant-bitrate MP3 at MP3_SAMPLE_RATE. */
export async function encodeMp3(samples: Int16Array, sampleRate: number, yieldPoint?: () => void): Promise<Uint8Array> {
  return encodeMp3With(await mp3Encoder(), samples, sampleRate, yieldPoint);
}

export interface Mp3Info {
  /** An ID3v2 tag came first. */
  id3: boolean;
  sampleRate: number;
  /** MPEG audio version: 1, 2 or 2.5. */
  version: 1 | 2 | 2.5;
  frames: number;
  /** Samples per channel the frames decode to (including the encoder delay and final padding). */
  samples: number;
  durationMs: number;
  /** Average bitrate over the frames, kbps. */
  bitrateKbps: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/**
 * Walk the MPEG Layer III frames of an MP3 (after an optional ID3v2 tag). Returns null unless the bytes are a
 * clean run of frames from the first sync word to the end.
 */
export function readMp3Info(bytes: Uint8Array): Mp3Info | null {
  let i = 0;
  let id3 = false;
  if (bytes.length >= 10 && bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    id3 = true;
    const size = ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
    i = 10 + size;
  }
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  let version: Mp3Info['version'] = 1;
  let bits = 0;
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff || (bytes[i + 1] & 0xe0) !== 0xe0) return null;
    const v = (bytes[i + 1] >> 3) & 3;
    const layer = (bytes[i + 1] >> 1) & 3;
    const bri = bytes[i + 2] >> 4;
    const sri = (bytes[i + 2] >> 2) & 3;
    const pad = (bytes[i + 2] >> 1) & 1;
    if (v === 1 || layer !== 1 || bri === 0 || bri === 15 || sri === 3) return null;
    const sr = SAMPLE_RATES[v][sri];
    const kbps = (v === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bri];
    const perFrame = v === 3 ? 1152 : 576;
    const size = Math.floor(((perFrame / 8) * kbps * 1000) / sr) + pad;
    if (frames > 0 && sr !== sampleRate) return null;
    sampleRate = sr;
    version = v === 3 ? 1 : v === 2 ? 2 : 2.5;
    frames++;
    samples += perFrame;
    bits += size * 8;
    i += size;
  }
  if (frames === 0 || i !== bytes.length) return null;
  const durationMs = (samples / sampleRate) * 1000;
  return { id3, sampleRate, version, frames, samples, durationMs, bitrateKbps: bits / durationMs };
}
