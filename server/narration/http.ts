/**
 * The narration endpoints (SPEC §7) and the MP3 files. Mounted by server/http/app.ts:
 *  - GET /api/v1/passages/{passageId}/audio?editionId=
 *  - GET /api/v1/passages/audioOnly?editionId=&position=
 *  - GET /api/v1/passages/{passageId}/audioOnly/onDemand?editionId=
 *  - GET /api/v1/passages/{passageId}/speechMarks
 *  - GET /audio/{key}.mp3 (outside the API: range requests, immutable caching)
 */
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { Env } from '../http/env';
import { AudioOnlyQuerySchema, PassageAudioQuerySchema, PassageIdParamSchema } from '../../src/domain/schemas';
import { PASSAGE_NOT_FOUND } from '../../src/domain/constants';
import { notFound } from '../http/errors';
import { param, query } from '../http/validate';
import type { ContentStore } from '../content/store';
import type { AudioAnswer, NarrationService } from './queue';
import { AUDIO_ROUTE } from './queue';
import { NARRATION_KEY_RE } from './pipeline';
import { mp3Name, type AudioStore, type ByteRange } from './storage';
import { audioAccess } from '../../src/domain/access';
import { assertAllowed, gate, gatedPassage, sendPrivateJson, type AccessDeps } from '../access';

/** The tooltip's words (SPEC §8), also the 404 message for a language we cannot narrate. */
export const AUDIO_NOT_AVAILABLE = 'Audio not available';
/** Narration answers may be reused briefly, then revalidated with their ETag (as other content answers). */
const READY_CACHE_CONTROL = 'public, max-age=60, must-revalidate';
/** A narration file never changes: its name is a hash of what it says. */
export const AUDIO_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** Seconds a client should wait before asking again after 202 'generating'. */
const RETRY_AFTER_S = 1;

type AnyHono = Hono<Env>;

function etagOf(json: string): string {
  return `"${crypto.createHash('sha1').update(json).digest('base64url').slice(0, 22)}"`;
}

function sendJson(c: Context, body: unknown, status: 200 | 202, cacheControl: string): Response {
  const json = JSON.stringify(body);
  const headers: Record<string, string> = { 'Cache-Control': cacheControl, 'Content-Type': 'application/json; charset=utf-8' };
  if (status === 202) {
    headers['Retry-After'] = String(RETRY_AFTER_S);
    return c.body(json, 202, headers);
  }
  const etag = etagOf(json);
  headers.ETag = etag;
  if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
  return c.body(json, 200, headers);
}

/** `actorDependent`: the gate needed the asker's features, so the answer is `private, no-store` without an ETag. */
function answer(c: Context, a: AudioAnswer, shape: 'audio' | 'marks', actorDependent: boolean): Response {
  if (a.kind === 'missing') throw notFound(PASSAGE_NOT_FOUND);
  if (a.kind === 'unvoiced') throw notFound(AUDIO_NOT_AVAILABLE);
  if (a.kind === 'generating') return sendJson(c, { passageId: a.passageId, status: 'generating' }, 202, 'no-store');
  const body = shape === 'marks' ? { passageId: a.passageId, speechMarks: a.audio.speechMarks } : { passageId: a.passageId, status: 'ready', audio: a.audio };
  if (actorDependent) return sendPrivateJson(c, JSON.stringify(body));
  return sendJson(c, body, 200, READY_CACHE_CONTROL);
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
    const found = await gatedPassage(access, c, editionId, position);
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

/** Serve narration MP3s at /audio/{key}.mp3 with range requests and immutable caching. */
export function registerAudioFiles(app: AnyHono, audio: () => AudioStore | undefined): void {
  app.get(`${AUDIO_ROUTE}/:file`, async (c) => {
    const file = c.req.param('file');
    const key = file.endsWith('.mp3') ? file.slice(0, -4) : '';
    const store = audio();
    if (!store || !NARRATION_KEY_RE.test(key)) throw notFound('Audio not found');
    const size = await store.stat(mp3Name(key));
    if (size === null) throw notFound('Audio not found');
    const etag = `"${key}"`;
    const headers: Record<string, string> = {
      'Content-Type': 'audio/mpeg',
      'Accept-Ranges': 'bytes',
      'Cache-Control': AUDIO_CACHE_CONTROL,
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const ifRange = c.req.header('if-range');
    const range = ifRange && ifRange !== etag ? null : parseRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') {
      return c.json({ errors: [{ code: 'range_not_satisfiable', message: `Range not satisfiable: the file has ${size} bytes` }] }, 416, {
        'Content-Range': `bytes */${size}`,
        'Accept-Ranges': 'bytes',
      });
    }
    if (c.req.method === 'HEAD') {
      if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = String(range ? range.end - range.start + 1 : size);
      return c.body(null, range ? 206 : 200, headers);
    }
    const obj = await store.get(mp3Name(key), range ?? undefined);
    if (!obj) throw notFound('Audio not found');
    if (range) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
      return c.body(obj.body, 206, headers);
    }
    headers['Content-Length'] = String(size);
    return c.body(obj.body, 200, headers);
  });
}

