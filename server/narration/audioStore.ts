/**
 * Which store keeps narration audio, from the environment:
 *
 *  - unset `AUDIO_STORE`: `FsAudioStore` in `DATA_DIR/audio` (the default);
 *  - `AUDIO_STORE=s3://bucket/prefix`: `S3AudioStore` (s3Store.ts), with `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
 *    `AWS_SECRET_ACCESS_KEY` (`AWS_SESSION_TOKEN`), `S3_ENDPOINT` and `S3_FORCE_PATH_STYLE`.
 *
 * `audioStoreConfig` validates the variables with zod (loadConfig calls it, so a bad value stops a command at once,
 * naming the variable). The AWS SDK is loaded only when an S3 store is made (loadS3Sdk).
 */
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import { z } from 'zod';
import { FsAudioStore, type AudioStore } from './storage';
import { loadS3Sdk, S3AudioStore, type S3Location } from './s3Store';

/** S3 bucket names: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const AUDIO_STORE_HELP = 's3://bucket or s3://bucket/prefix (unset keeps audio in DATA_DIR/audio)';

const AudioStoreEnvSchema = z
  .object({
    AUDIO_STORE: z.string().trim().optional(),
    S3_ENDPOINT: z.string().trim().optional(),
    S3_FORCE_PATH_STYLE: z.string().trim().optional(),
    AWS_REGION: z.string().trim().optional(),
    AWS_ACCESS_KEY_ID: z.string().optional(),
    AWS_SECRET_ACCESS_KEY: z.string().optional(),
    AWS_SESSION_TOKEN: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    const raw = env.AUDIO_STORE;
    if (!raw) return;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
    if (!m) return issue('AUDIO_STORE', `must be ${AUDIO_STORE_HELP} (got '${raw}')`);
    if (!BUCKET_RE.test(m[1]) || m[1].includes('..')) {
      issue('AUDIO_STORE', `names a bucket S3 does not allow: '${m[1]}' (3-63 lowercase letters, digits, dots and hyphens)`);
    }
    const prefix = (m[2] ?? '').replace(/\/+$/, '');
    if (prefix && (prefix.split('/').some((part) => part === '' || part === '.' || part === '..') || /[\\\s]/.test(prefix))) {
      issue('AUDIO_STORE', `has a prefix that is not a plain path: '${m[2]}'`);
    }
    if (env.S3_ENDPOINT) {
      let ok = false;
      try {
        ok = ['http:', 'https:'].includes(new URL(env.S3_ENDPOINT).protocol);
      } catch {
        ok = false;
      }
      if (!ok) issue('S3_ENDPOINT', `must be an http:// or https:// address (got '${env.S3_ENDPOINT}')`);
    }
    if (env.S3_FORCE_PATH_STYLE && !['true', 'false', '1', '0'].includes(env.S3_FORCE_PATH_STYLE)) {
      issue('S3_FORCE_PATH_STYLE', `must be true or false (got '${env.S3_FORCE_PATH_STYLE}')`);
    }
    if (!env.AWS_ACCESS_KEY_ID !== !env.AWS_SECRET_ACCESS_KEY) {
      const [missing, set] = env.AWS_ACCESS_KEY_ID ? ['AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID'] : ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
      issue(missing, `must be set when ${set} is (or neither, for the SDK's own credential chain)`);
    }
  });

/** Which audio store the environment asks for. @default disk */
export type AudioStoreConfig = { kind: 'disk' } | ({ kind: 's3'; clientConfig: S3ClientConfig } & S3Location);

/** The region when AWS_REGION is unset (S3-compatible servers mostly ignore it). @default us-east-1 */
export const DEFAULT_S3_REGION = 'us-east-1';

/**
 * Parse AUDIO_STORE and the S3 variables. Throws `Invalid environment:` naming each bad variable. Credentials come
 * from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) when set, else from the SDK's own chain
 * (shared config files, instance roles). S3_FORCE_PATH_STYLE defaults to true when S3_ENDPOINT is set (most
 * S3-compatible servers want it), false on AWS.
 */
export function audioStoreConfig(env: NodeJS.ProcessEnv = process.env): AudioStoreConfig {
  const parsed = AudioStoreEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const e = parsed.data;
  if (!e.AUDIO_STORE) return { kind: 'disk' };
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(e.AUDIO_STORE)!;
  const endpoint = e.S3_ENDPOINT || undefined;
  const clientConfig: S3ClientConfig = {
    region: e.AWS_REGION || DEFAULT_S3_REGION,
    endpoint,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ? ['true', '1'].includes(e.S3_FORCE_PATH_STYLE) : Boolean(endpoint),
    // Checksums only where S3 requires them: the SDK's default (since 3.729) adds CRC32 trailers that several
    // S3-compatible servers reject or store corrupted (s3rver among them).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable store fails in seconds (503), not after the OS's TCP timeout.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15_000, throwOnRequestTimeout: true },
    maxAttempts: 3,
  };
  if (e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY) {
    clientConfig.credentials = { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY, sessionToken: e.AWS_SESSION_TOKEN || undefined };
  }
  return { kind: 's3', bucket: m[1], prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, ''), clientConfig };
}

/**
 * The audio store the environment asks for: `S3AudioStore` for AUDIO_STORE=s3://…, else `FsAudioStore(diskDir)`
 * (DATA_DIR/audio, or a temporary directory for an in-memory database).
 */
export async function audioStoreFromEnv(env: NodeJS.ProcessEnv, diskDir: string, logger?: Logger): Promise<AudioStore> {
  const config = audioStoreConfig(env);
  if (config.kind === 'disk') return new FsAudioStore(diskDir);
  const sdk = await loadS3Sdk();
  return new S3AudioStore({ sdk, bucket: config.bucket, prefix: config.prefix, clientConfig: config.clientConfig, logger });
}

/** Where the store keeps audio, for messages: a directory or `s3://bucket/prefix`. */
export function audioStoreLocation(store: AudioStore): string {
  if (store instanceof S3AudioStore) return store.location;
  if (store instanceof FsAudioStore) return store.dir;
  return 'the audio store';
}
