/**
 * The S3 audio store when S3 fails, with the SDK client replaced at its port by aws-sdk-client-mock: store errors
 * become `AudioStoreUnavailableError` (503 audio_store_unavailable) and missing objects null (404); a server started
 * with AUDIO_STORE answers GET /audio with those errors; and a passage whose MP3 could not be written is not marked
 * narrated, and is narrated once the store works again. The same paths against a real S3 server are in
 * s3AudioStore.test.ts.
 */
import crypto from 'node:crypto';
import {
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  NoSuchBucket,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import * as sdk from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIO_STORE_RETRY_AFTER_S, AUDIO_STORE_UNAVAILABLE, AudioStoreUnavailableError, S3AudioStore } from '../../server/narration/s3Store';
import { mp3Name } from '../../server/narration/storage';
import { passages } from '../../server/db/schema';
import type { RunningServer } from '../../server/server';
import { getJson, startFixtureServer, withEnv } from './harness';

const s3 = mockClient(S3Client);
afterAll(() => s3.restore());

const BUCKET = 'lectern-audio';

/** A network failure as the SDK's HTTP handler reports it. */
const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED 10.9.8.7:9000'), { code: 'ECONNREFUSED' });
const accessDenied = () =>
  new S3ServiceException({ name: 'AccessDenied', $fault: 'client', $metadata: { httpStatusCode: 403 }, message: 'Access Denied' });
const slowDown = () => new S3ServiceException({ name: 'SlowDown', $fault: 'server', $metadata: { httpStatusCode: 503 }, message: 'Please reduce your request rate.' });

/** A GetObject body as the SDK gives it (only what the store uses). */
function sdkBody(bytes: Uint8Array) {
  return { transformToWebStream: () => new Response(bytes as Uint8Array<ArrayBuffer>).body! } as never;
}

function store() {
  return new S3AudioStore({ sdk, bucket: BUCKET, prefix: 'p', clientConfig: { region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } } });
}

async function expectUnavailable(promise: Promise<unknown>, operation: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AudioStoreUnavailableError);
  const e = error as AudioStoreUnavailableError;
  expect(e.status).toBe(503);
  expect(e.operation).toBe(operation);
  expect(e.errors).toEqual([{ code: 'audio_store_unavailable', message: AUDIO_STORE_UNAVAILABLE }]);
}

describe('S3AudioStore errors', () => {
  beforeEach(() => s3.reset());

  it('maps a missing object to null, and anything else the store answers to AudioStoreUnavailableError', async () => {
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    s3.on(GetObjectCommand).rejects(new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } }));
    expect(await store().stat('a.mp3')).toBeNull();
    expect(await store().has('a.mp3')).toBe(false);
    expect(await store().get('a.mp3')).toBeNull();

    for (const failure of [connectionRefused, accessDenied, slowDown]) {
      s3.reset();
      s3.on(HeadObjectCommand).rejects(failure());
      s3.on(GetObjectCommand).rejects(failure());
      s3.on(PutObjectCommand).rejects(failure());
      s3.on(HeadBucketCommand).rejects(failure());
      await expectUnavailable(store().stat('a.mp3'), 'HeadObject');
      await expectUnavailable(store().has('a.mp3'), 'HeadObject');
      await expectUnavailable(store().get('a.mp3', { start: 0, end: 9 }), 'GetObject');
      await expectUnavailable(store().put('a.mp3', new Uint8Array(10)), 'PutObject');
      await expectUnavailable(store().ready(), 'HeadBucket');
    }

    // A missing bucket is a misconfiguration, not a missing object.
    s3.reset();
    s3.on(GetObjectCommand).rejects(new NoSuchBucket({ message: 'The specified bucket does not exist', $metadata: { httpStatusCode: 404 } }));
    await expectUnavailable(store().get('a.mp3'), 'GetObject');
  });

  it('remembers sizes it has seen (objects never change), but not after a failed put', async () => {
    s3.on(PutObjectCommand).rejectsOnce(connectionRefused()).resolves({});
    s3.on(HeadObjectCommand).rejects(new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } }));
    const s = store();
    await expectUnavailable(s.put('a.mp3', new Uint8Array(10)), 'PutObject');
    expect(await s.stat('a.mp3')).toBeNull();
    expect(s3.commandCalls(HeadObjectCommand)).toHaveLength(1);
    await s.put('a.mp3', new Uint8Array(10));
    expect(await s.stat('a.mp3')).toBe(10);
    expect(s3.commandCalls(HeadObjectCommand)).toHaveLength(1);
    expect(s3.commandCalls(PutObjectCommand)[1].args[0].input).toMatchObject({ Bucket: BUCKET, Key: 'p/a.mp3', ContentType: 'audio/mpeg', ContentLength: 10 });
  });

  it('cuts an answer with more than the range asked for down to the range, and refuses one with less', async () => {
    const bytes = new Uint8Array(crypto.randomBytes(100));
    // As s3rver answers bytes=0-0, or a server that ignores Range.
    s3.on(GetObjectCommand).resolves({ ContentRange: 'bytes 0-99/100', ContentLength: 100, Body: sdkBody(bytes) });
    const part = await store().get('a.mp3', { start: 10, end: 19 });
    expect(part!.size).toBe(100);
    expect(new Uint8Array(await new Response(part!.body).arrayBuffer())).toEqual(bytes.slice(10, 20));

    s3.reset();
    s3.on(GetObjectCommand).resolves({ ContentLength: 100, Body: sdkBody(bytes) });
    const ignored = await store().get('a.mp3', { start: 0, end: 0 });
    expect(new Uint8Array(await new Response(ignored!.body).arrayBuffer())).toEqual(bytes.slice(0, 1));

    s3.reset();
    s3.on(GetObjectCommand).resolves({ ContentRange: 'bytes 10-14/100', ContentLength: 5, Body: sdkBody(bytes.slice(10, 15)) });
    await expectUnavailable(store().get('a.mp3', { start: 10, end: 19 }), 'GetObject');
  });
});

/**
 * A bucket in memory behind the mocked client, for the server tests: objects by key, and a switch per operation
 * that makes it fail as an unreachable store does.
 */
function fakeBucket() {
  const objects = new Map<string, Uint8Array>();
  const failing = { get: false, head: false, put: false };
  const missing = () => new NotFound({ message: 'Not Found', $metadata: { httpStatusCode: 404 } });
  s3.reset();
  s3.on(HeadBucketCommand).resolves({});
  s3.on(PutObjectCommand).callsFake(async (input: { Key: string; Body: Uint8Array }) => {
    if (failing.put) throw connectionRefused();
    objects.set(input.Key, new Uint8Array(input.Body));
    return {};
  });
  s3.on(HeadObjectCommand).callsFake(async (input: { Key: string }) => {
    if (failing.head) throw connectionRefused();
    const bytes = objects.get(input.Key);
    if (!bytes) throw missing();
    return { ContentLength: bytes.length };
  });
  s3.on(GetObjectCommand).callsFake(async (input: { Key: string; Range?: string }) => {
    if (failing.get) throw connectionRefused();
    const bytes = objects.get(input.Key);
    if (!bytes) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    const m = /^bytes=(\d+)-(\d+)$/.exec(input.Range ?? '');
    if (!m) return { ContentLength: bytes.length, Body: sdkBody(bytes) };
    const [start, end] = [Number(m[1]), Math.min(Number(m[2]), bytes.length - 1)];
    return { ContentRange: `bytes ${start}-${end}/${bytes.length}`, ContentLength: end - start + 1, Body: sdkBody(bytes.slice(start, end + 1)) };
  });
  return { objects, failing };
}

const SERVER_ENV = {
  AUDIO_STORE: `s3://${BUCKET}/audio`,
  S3_ENDPOINT: 'http://s3.invalid:9000',
  AWS_ACCESS_KEY_ID: 'x',
  AWS_SECRET_ACCESS_KEY: 'y',
  NARRATION_CONCURRENCY: '0',
  // A request waits for its narration (and so sees how it ended) instead of answering 202 at once.
  NARRATION_WAIT_MS: '30000',
};

describe('a server whose S3 store fails', () => {
  let server: RunningServer;
  let bucket: ReturnType<typeof fakeBucket>;

  beforeAll(async () => {
    server = await withEnv(SERVER_ENV, () => startFixtureServer());
    expect(server.narration.audioStore).toBeInstanceOf(S3AudioStore);
  });
  afterAll(() => server?.stop());
  beforeEach(() => {
    bucket = fakeBucket();
  });
  afterEach(() => s3.reset());

  it('answers GET /audio with 503 audio_store_unavailable while the store is down, 404 for a missing object', async () => {
    const key = `en-us-${'7a'.repeat(16)}`;
    const bytes = new Uint8Array(crypto.randomBytes(5000));
    bucket.objects.set(`audio/${mp3Name(key)}`, bytes);

    bucket.failing.head = true;
    bucket.failing.get = true;
    const down = await getJson(server, `/audio/${key}.mp3`, { headers: { Range: 'bytes=0-99' } });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ errors: [{ code: 'audio_store_unavailable', message: AUDIO_STORE_UNAVAILABLE }] });
    expect(down.headers.get('retry-after')).toBe(String(AUDIO_STORE_RETRY_AFTER_S));

    // The size is known (HeadObject answers) but the bytes cannot be read.
    bucket.failing.head = false;
    const noBytes = await getJson(server, `/audio/${key}.mp3`);
    expect(noBytes.status).toBe(503);
    expect(noBytes.body.errors[0].code).toBe('audio_store_unavailable');

    const missing = await getJson(server, `/audio/en-us-${'0'.repeat(32)}.mp3`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ errors: [{ code: 'not_found', message: 'Audio not found' }] });

    bucket.failing.get = false;
    const up = await fetch(`${server.url}/audio/${key}.mp3`, { headers: { Range: 'bytes=0-99' } });
    expect(up.status).toBe(206);
    expect(up.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    expect(new Uint8Array(await up.arrayBuffer())).toEqual(bytes.slice(0, 100));
  });

  it('does not mark a passage narrated when its MP3 cannot be written, and narrates it once the store works', async () => {
    const editions = (await getJson(server, '/api/v1/publications/cedar-and-stone')).body.editions as any[];
    const en = editions.find((e) => e.language.code === 'en');
    const passage = (await getJson(server, `/api/v1/passages?editionId=${en.id}&position=1`)).body;
    expect(passage.audio).toBeNull();

    bucket.failing.put = true;
    const failed = await getJson(server, `/api/v1/passages/${passage.id}/audio`);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ errors: [{ code: 'audio_store_unavailable', message: AUDIO_STORE_UNAVAILABLE }] });
    expect(bucket.objects.size).toBe(0);
    const [row] = await server.database.db.select({ audioUrl: passages.audioUrl, speechMarks: passages.speechMarks }).from(passages).where(eq(passages.id, passage.id));
    expect(row).toEqual({ audioUrl: null, speechMarks: null });
    expect((await getJson(server, `/api/v1/passages?editionId=${en.id}&position=1`)).body.audio).toBeNull();
    expect((await getJson(server, '/api/v1/publications/cedar-and-stone')).body.editions.find((e: any) => e.id === en.id).audioTotalLength).toBe(0);

    bucket.failing.put = false;
    const ready = await getJson(server, `/api/v1/passages/${passage.id}/audio`);
    expect(ready.status).toBe(200);
    const key = /^\/audio\/(flite-slt-[0-9a-f]{32})\.mp3$/.exec(ready.body.audio.url)![1];
    expect([...bucket.objects.keys()].sort()).toEqual([`audio/${key}.json`, `audio/${key}.mp3`]);
    const [after] = await server.database.db.select({ audioUrl: passages.audioUrl }).from(passages).where(eq(passages.id, passage.id));
    expect(after.audioUrl).toBe(ready.body.audio.url);
  });
});
