/**
 * Where narration files live. `AudioStore` is the seam: the filesystem implementation keeps them under
 * `DATA_DIR/audio`; an S3-compatible store can implement the same four calls later (put = PutObject, get with a
 * range = GetObject with Range, stat = HeadObject). Objects are immutable: a key names its content (see
 * narrationKey), so a key is written once and never changed.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { SpeechMark } from './speechMarks';
import { concatBytes } from './bytes';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export interface StoredObject {
  size: number;
  /** The object's bytes, or the requested range of them. */
  body: ReadableStream<Uint8Array>;
}

export interface AudioStore {
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** The object (or a byte range of it), or null when there is none. */
  get(name: string, range?: ByteRange): Promise<StoredObject | null>;
  /** The object's size in bytes, or null. */
  stat(name: string): Promise<number | null>;
  has(name: string): Promise<boolean>;
  /**
   * Resolves when the store can be read and written now; rejects with an Error saying what is wrong. The server's
   * readiness check (`GET /api/v1/health/ready`, server/http/health.ts) calls it. Optional: a store without it
   * counts as ready.
   */
  ready?(): Promise<void>;
}

/** What is kept beside each MP3, so a lost or fresh database can take the narration back without redoing it. */
export interface NarrationMeta {
  key: string;
  voice: string;
  durationMs: number;
  speechMarks: SpeechMark[];
  createdAt: string;
}

export const mp3Name = (key: string) => `${key}.mp3`;
export const metaName = (key: string) => `${key}.json`;

/** An audio object's name (`<key>.mp3`, `<key>.json`), the same rule in every store. */
export const AUDIO_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** Audio files in a directory (`DATA_DIR/audio`). Writes go to a temporary file first, then are renamed. */
export class FsAudioStore implements AudioStore {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private file(name: string): string {
    if (!AUDIO_NAME_RE.test(name) || name.includes('..')) throw new Error(`Bad audio object name: ${name}`);
    return path.join(this.dir, name);
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(name);
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await fsp.writeFile(tmp, bytes);
    await fsp.rename(tmp, file);
  }

  async stat(name: string): Promise<number | null> {
    try {
      const s = await fsp.stat(this.file(name));
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  async has(name: string): Promise<boolean> {
    return (await this.stat(name)) !== null;
  }

  /** The directory exists and this process may write to it. */
  async ready(): Promise<void> {
    const stat = await fsp.stat(this.dir);
    if (!stat.isDirectory()) throw new Error(`${this.dir} is not a directory`);
    await fsp.access(this.dir, fs.constants.R_OK | fs.constants.W_OK);
  }

  async get(name: string, range?: ByteRange): Promise<StoredObject | null> {
    const size = await this.stat(name);
    if (size === null) return null;
    const stream = fs.createReadStream(this.file(name), range ? { start: range.start, end: range.end } : undefined);
    return { size, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
  }
}

/** Read a whole (small) object. */
export async function readAll(store: AudioStore, name: string): Promise<Uint8Array | null> {
  const obj = await store.get(name);
  if (!obj) return null;
  const chunks: Uint8Array[] = [];
  const reader = obj.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return concatBytes(chunks);
}

export async function readMeta(store: AudioStore, key: string): Promise<NarrationMeta | null> {
  const bytes = await readAll(store, metaName(key));
  if (!bytes) return null;
  try {
    const meta = JSON.parse(new TextDecoder().decode(bytes)) as NarrationMeta;
    return meta && meta.key === key && Array.isArray(meta.speechMarks) && typeof meta.durationMs === 'number' ? meta : null;
  } catch {
    return null;
  }
}

export async function writeNarration(store: AudioStore, meta: NarrationMeta, mp3: Uint8Array): Promise<void> {
  // The MP3 first: a meta file means its audio is complete.
  await store.put(mp3Name(meta.key), mp3);
  await store.put(metaName(meta.key), new TextEncoder().encode(JSON.stringify(meta)));
}
