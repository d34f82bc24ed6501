/** Server configuration from the environment, validated once at start. */
import path from 'node:path';
import { z } from 'zod';
import { DataDirLockedError, lockHolder } from '../db/lock';
import { audioStoreConfig } from '../narration/audioStore';
import { englishVoiceFromEnv } from '../narration/voices';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_URL must start with postgres:// or postgresql://' })
    .optional(),
  CONTENT_DIR: z.string().min(1).default('./content'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('production'),
});

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  contentDir: string;
  logLevel: string;
  distDir: string;
  rootDir: string;
}

/** The repository's root: package.json, dist/, drizzle/. */
export const ROOT_DIR = path.resolve(import.meta.dirname, '../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  audioStoreConfig(env); // AUDIO_STORE and the S3 variables: a bad value stops every command at once
  englishVoiceFromEnv(env); // NARRATION_VOICE_EN: likewise
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    contentDir: path.resolve(e.CONTENT_DIR),
    logLevel: e.LOG_LEVEL,
    // DIST_DIR lets two servers of one checkout build and serve apart (parallel e2e runs).
    distDir: process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.join(ROOT_DIR, 'dist'),
    rootDir: ROOT_DIR,
  };
}

/**
 * The pid of a live server holding DATA_DIR's PGlite (its lock, DATA_DIR/lectern.lock, server/db/lock.ts), or
 * null. The admin CLI sends its commands to that server's admin socket.
 */
export function serverHoldingDataDir(dataDir: string): number | null {
  const holder = lockHolder(dataDir);
  return holder?.purpose === 'server' ? holder.pid : null;
}

/**
 * For a CLI about to open the database: when it is PGlite in DATA_DIR and another live process holds its lock
 * (server/db/lock.ts), print who and what to do on stderr and exit 1, before doing any work. `meanwhile` ends the
 * message: what a running server does instead of this command. openDatabase takes the lock itself; this only
 * fails sooner.
 */
export function exitIfServerHoldsDatabase(config: ServerConfig, meanwhile: string): void {
  if (config.databaseUrl) return;
  const holder = lockHolder(config.dataDir);
  if (!holder) return;
  exitDataDirLocked(new DataDirLockedError(config.dataDir, holder), holder.purpose === 'server' ? meanwhile : undefined);
}

/** Print a DataDirLockedError's message (and `meanwhile`) on stderr and exit 1; rethrow any other error. */
export function exitDataDirLocked(error: unknown, meanwhile?: string): never {
  if (!(error instanceof DataDirLockedError)) throw error;
  console.error(`${error.message}${meanwhile ? `\n(${meanwhile}.)` : ''}`);
  process.exit(1);
}
