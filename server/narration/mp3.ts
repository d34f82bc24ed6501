/**
 * MP3 encoding (wasm-media-encoders: LAME compiled to WASM, pure JS, MIT) and a small frame reader used to
 * check what we wrote and to measure it.
 *
 * LAME writes no Xing/Info header here, so decoders play its encoder delay: 1105 samples of silence before the
 * first input sample (576 + 529; measured in Chromium's decoder: a click at sample 4410 decodes at 5515). Speech
 * mark times are shifted by that much so they match what the listener hears.
 */
import { createMp3Encoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import { concatBytes } from './bytes';

/** Constant bitrate of the narration, kbps. @default 32 */
export const MP3_BITRATE_KBPS = 32;
/** Samples of silence LAME puts before the input (ENCDELAY 576 + decoder delay 529). */
export const MP3_ENCODER_DELAY_SAMPLES = 1105;

let encoder: Promise<WasmMediaEncoder<'audio/mpeg'>> | null = null;

function getEncoder(): Promise<WasmMediaEncoder<'audio/mpeg'>> {
  encoder ??= createMp3Encoder().catch((e) => {
    encoder = null;
    throw e;
  });
  return encoder;
}

const CHUNK = 8192;

/**
 * Encode 16-bit mono PCM to a constant-bitrate MP3. `yieldPoint` is called between chunks (a worker uses it to
 * pause while a requested passage is narrated).
 */
export async function encodeMp3(samples: Int16Array, sampleRate: number, yieldPoint?: () => void): Promise<Uint8Array> {
  const enc = await getEncoder();
  enc.configure({ sampleRate, channels: 1, bitrate: MP3_BITRATE_KBPS });
  const parts: Uint8Array[] = [];
  const floats = new Float32Array(CHUNK);
  for (let offset = 0; offset < samples.length; offset += CHUNK) {
    const n = Math.min(CHUNK, samples.length - offset);
    for (let i = 0; i < n; i++) floats[i] = samples[offset + i] / 32768;
    // The encoder's output views its WASM memory: copy before the next call.
    parts.push(enc.encode([floats.subarray(0, n)]).slice());
    yieldPoint?.();
  }
  parts.push(enc.finalize().slice());
  return concatBytes(parts);
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
