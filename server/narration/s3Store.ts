/**
 * Narration audio in an S3-compatible object store: `AUDIO_STORE=s3://bucket/prefix`.
 *
 *  - `S3AudioStore` implements the `AudioStore` port (storage.ts) with PutObject, GetObject (with `Range`),
 *    HeadObject and HeadBucket. Objects are immutable (a key names its content), so an object's size, once seen,
 *    is kept in memory and later `stat` calls cost no request.
 *  - `/audio/{key}.mp3` is still served by this server (http.ts): the GetObject body is streamed through, with the
 *    same ranges, ETag and caching as from disk (docs/decisions.md says why proxied, not presigned redirects).
 *  - A store that cannot be reached or refuses us is an `AudioStoreUnavailableError`: 503 with
 *    `{errors:[{code:'audio_store_unavailable', message}]}`. A missing object is `null` (404), as on disk.
 *  - `audioStoreFromEnv` (audioStore.ts) chooses the store: the disk (`DATA_DIR/audio`) unless AUDIO_STORE is set.
 */
// Types only: the SDK itself (about 0.35 s of CPU to load) is imported by `loadS3Sdk`, when an S3 store is made, so
// a server on disk never loads it (also in the esbuild bundle of `npm start`, which hoists static package imports).
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import { HttpError } from '../kit/errors';
import { AUDIO_NAME_RE, type AudioStore, type ByteRange, type StoredObject } from './storage';

/** Seconds a client is asked to wait after a 503 from the audio store. */
export const AUDIO_STORE_RETRY_AFTER_S = 5;
export const AUDIO_STORE_UNAVAILABLE = 'The audio store is unavailable. Try again shortly.';

/**
 * The audio store could not be reached, or refused the request (credentials, permissions, a missing bucket). Its
 * API answer (`errors`) is the same for every cause; `message` says what failed, for the log and the readiness check.
 */
export class AudioStoreUnavailableError extends HttpError {
  readonly retryAfter = AUDIO_STORE_RETRY_AFTER_S;
  constructor(
    readonly operation: string,
    location: string,
    cause: unknown,
  ) {
    super(503, [{ code: 'audio_store_unavailable', message: AUDIO_STORE_UNAVAILABLE }]);
    const e = cause as (SdkError & { message?: string }) | null;
    const status = e?.$metadata?.httpStatusCode;
    this.name = 'AudioStoreUnavailableError';
    this.message = `${operation} on ${location} failed: ${e?.name ?? 'Error'}${status ? ` (HTTP ${status})` : ''}${e?.message && e.message !== e.name ? `: ${e.message}` : ''}`;
    this.cause = cause;
  }
}

/** Where objects go: a bucket, and a key prefix without leading or trailing slashes ('' for the bucket's root). */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/** `@aws-sdk/client-s3`, loaded on first use. */
export type S3Sdk = typeof import('@aws-sdk/client-s3');
let sdkModule: Promise<S3Sdk> | undefined;
export function loadS3Sdk(): Promise<S3Sdk> {
  sdkModule ??= import('@aws-sdk/client-s3');
  return sdkModule;
}

export interface S3AudioStoreOptions extends S3Location {
  /** The SDK module (`await loadS3Sdk()`). */
  sdk: S3Sdk;
  /** The client; by default one made from `clientConfig`. */
  client?: S3Client;
  clientConfig?: S3ClientConfig;
  logger?: Logger;
}

/** Sizes kept in memory (objects never change); past it the map starts over. Not in the spec. @default 50000 */
export const S3_SIZE_CACHE_ENTRIES = 50_000;

interface SdkError {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** A missing object (not a missing bucket: that is a misconfiguration, so the store is unavailable). */
function isMissingObject(error: unknown): boolean {
  const e = error as SdkError | null;
  if (!e || typeof e !== 'object') return false;
  if (e.name === 'NoSuchBucket' || e.Code === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

/** A stream of `length` bytes from `skip` bytes into its input. */
function byteWindow(skip: number, length: number): TransformStream<Uint8Array, Uint8Array> {
  let toSkip = skip;
  let left = length;
  return new TransformStream({
    transform(chunk, controller) {
      let part = chunk;
      if (toSkip > 0) {
        const n = Math.min(toSkip, part.length);
        part = part.subarray(n);
        toSkip -= n;
      }
      if (left > 0 && part.length > 0) {
        const out = part.subarray(0, left);
        left -= out.length;
        controller.enqueue(out);
      }
      if (left === 0) controller.terminate();
    },
  });
}

export class S3AudioStore implements AudioStore {
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  private readonly sizes = new Map<string, number>();
  private readonly logger?: Logger;
  private readonly sdk: S3Sdk;

  constructor(options: S3AudioStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.sdk = options.sdk;
    this.client = options.client ?? new options.sdk.S3Client(options.clientConfig ?? {});
    this.logger = options.logger;
  }

  /** `s3://bucket/prefix`, for messages. */
  get location(): string {
    return `s3://${this.bucket}${this.prefix ? `/${this.prefix}` : ''}`;
  }

  /** The object key of an audio file name. */
  key(name: string): string {
    if (!AUDIO_NAME_RE.test(name) || name.includes('..')) throw new Error(`Bad audio object name: ${name}`);
    return this.prefix ? `${this.prefix}/${name}` : name;
  }

  private unavailable(operation: string, name: string | null, cause: unknown): AudioStoreUnavailableError {
    const error = new AudioStoreUnavailableError(operation, name ? `${this.location}/${name}` : this.location, cause);
    this.logger?.warn({ operation, object: name }, error.message);
    return error;
  }

  private remember(name: string, size: number): void {
    if (this.sizes.size >= S3_SIZE_CACHE_ENTRIES) this.sizes.clear();
    this.sizes.set(name, size);
  }

  async put(name: string, bytes: Uint8Array): Promise<void> {
    const Key = this.key(name);
    try {
      // No If-None-Match: several S3-compatible servers reject or ignore conditional writes. The last writer of a key
      // wins, as with FsAudioStore's rename (docs/narration.md, "Audio in an object store", on racing writers).
      await this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: name.endsWith('.mp3') ? 'audio/mpeg' : 'application/json',
        }),
      );
    } catch (error) {
      throw this.unavailable('PutObject', name, error);
    }
    this.remember(name, bytes.length);
  }

  async stat(name: string): Promise<number | null> {
    const known = this.sizes.get(name);
    if (known !== undefined) return known;
    const Key = this.key(name);
    let size: number | undefined;
    try {
      size = (await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key }))).ContentLength;
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw this.unavailable('HeadObject', name, error);
    }
    if (typeof size !== 'number') throw this.unavailable('HeadObject', name, new Error('HeadObject answered without a Content-Length'));
    this.remember(name, size);
    return size;
  }

  async has(name: string): Promise<boolean> {
    return (await this.stat(name)) !== null;
  }

  async get(name: string, range?: ByteRange): Promise<StoredObject | null> {
    const Key = this.key(name);
    let answer;
    try {
      answer = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw this.unavailable('GetObject', name, error);
    }
    // What came back: `bytes 0-9/1234` for a range, else the whole object (a server may ignore Range).
    const got = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(answer.ContentRange ?? '');
    const total = got ? Number(got[3]) : answer.ContentLength;
    const from = got ? Number(got[1]) : 0;
    const to = got ? Number(got[2]) : (total ?? 0) - 1;
    if (!answer.Body || typeof total !== 'number' || !Number.isFinite(total)) {
      throw this.unavailable('GetObject', name, new Error('GetObject answered without a body or a size'));
    }
    this.remember(name, total);
    const body = answer.Body.transformToWebStream() as ReadableStream<Uint8Array>;
    if (!range || (from === range.start && to === range.end)) return { size: total, body };
    // More than was asked for (s3rver answers `bytes=0-0` with the whole object; some servers ignore Range): cut
    // it down, so the answer's Content-Length holds. Less than was asked for is an error.
    if (from > range.start || to < range.end) {
      await body.cancel();
      throw this.unavailable('GetObject', name, new Error(`GetObject answered bytes ${from}-${to} for ${range.start}-${range.end}`));
    }
    return { size: total, body: body.pipeThrough(byteWindow(range.start - from, range.end - range.start + 1)) };
  }

  /** Readiness (GET /api/v1/health): the bucket exists and these credentials may use it. */
  async ready(): Promise<void> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw this.unavailable('HeadBucket', null, error);
    }
  }
}
