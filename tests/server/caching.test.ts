/**
 * HTTP caching of public content: ETag and Cache-Control on the narration answers and the MP3s, 304
 * for a matching If-None-Match (also in a list, weak, or `*`), never a shared cache for answers that depended on
 * the asker; the MP3 route answering the same bytes whether a file is served from memory or streamed from the
 * store; and ready narration answers dropped when the library changes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { loadContent } from '../../server/server';
import { AudioMemoryCache, AUDIO_CACHE_CONTROL, audioMemoryCacheBytes, registerAudioFiles } from '../../server/narration/http';
import { etagMatches } from '../../server/kit/etag';
import { FsAudioStore, mp3Name, type AudioStore, type ByteRange } from '../../server/narration/storage';
import type { Env } from '../../server/kit/env';
import { HttpError } from '../../server/kit/errors';
import { entitledCookie, getJson, startFixtureServer, withEnv, writeFixtureLibrary } from './harness';


/** Byte-for-byte equality (toEqual on 200 KB arrays is slow). */
function expectBytes(actual: ArrayBuffer, expected: Uint8Array) {
  expect(actual.byteLength).toBe(expected.length);
  expect(Buffer.from(actual).equals(expected)).toBe(true);
}

async function readyAudio(server: RunningServer, passageId: number, init: RequestInit = {}) {
  const until = Date.now() + 30_000;
  for (;;) {
    const res = await getJson(server, `/api/v1/passages/${passageId}/audio`, init);
    if (res.status !== 202 || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('etagMatches', () => {
  it('matches the tag itself, any tag of a list, weak forms and *', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', '"abc"')).toBe(true);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
    expect(etagMatches('', '"abc"')).toBe(false);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches('abc', '"abc"')).toBe(false);
  });
});

describe('narration answers: ETag, Cache-Control, 304', () => {
  let server: RunningServer;
  let contentDir: string;
  let en: number;
  let ar: number;
  let enPassage: number;
  let arPassage: number;

  beforeAll(async () => {
    contentDir = writeFixtureLibrary(0);
    server = await withEnv({ NARRATION_CONCURRENCY: '0', NARRATION_WAIT_MS: '0' }, () => startFixtureServer({ contentDir }));
    const owls = (await getJson(server, '/api/v1/publications/alpha-owls')).body.editions as any[];
    en = owls.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL').id;
    ar = owls.find((e) => e.language.code === 'ar').id;
    enPassage = (await getJson(server, `/api/v1/passages?editionId=${en}&position=1`)).body.id;
    arPassage = (await getJson(server, `/api/v1/passages?editionId=${ar}&position=1`, { headers: { Cookie: await entitledCookie(server) } })).body.id;
  });
  afterAll(() => server?.stop());

  it('gives a free passage’s audio and speech marks a public ETag, and 304 on revalidation', async () => {
    const ready = await readyAudio(server, enPassage);
    expect(ready.status).toBe(200);
    for (const pathname of [`/api/v1/passages/${enPassage}/audio?editionId=${en}`, `/api/v1/passages/${enPassage}/speechMarks`]) {
      const first = await getJson(server, pathname);
      expect(first.status, pathname).toBe(200);
      expect(first.headers.get('cache-control'), pathname).toBe('public, max-age=60, must-revalidate');
      const etag = first.headers.get('etag')!;
      expect(etag, pathname).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
      // The same answer again: the same ETag (the serialised answer is kept).
      const second = await getJson(server, pathname);
      expect(second.headers.get('etag')).toBe(etag);
      expect(second.body).toEqual(first.body);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const res = await fetch(server.url + pathname, { headers: { 'If-None-Match': header } });
        expect(res.status, `${pathname} If-None-Match: ${header}`).toBe(304);
        expect(res.headers.get('etag')).toBe(etag);
        expect(res.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
        expect(await res.text()).toBe('');
      }
      const stale = await fetch(server.url + pathname, { headers: { 'If-None-Match': '"not-it"' } });
      expect(stale.status).toBe(200);
      await stale.arrayBuffer();
    }
    const audio = await getJson(server, `/api/v1/passages/${enPassage}/audio`);
    const marks = await getJson(server, `/api/v1/passages/${enPassage}/speechMarks`);
    expect(audio.headers.get('etag')).not.toBe(marks.headers.get('etag'));
    expect(marks.body).toEqual({ passageId: enPassage, speechMarks: audio.body.audio.speechMarks });
  });

  it('answers 304 on the content routes for a matching tag in a list, weak, or *', async () => {
    for (const pathname of [`/api/v1/passages?editionId=${en}&position=2`, '/api/v1/publications/alpha-owls', '/api/v1/publications']) {
      const first = await getJson(server, pathname);
      expect(first.status, pathname).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag, pathname).toBeTruthy();
      const bare = etag.replace(/^W\//, '');
      for (const header of [etag, `W/${bare}`, bare, `"other", ${etag}`, '*']) {
        const res = await fetch(server.url + pathname, { headers: { 'If-None-Match': header } });
        expect(res.status, `${pathname} If-None-Match: ${header}`).toBe(304);
        expect(res.headers.get('etag')).toBe(etag);
      }
      const other = await fetch(server.url + pathname, { headers: { 'If-None-Match': '"other"' } });
      expect(other.status).toBe(200);
      await other.arrayBuffer();
    }
  });

  it('never gives a public ETag to narration that needed the asker’s features, and never answers it 304', async () => {
    const cookie = await entitledCookie(server);
    const ready = await readyAudio(server, arPassage, { headers: { Cookie: cookie } });
    expect(ready.status).toBe(200);
    for (const pathname of [`/api/v1/passages/${arPassage}/audio`, `/api/v1/passages/${arPassage}/speechMarks`]) {
      const res = await getJson(server, pathname, { headers: { Cookie: cookie } });
      expect(res.status, pathname).toBe(200);
      expect(res.headers.get('cache-control'), pathname).toBe('private, no-store');
      expect(res.headers.get('etag'), pathname).toBeNull();
      const revalidated = await fetch(server.url + pathname, { headers: { Cookie: cookie, 'If-None-Match': '*' } });
      expect(revalidated.status, pathname).toBe(200);
      await revalidated.arrayBuffer();
      // Without the license: 403, whatever was asked before.
      expect((await getJson(server, pathname)).status, pathname).toBe(403);
    }
  });

  it('drops a ready answer when the library changes the passage’s text', async () => {
    const before = await readyAudio(server, enPassage);
    expect(before.status).toBe(200);
    const file = path.join(contentDir, 'alpha-owls', 'en.ORIGINAL.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Owls hunt at night with silent wings.', 'Owls hunt at dusk on quiet wings.'));
    // What a server does when it sees a new content revision (server.ts polls it on PostgreSQL).
    await loadContent(server.database, contentDir, pino({ level: 'silent' }));
    expect(await server.store.refreshRevision()).toBe(true);
    await server.narration.libraryChanged();
    const passage = (await getJson(server, `/api/v1/passages?editionId=${en}&position=1`)).body;
    expect(passage.text).toContain('quiet wings');
    const after = await getJson(server, `/api/v1/passages/${passage.id}/audio?editionId=${en}`);
    expect(after.status === 200 ? after.body.audio.url : null).not.toBe(before.body.audio.url);
    const marks = await getJson(server, `/api/v1/passages/${passage.id}/speechMarks`);
    if (marks.status === 200) expect(marks.body.speechMarks).not.toEqual(before.body.audio.speechMarks);
    const narrated = await readyAudio(server, passage.id);
    expect(narrated.status).toBe(200);
    expect(narrated.body.audio.url).not.toBe(before.body.audio.url);
  });
});

describe('GET /audio/{key}.mp3 from memory and streamed', () => {
  const key = `en-us-${'ab'.repeat(16)}`;
  const bytes = new Uint8Array(crypto.randomBytes(200_000));
  let dir: string;
  let store: FsAudioStore;

  /** A store that counts its reads. */
  function counting(inner: AudioStore) {
    const counts = { get: 0 };
    const wrapped: AudioStore = {
      put: (name, b) => inner.put(name, b),
      stat: (name) => inner.stat(name),
      has: (name) => inner.has(name),
      get: (name: string, range?: ByteRange) => {
        counts.get++;
        return inner.get(name, range);
      },
    };
    return { store: wrapped, counts };
  }

  function appWith(audio: AudioStore, cache: AudioMemoryCache) {
    const app = new Hono<Env>();
    registerAudioFiles(app, () => audio, cache);
    app.onError((error) => (error instanceof HttpError ? Response.json({ errors: error.errors }, { status: error.status }) : Response.json({}, { status: 500 })));
    return app;
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-audio-test-'));
    store = new FsAudioStore(dir);
    await store.put(mp3Name(key), bytes);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const variants = [
    ['from memory', () => new AudioMemoryCache(64 * 1024 * 1024)],
    ['streamed (no memory cache)', () => new AudioMemoryCache(0)],
    ['streamed (file larger than the cache takes)', () => new AudioMemoryCache(64 * 1024 * 1024, 1000)],
  ] as const;

  for (const [name, makeCache] of variants) {
    it(`answers whole files, ranges, HEAD, 304 and 416 the same way: ${name}`, async () => {
      const app = appWith(store, makeCache());
      const url = `http://x/audio/${key}.mp3`;
      for (let round = 0; round < 2; round++) {
        const whole = await app.request(url);
        expect(whole.status).toBe(200);
        expect(whole.headers.get('content-type')).toBe('audio/mpeg');
        expect(whole.headers.get('cache-control')).toBe(AUDIO_CACHE_CONTROL);
        expect(whole.headers.get('etag')).toBe(`"${key}"`);
        expect(whole.headers.get('content-length')).toBe(String(bytes.length));
        expectBytes(await whole.arrayBuffer(), bytes);

        const first = await app.request(url, { headers: { Range: 'bytes=0-65535' } });
        expect(first.status).toBe(206);
        expect(first.headers.get('content-range')).toBe(`bytes 0-65535/${bytes.length}`);
        expect(first.headers.get('content-length')).toBe('65536');
        expectBytes(await first.arrayBuffer(), bytes.slice(0, 65536));

        const tail = await app.request(url, { headers: { Range: 'bytes=-7' } });
        expect(tail.status).toBe(206);
        expectBytes(await tail.arrayBuffer(), bytes.slice(-7));

        const ifRangeStale = await app.request(url, { headers: { Range: 'bytes=0-9', 'If-Range': '"old"' } });
        expect(ifRangeStale.status).toBe(200);
        expect((await ifRangeStale.arrayBuffer()).byteLength).toBe(bytes.length);

        const head = await app.request(url, { method: 'HEAD', headers: { Range: 'bytes=10-19' } });
        expect(head.status).toBe(206);
        expect(head.headers.get('content-length')).toBe('10');
        expect(head.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);

        for (const inm of [`"${key}"`, `W/"${key}"`, `"a", "${key}"`]) {
          const notModified = await app.request(url, { headers: { 'If-None-Match': inm } });
          expect(notModified.status, inm).toBe(304);
          expect(notModified.headers.get('etag')).toBe(`"${key}"`);
        }
        const unsatisfiable = await app.request(url, { headers: { Range: `bytes=${bytes.length}-` } });
        expect(unsatisfiable.status).toBe(416);
        expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

        const missing = await app.request(`http://x/audio/en-us-${'0'.repeat(32)}.mp3`);
        expect(missing.status).toBe(404);
      }
    });
  }

  it('reads a file into memory once, however many ask for it at once, and keeps within its byte budget', async () => {
    const { store: counted, counts } = counting(store);
    const cache = new AudioMemoryCache(300_000);
    const app = appWith(counted, cache);
    const url = `http://x/audio/${key}.mp3`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.request(url, { headers: { Range: 'bytes=0-65535' } })));
    for (const res of answers) expectBytes(await res.arrayBuffer(), bytes.slice(0, 65536));
    expect(counts.get).toBe(1);
    expect(cache.size).toEqual({ files: 1, bytes: bytes.length });

    // A second file does not fit beside the first: the older one leaves.
    const other = `en-us-${'cd'.repeat(16)}`;
    await store.put(mp3Name(other), bytes.slice(0, 150_000));
    const res = await app.request(`http://x/audio/${other}.mp3`);
    expect((await res.arrayBuffer()).byteLength).toBe(150_000);
    expect(cache.size).toEqual({ files: 1, bytes: 150_000 });
  });

  it('reads its budget from AUDIO_MEMORY_CACHE_MB', () => {
    expect(audioMemoryCacheBytes({})).toBe(64 * 1024 * 1024);
    expect(audioMemoryCacheBytes({ AUDIO_MEMORY_CACHE_MB: '0' })).toBe(0);
    expect(audioMemoryCacheBytes({ AUDIO_MEMORY_CACHE_MB: '8' })).toBe(8 * 1024 * 1024);
    expect(() => audioMemoryCacheBytes({ AUDIO_MEMORY_CACHE_MB: 'lots' })).toThrow(/AUDIO_MEMORY_CACHE_MB/);
  });
});
