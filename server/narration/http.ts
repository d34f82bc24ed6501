/**
 * The narration endpoints (SPEC §7) and the MP3 files. Mounted by server/http/app.ts:
 *  - GET /api/v1/passages/{passageId}/audio?editionId=
 *  - GET /api/v1/passages/audioOnly?editionId=&position=
 *  - GET /api/v1/passages/{passageId}/audioOnly/onDemand?editionId=
 *  - GET /api/v1/passages/{passageId}/speechMarks
 *  - GET /audio/{key}.mp3 (outside the API: range requests, immutable caching)
 */
import type { Context, Hono } from 'hono';
import type { Env } from '../kit/env';
import { etagMatches, etagOf } from '../kit/etag';
import { AudioOnlyQuerySchema, PassageAudioQuerySchema, PassageIdParamSchema } from '../../src/domain/schemas';
import { AUDIO_NOT_AVAILABLE, PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import { notFound } from '../kit/errors';
import { param, query } from '../kit/validate';
import type { ContentStore } from '../content/store';
import type { AudioAnswer, NarrationService, ReadyAudio } from './queue';
import { AUDIO_ROUTE } from './queue';
import { NARRATION_KEY_RE } from './pipeline';
import { mp3Name, readAll, type AudioStore, type ByteRange } from './storage';
import { audioAccess } from '../../src/domain/access';
import { assertAllowed, gate, sendPrivateJson, type AccessDeps } from '../access';
import { gatedPassage } from '../content/service';

/** Narration answers may be reused briefly, then revalidated with their ETag (as other content answers). */
const READY_CACHE_CONTROL = 'public, max-age=60, must-revalidate';
/** A narration file never changes: its name is a hash of what it says. */
export const AUDIO_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Seconds a client should wait before asking again after 202 'generating'. */
const RETRY_AFTER_S = 1;

type AnyHono = Hono<Env>;

/** A serialised answer and its ETag. */
interface Serialised {
  json: string;
  etag: string;
}

/**
 * The serialised ready answers, per narration (the service hands out the same ReadyAudio object for a passage
 * until its narration changes), so a warm request is not stringified and hashed again.
 */
const serialised = new WeakMap<ReadyAudio, Map<string, Serialised>>();

function readyBody(a: { passageId: number; audio: ReadyAudio }, shape: 'audio' | 'marks'): Serialised {
  let byShape = serialised.get(a.audio);
  if (!byShape) {
    byShape = new Map();
    serialised.set(a.audio, byShape);
  }
  const key = `${shape}:${a.passageId}`;
  let hit = byShape.get(key);
  if (!hit) {
    const body = shape === 'marks' ? { passageId: a.passageId, speechMarks: a.audio.speechMarks } : { passageId: a.passageId, status: 'ready', audio: a.audio };
    const json = JSON.stringify(body);
    hit = { json, etag: etagOf(json) };
    byShape.set(key, hit);
  }
  return hit;
}

/** `actorDependent`: the gate needed the asker's features, so the answer is `private, no-store` without an ETag. */
function answer(c: Context, a: AudioAnswer, shape: 'audio' | 'marks', actorDependent: boolean): Response {
  if (a.kind === 'missing') throw notFound(PASSAGE_NOT_FOUND);
  if (a.kind === 'unvoiced') throw notFound(AUDIO_NOT_AVAILABLE);
  if (a.kind === 'generating') {
    const headers = { 'Cache-Control': 'no-store', 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': String(RETRY_AFTER_S) };
    // The head of a narration still being made comes with the audio answers: a reader can play it meanwhile.
    const body = a.partial && shape === 'audio' ? { passageId: a.passageId, status: 'generating', partial: a.partial } : { passageId: a.passageId, status: 'generating' };
    return c.body(JSON.stringify(body), 202, headers);
  }
  const { json, etag } = readyBody(a, shape);
  if (actorDependent) return sendPrivateJson(c, json);
  const headers = { 'Cache-Control': READY_CACHE_CONTROL, 'Content-Type': 'application/json; charset=utf-8', ETag: etag };
  if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  return c.body(json, 200, headers);
}

function passageId(c: Context): number {
  const raw = c.req.param('passageId');
  return param(PassageIdParamSchema, typeof raw === 'string' ? raw.trim() : raw);
}

/** Register the narration API routes on the /api/v1 sub-app (before its catch-all). */
export function registerNarrationApi(api: AnyHono, deps: { store: ContentStore; narration?: NarrationService; access: AccessDeps }): void {
  const { store, narration, access } = deps;
  const service = (): NarrationService => {
    if (!narration) throw notFound(AUDIO_NOT_AVAILABLE);
    return narration;
  };

  /**
   * The gate of the by-id routes: the passage must exist (and be in `editionId` when given), and its narration
   * must be open to the asker (src/domain/access.ts audioAccess), else 403 license_required / group_code_required.
   */
  async function audioGate(c: Context, id: number, editionId?: number): Promise<boolean> {
    const edition = await store.editionOfPassage(id);
    if (!edition || (editionId !== undefined && edition.id !== editionId)) throw notFound(PASSAGE_NOT_FOUND);
    const gated = await gate(access, c, audioAccess, edition);
    assertAllowed(gated);
    return gated.actorDependent;
  }

  api.get('/passages/audioOnly', async (c) => {
    const { editionId, position } = query(c, AudioOnlyQuerySchema);
    // Text the asker may not read: the passage answer's blocked state, as GET /passages gives it.
    const found = await gatedPassage(store, access, c, editionId, position);
    if (found.blocked) return found.blocked;
    const audio = await gate(access, c, audioAccess, found.edition);
    assertAllowed(audio);
    return answer(c, await service().audioFor(found.entry.value.id, { editionId, prefetchNext: true }), 'audio', audio.actorDependent);
  });

  // `{[^/]*}` lets an empty id (/passages//audio) reach the handler and get the spec's 400.
  api.get('/passages/:passageId{[^/]*}/audio', async (c) => {
    const id = passageId(c);
    const { editionId } = query(c, PassageAudioQuerySchema);
    const actorDependent = await audioGate(c, id, editionId);
    return answer(c, await service().audioFor(id, { editionId, prefetchNext: true }), 'audio', actorDependent);
  });

  api.get('/passages/:passageId{[^/]*}/audioOnly/onDemand', async (c) => {
    const id = passageId(c);
    const { editionId } = query(c, PassageAudioQuerySchema);
    const actorDependent = await audioGate(c, id, editionId);
    return answer(c, await service().audioFor(id, { editionId, prefetchNext: true }), 'audio', actorDependent);
  });

  api.get('/passages/:passageId{[^/]*}/speechMarks', async (c) => {
    const id = passageId(c);
    const actorDependent = await audioGate(c, id);
    return answer(c, await service().audioFor(id), 'marks', actorDependent);
  });
}

/**
 * Parse a Range header against a size. Returns null to serve the whole file (no header, another unit, several
 * ranges, or an If-Range that no longer matches), a range, or 'unsatisfiable'.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const h = header.trim();
  if (!/^bytes=/i.test(h)) return null;
  const spec = h.slice(6).trim();
  if (spec.includes(',')) return null;
  const m = /^(\d*)-(\d*)$/.exec(spec);
  if (!m || (m[1] === '' && m[2] === '')) return 'unsatisfiable';
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Most bytes of narration MP3 kept in memory by the /audio route (AUDIO_MEMORY_CACHE_MB). Not in the spec. @default 64 MiB */
export const AUDIO_MEMORY_CACHE_BYTES = 64 * 1024 * 1024;
/** Larger files are always streamed from the store, never kept in memory. @default 4 MiB */
export const AUDIO_MEMORY_MAX_FILE_BYTES = 4 * 1024 * 1024;

/** The MP3 cache's size from AUDIO_MEMORY_CACHE_MB (0 turns it off: every answer is streamed from the store). */
export function audioMemoryCacheBytes(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.AUDIO_MEMORY_CACHE_MB?.trim();
  if (!raw) return AUDIO_MEMORY_CACHE_BYTES;
  if (!/^\d+$/.test(raw)) throw new Error(`AUDIO_MEMORY_CACHE_MB must be a whole number of megabytes (got '${raw}')`);
  return Number(raw) * 1024 * 1024;
}

/**
 * Whole MP3s in memory, least recently used first out, bounded in bytes. Narration files never change (a key names
 * its content), so an entry never goes stale. A page turn asks for the same few files as every other reader of
 * the title, and serving them from memory skips two stats, a file open and a stream per request.
 */
export class AudioMemoryCache {
  private readonly files = new Map<string, Uint8Array>();
  private readonly loading = new Map<string, Promise<Uint8Array | null>>();
  private bytes = 0;

  constructor(
    readonly maxBytes: number,
    readonly maxFileBytes = AUDIO_MEMORY_MAX_FILE_BYTES,
  ) {}

  get size(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.bytes };
  }

  get(key: string): Uint8Array | undefined {
    const hit = this.files.get(key);
    if (hit) {
      this.files.delete(key);
      this.files.set(key, hit);
    }
    return hit;
  }

  /** Read a file of `size` bytes into the cache (once however many ask at once); null when it is not to be kept. */
  load(key: string, size: number, read: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
    if (size > this.maxFileBytes || size > this.maxBytes) return Promise.resolve(null);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = read()
        .then((bytes) => {
          if (bytes && bytes.length === size) this.add(key, bytes);
          return bytes && bytes.length === size ? bytes : null;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private add(key: string, bytes: Uint8Array): void {
    if (this.files.has(key)) return;
    this.files.set(key, bytes);
    this.bytes += bytes.length;
    for (const [oldest, old] of this.files) {
      if (this.bytes <= this.maxBytes) break;
      this.files.delete(oldest);
      this.bytes -= old.length;
    }
  }
}

/**
 * Serve narration MP3s at /audio/{key}.mp3 with range requests and immutable caching: from memory when the file is
 * in the cache (or small enough to be read into it), else streamed from the store with only the range read.
 */
export function registerAudioFiles(app: AnyHono, audio: () => AudioStore | undefined, cache = new AudioMemoryCache(audioMemoryCacheBytes())): void {
  app.get(`${AUDIO_ROUTE}/:file`, async (c) => {
    const file = c.req.param('file');
    const key = file.endsWith('.mp3') ? file.slice(0, -4) : '';
    const store = audio();
    if (!store || !NARRATION_KEY_RE.test(key)) throw notFound('Audio not found');
    const name = mp3Name(key);
    let bytes = cache.get(key);
    const size: number | null = bytes ? bytes.length : await store.stat(name);
    if (size === null) throw notFound('Audio not found');
    const etag = `"${key}"`;
    const headers: Record<string, string> = {
      'Content-Type': 'audio/mpeg',
      'Accept-Ranges': 'bytes',
      'Cache-Control': AUDIO_CACHE_CONTROL,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (etagMatches(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
    const ifRange = c.req.header('if-range');
    const range = ifRange && ifRange !== etag ? null : parseRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') {
      return c.json({ errors: [{ code: 'range_not_satisfiable', message: `Range not satisfiable: the file has ${size} bytes` }] }, 416, {
        'Content-Range': `bytes */${size}`,
        'Accept-Ranges': 'bytes',
      });
    }
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
    headers['Content-Length'] = String(range ? range.end - range.start + 1 : size);
    const status = range ? 206 : 200;
    if (c.req.method === 'HEAD') return c.body(null, status, headers);
    bytes ??= (await cache.load(key, size, () => readAll(store, name))) ?? undefined;
    if (bytes) {
      const body = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      return c.body(body as Uint8Array<ArrayBuffer>, status, headers);
    }
    const obj = await store.get(name, range ?? undefined);
    if (!obj) throw notFound('Audio not found');
    return c.body(obj.body, status, headers);
  });
}
