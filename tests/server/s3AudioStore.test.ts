/**
 * Narration audio in an S3-compatible object store, against a real one: s3rver, started here on a free
 * port. The AUDIO_STORE configuration and its errors; S3AudioStore's put/get/range/stat/has and readiness; the
 * /audio route streaming from it; and end to end, a server started with AUDIO_STORE narrating a passage into the
 * bucket and serving its MP3 by range, and a second server (fresh database) reusing that narration from the bucket.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioStoreConfig, audioStoreFromEnv, audioStoreLocation, DEFAULT_S3_REGION } from '../../server/narration/audioStore';
import { AudioStoreUnavailableError, S3AudioStore } from '../../server/narration/s3Store';
import { FsAudioStore, metaName, mp3Name, readAll, readMeta, writeNarration, type NarrationMeta } from '../../server/narration/storage';
import { AudioMemoryCache, AUDIO_CACHE_CONTROL, registerAudioFiles } from '../../server/narration/http';
import { HttpError } from '../../server/kit/errors';
import type { Env } from '../../server/kit/env';
import { loadConfig } from '../../server/config';
import type { RunningServer } from '../../server/server';
import { getJson, startFixtureServer, withEnv, writeFixtureLibrary } from './harness';

const BUCKET = 'lectern-audio';
const PREFIX = 'narration/v1';

/** Byte-for-byte equality (toEqual on 200 KB arrays is slow). */
function expectBytes(actual: ArrayBuffer | Uint8Array, expected: Uint8Array) {
  const got = Buffer.from(actual instanceof Uint8Array ? actual : new Uint8Array(actual));
  expect(got.length).toBe(expected.length);
  expect(got.equals(expected)).toBe(true);
}

async function bodyBytes(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** A port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let s3: S3rver;
let s3Dir: string;
let env: Record<string, string>;
/** A client of its own, to look into the bucket behind the store's back. */
let raw: S3Client;

beforeAll(async () => {
  s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-s3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await s3.run();
  env = {
    AUDIO_STORE: `s3://${BUCKET}/${PREFIX}/`,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'eu-west-1',
  };
  const config = audioStoreConfig(env);
  if (config.kind !== 's3') throw new Error('expected an S3 configuration');
  raw = new S3Client(config.clientConfig);
});

afterAll(async () => {
  raw?.destroy();
  await s3?.close();
  fs.rmSync(s3Dir, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const listed = await raw.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

async function objectBytes(key: string): Promise<Uint8Array> {
  const answer = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return answer.Body!.transformToByteArray();
}

async function s3Store(overrides: Record<string, string> = {}): Promise<S3AudioStore> {
  const store = await audioStoreFromEnv({ ...env, ...overrides }, '/nonexistent/audio');
  expect(store).toBeInstanceOf(S3AudioStore);
  return store as S3AudioStore;
}

describe('AUDIO_STORE', () => {
  it('keeps audio on disk when unset or empty', async () => {
    for (const value of [undefined, '', '  ']) {
      expect(audioStoreConfig({ AUDIO_STORE: value })).toEqual({ kind: 'disk' });
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-audio-'));
    try {
      const store = await audioStoreFromEnv({}, dir);
      expect(store).toBeInstanceOf(FsAudioStore);
      expect(audioStoreLocation(store)).toBe(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ignores the S3 variables while AUDIO_STORE is unset', () => {
    expect(audioStoreConfig({ AWS_ACCESS_KEY_ID: 'only-the-id', S3_ENDPOINT: 'not a url', S3_FORCE_PATH_STYLE: 'maybe' })).toEqual({ kind: 'disk' });
  });

  it('reads the bucket, the prefix, the region, the endpoint and the credentials', () => {
    const config = audioStoreConfig(env);
    expect(config).toMatchObject({ kind: 's3', bucket: BUCKET, prefix: PREFIX });
    if (config.kind !== 's3') return;
    expect(config.clientConfig).toMatchObject({
      region: 'eu-west-1',
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });

    const aws = audioStoreConfig({ AUDIO_STORE: 's3://my.bucket-1' });
    expect(aws).toMatchObject({ kind: 's3', bucket: 'my.bucket-1', prefix: '' });
    if (aws.kind !== 's3') return;
    // On AWS: virtual-hosted addressing, the region by default, and the SDK's own credential chain.
    expect(aws.clientConfig).toMatchObject({ region: DEFAULT_S3_REGION, forcePathStyle: false });
    expect(aws.clientConfig.endpoint).toBeUndefined();
    expect(aws.clientConfig.credentials).toBeUndefined();
    expect(audioStoreConfig({ ...env, S3_FORCE_PATH_STYLE: 'false' })).toMatchObject({ clientConfig: { forcePathStyle: false } });
  });

  it('refuses bad values with an error that names the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ AUDIO_STORE: '/var/lib/lectern/audio' }, /AUDIO_STORE: must be s3:\/\/bucket or s3:\/\/bucket\/prefix.*got '\/var\/lib\/lectern\/audio'/],
      [{ AUDIO_STORE: 'https://s3.amazonaws.com/bucket' }, /AUDIO_STORE: must be s3:\/\//],
      [{ AUDIO_STORE: 's3://' }, /AUDIO_STORE: must be/],
      [{ AUDIO_STORE: 's3://ab' }, /AUDIO_STORE: names a bucket S3 does not allow: 'ab'/],
      [{ AUDIO_STORE: 's3://My_Bucket/audio' }, /AUDIO_STORE: names a bucket/],
      [{ AUDIO_STORE: 's3://lectern-audio/a//b' }, /AUDIO_STORE: has a prefix that is not a plain path/],
      [{ AUDIO_STORE: 's3://lectern-audio/../x' }, /AUDIO_STORE: has a prefix/],
      [{ AUDIO_STORE: 's3://lectern-audio', S3_ENDPOINT: 'localhost:9000' }, /S3_ENDPOINT: must be an http:\/\/ or https:\/\/ address/],
      [{ AUDIO_STORE: 's3://lectern-audio', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE: must be true or false/],
      [{ AUDIO_STORE: 's3://lectern-audio', AWS_ACCESS_KEY_ID: 'id' }, /AWS_SECRET_ACCESS_KEY: must be set when AWS_ACCESS_KEY_ID is/],
      [{ AUDIO_STORE: 's3://lectern-audio', AWS_SECRET_ACCESS_KEY: 'secret' }, /AWS_ACCESS_KEY_ID: must be set when AWS_SECRET_ACCESS_KEY is/],
    ];
    for (const [vars, message] of cases) {
      expect(() => audioStoreConfig(vars), JSON.stringify(vars)).toThrow(message);
      expect(() => audioStoreConfig(vars)).toThrow(/^Invalid environment:/);
    }
    // Never the secret in a message.
    expect(() => audioStoreConfig({ AUDIO_STORE: 'bad', AWS_SECRET_ACCESS_KEY: 'hunter2-secret' })).not.toThrow(/hunter2/);
  });

  it('stops the server configuration at once (loadConfig), before anything opens', () => {
    expect(() => loadConfig({ AUDIO_STORE: 'minio://audio' })).toThrow(/Invalid environment:\n {2}AUDIO_STORE: must be s3:\/\//);
    expect(loadConfig({ AUDIO_STORE: 's3://lectern-audio/x' }).port).toBe(3000);
  });
});

describe('S3AudioStore against s3rver', () => {
  const bytes = new Uint8Array(crypto.randomBytes(200_000));

  it('puts an object under the prefix and gets it whole, by range, and its size', async () => {
    const store = await s3Store();
    expect(audioStoreLocation(store)).toBe(`s3://${BUCKET}/${PREFIX}`);
    await store.put('en-us-put.mp3', bytes);
    expect(await keysUnder(`${PREFIX}/en-us-put`)).toEqual([`${PREFIX}/en-us-put.mp3`]);
    const head = await raw.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/en-us-put.mp3` }));
    expect(head.ContentType).toBe('audio/mpeg');
    expectBytes(await head.Body!.transformToByteArray(), bytes);

    // A second store, as on another server: nothing known in memory, everything asked of the bucket.
    const other = await s3Store();
    expect(await other.stat('en-us-put.mp3')).toBe(bytes.length);
    expect(await other.has('en-us-put.mp3')).toBe(true);
    const whole = await other.get('en-us-put.mp3');
    expect(whole!.size).toBe(bytes.length);
    expectBytes(await bodyBytes(whole!.body), bytes);

    for (const range of [
      { start: 0, end: 0 },
      { start: 1000, end: 65_535 },
      { start: bytes.length - 7, end: bytes.length - 1 },
    ]) {
      const part = await (await s3Store()).get('en-us-put.mp3', range);
      expect(part!.size, JSON.stringify(range)).toBe(bytes.length);
      expectBytes(await bodyBytes(part!.body), bytes.slice(range.start, range.end + 1));
    }
  });

  it('answers null for an object that is not there', async () => {
    const store = await s3Store();
    expect(await store.stat('en-us-missing.mp3')).toBeNull();
    expect(await store.has('en-us-missing.mp3')).toBe(false);
    expect(await store.get('en-us-missing.mp3')).toBeNull();
    expect(await store.get('en-us-missing.mp3', { start: 0, end: 9 })).toBeNull();
    expect(await readMeta(store, 'en-us-missing')).toBeNull();
  });

  it('keeps a narration (MP3 and its JSON) that another store reads back', async () => {
    const store = await s3Store();
    const meta: NarrationMeta = { key: 'en-us-meta', voice: 'en-us', durationMs: 1234, speechMarks: [{ offset: 0, time: 70 }], createdAt: '2026-11-26T12:00:00.000Z' };
    await writeNarration(store, meta, bytes.slice(0, 5000));
    const other = await s3Store();
    expect(await readMeta(other, 'en-us-meta')).toEqual(meta);
    expectBytes((await readAll(other, mp3Name('en-us-meta')))!, bytes.slice(0, 5000));
    expect(await keysUnder(`${PREFIX}/en-us-meta`)).toEqual([`${PREFIX}/${metaName('en-us-meta')}`, `${PREFIX}/${mp3Name('en-us-meta')}`]);
  });

  it('stores at the bucket root without a prefix, and refuses names that are not audio names', async () => {
    const store = await s3Store({ AUDIO_STORE: `s3://${BUCKET}` });
    await store.put('en-us-root.json', new TextEncoder().encode('{}'));
    expect(await keysUnder('en-us-root')).toEqual(['en-us-root.json']);
    for (const name of ['../x.mp3', 'a/b.mp3', '.hidden', '']) {
      await expect(store.put(name, bytes), name).rejects.toThrow(/Bad audio object name/);
    }
  });

  it('is ready when the bucket answers; a missing bucket or an unreachable store is unavailable (503)', async () => {
    await expect((await s3Store()).ready()).resolves.toBeUndefined();

    const noBucket = await s3Store({ AUDIO_STORE: 's3://no-such-bucket/x' });
    await expect(noBucket.ready()).rejects.toBeInstanceOf(AudioStoreUnavailableError);
    // What the readiness check reports: the operation, where, and the store's answer.
    await expect(noBucket.ready()).rejects.toThrow(/^HeadBucket on s3:\/\/no-such-bucket\/x failed: \w+ \(HTTP 404\)/);
    await expect(noBucket.get('en-us-put.mp3')).rejects.toBeInstanceOf(AudioStoreUnavailableError);
    await expect(noBucket.put('en-us-put.mp3', bytes)).rejects.toBeInstanceOf(AudioStoreUnavailableError);

    const down = await s3Store({ S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    const error = await down.stat('en-us-put.mp3').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AudioStoreUnavailableError);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(503);
    expect((error as HttpError).errors).toEqual([{ code: 'audio_store_unavailable', message: expect.stringMatching(/audio store/) }]);
    expect((error as Error).message).toMatch(/^HeadObject on s3:\/\/lectern-audio\/narration\/v1\/en-us-put\.mp3 failed: .*ECONNREFUSED/);
    await expect(down.ready()).rejects.toBeInstanceOf(AudioStoreUnavailableError);
  });
});

describe('GET /audio/{key}.mp3 from S3', () => {
  const key = `en-us-${'5e'.repeat(16)}`;
  const bytes = new Uint8Array(crypto.randomBytes(150_000));

  function appWith(store: S3AudioStore, cache: AudioMemoryCache) {
    const app = new Hono<Env>();
    registerAudioFiles(app, () => store, cache);
    app.onError((error) => (error instanceof HttpError ? Response.json({ errors: error.errors }, { status: error.status }) : Response.json({}, { status: 500 })));
    return app;
  }

  beforeAll(async () => {
    await (await s3Store()).put(mp3Name(key), bytes);
  });

  for (const [name, makeCache] of [
    ['streamed from the bucket', () => new AudioMemoryCache(0)],
    ['read once into memory', () => new AudioMemoryCache(64 * 1024 * 1024)],
  ] as const) {
    it(`answers whole files, ranges, HEAD, 304, 416 and 404 as from disk: ${name}`, async () => {
      const app = appWith(await s3Store(), makeCache());
      const url = `http://x/audio/${key}.mp3`;
      const whole = await app.request(url);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('audio/mpeg');
      expect(whole.headers.get('cache-control')).toBe(AUDIO_CACHE_CONTROL);
      expect(whole.headers.get('etag')).toBe(`"${key}"`);
      expect(whole.headers.get('content-length')).toBe(String(bytes.length));
      expectBytes(await whole.arrayBuffer(), bytes);

      const range = await app.request(url, { headers: { Range: 'bytes=100-65635' } });
      expect(range.status).toBe(206);
      expect(range.headers.get('content-range')).toBe(`bytes 100-65635/${bytes.length}`);
      expect(range.headers.get('content-length')).toBe('65536');
      expectBytes(await range.arrayBuffer(), bytes.slice(100, 65_636));

      const tail = await app.request(url, { headers: { Range: 'bytes=-9' } });
      expect(tail.status).toBe(206);
      expectBytes(await tail.arrayBuffer(), bytes.slice(-9));

      const head = await app.request(url, { method: 'HEAD', headers: { Range: 'bytes=10-19' } });
      expect(head.status).toBe(206);
      expect(head.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);

      expect((await app.request(url, { headers: { 'If-None-Match': `"${key}"` } })).status).toBe(304);
      const unsatisfiable = await app.request(url, { headers: { Range: `bytes=${bytes.length}-` } });
      expect(unsatisfiable.status).toBe(416);
      expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

      const missing = await app.request(`http://x/audio/en-us-${'0'.repeat(32)}.mp3`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ errors: [{ code: 'not_found', message: 'Audio not found' }] });
    });
  }
});

describe('a server with AUDIO_STORE=s3://…', () => {
  let first: RunningServer;
  let second: RunningServer;
  beforeAll(async () => {
    const serverEnv = { ...env, AUDIO_STORE: `s3://${BUCKET}/e2e`, NARRATION_CONCURRENCY: '0', NARRATION_WAIT_MS: '0', AUDIO_MEMORY_CACHE_MB: '0' };
    first = await withEnv(serverEnv, () => startFixtureServer({ contentDir: writeFixtureLibrary(0) }));
    // Another server on its own (in-memory) database, sharing only the bucket.
    second = await withEnv(serverEnv, () => startFixtureServer({ contentDir: writeFixtureLibrary(0) }));
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  /** Ask for a passage's audio until it is ready (202 while it narrates). */
  async function audioWhenReady(server: RunningServer, passageId: number) {
    const until = Date.now() + 50_000;
    for (;;) {
      const res = await getJson(server, `/api/v1/passages/${passageId}/audio`);
      if (res.status !== 202 || Date.now() > until) return res;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function firstPassageOf(server: RunningServer, slug: string) {
    const editions = (await getJson(server, `/api/v1/publications/${slug}`)).body.editions as any[];
    const en = editions.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL');
    return (await getJson(server, `/api/v1/passages?editionId=${en.id}&position=1`)).body;
  }

  it('narrates a passage into the bucket and serves its MP3 by range from there', { timeout: 60_000 }, async () => {
    expect(first.narration.audioStore).toBeInstanceOf(S3AudioStore);
    const passage = await firstPassageOf(first, 'cedar-and-stone');
    const ready = await audioWhenReady(first, passage.id);
    expect(ready.status).toBe(200);
    const { url, speechMarks, duration } = ready.body.audio;
    const key = /^\/audio\/(flite-slt-[0-9a-f]{32})\.mp3$/.exec(url)![1];

    // Both objects are in the bucket, under the prefix; the JSON beside the MP3 has the answer's marks.
    expect(await keysUnder(`e2e/${key}`)).toEqual([`e2e/${key}.json`, `e2e/${key}.mp3`]);
    const stored = JSON.parse(new TextDecoder().decode(await objectBytes(`e2e/${key}.json`)));
    expect(stored).toMatchObject({ key, durationMs: duration, speechMarks });
    const mp3 = await objectBytes(`e2e/${key}.mp3`);
    expect(mp3.length).toBeGreaterThan(1000);

    const range = await fetch(first.url + url, { headers: { Range: 'bytes=0-1023' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-1023/${mp3.length}`);
    expect(range.headers.get('etag')).toBe(`"${key}"`);
    expect(range.headers.get('cache-control')).toBe(AUDIO_CACHE_CONTROL);
    expectBytes(await range.arrayBuffer(), mp3.slice(0, 1024));

    const rest = await fetch(first.url + url, { headers: { Range: 'bytes=1024-' } });
    expect(rest.status).toBe(206);
    expectBytes(await rest.arrayBuffer(), mp3.slice(1024));
    expect(first.narration.stats.synthesized).toBe(1);
  });

  it('is ready (GET /api/v1/health/ready) while the bucket answers, and not on a bucket that does not exist', { timeout: 60_000 }, async () => {
    const ready = await getJson(first, '/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.audio).toBe('ok');

    const wrong = await withEnv({ ...env, AUDIO_STORE: 's3://no-such-bucket/x', NARRATION_CONCURRENCY: '0' }, () =>
      startFixtureServer({ contentDir: writeFixtureLibrary(0) }),
    );
    try {
      const notReady = await getJson(wrong, '/api/v1/health/ready');
      expect(notReady.status).toBe(503);
      expect(notReady.body.errors).toEqual([{ code: 'audio_store_unavailable', message: expect.stringMatching(/HeadBucket on s3:\/\/no-such-bucket\/x failed/) }]);
    } finally {
      await wrong.stop();
    }
  });

  it('a second server on another database takes the narration from the bucket instead of making it again', { timeout: 60_000 }, async () => {
    const passage = await firstPassageOf(second, 'cedar-and-stone');
    const ready = await audioWhenReady(second, passage.id);
    expect(ready.status).toBe(200);
    expect(second.narration.stats).toMatchObject({ synthesized: 0, reused: 1 });
    const whole = await fetch(second.url + ready.body.audio.url);
    expect(whole.status).toBe(200);
    const key = /(flite-slt-[0-9a-f]{32})/.exec(ready.body.audio.url)![1];
    expectBytes(await whole.arrayBuffer(), await objectBytes(`e2e/${key}.mp3`));
  });
});
