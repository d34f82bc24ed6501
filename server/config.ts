/** Server configuration from the environment, validated once at start. */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { audioStoreConfig } from './narration/audioStore';

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

export const ROOT_DIR = path.resolve(import.meta.dirname, '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  audioStoreConfig(env); // AUDIO_STORE and the S3 variables: a bad value stops every command at once
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
 * The pid of a live server holding DATA_DIR's PGlite (server/bin/start.ts writes DATA_DIR/server.pid), or null.
 * PGlite allows one process, so the CLIs that open DATA_DIR check this first.
 */
export function serverHoldingDataDir(dataDir: string): number | null {
  const lock = path.join(dataDir, 'server.pid');
  if (!fs.existsSync(lock)) return null;
  const pid = Number(fs.readFileSync(lock, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

/**
 * For a CLI about to open the database: when it is PGlite in DATA_DIR and a live server holds it, say so on stderr
 * and exit 1. `meanwhile` ends the message: what the running server does instead of this command.
 */
export function exitIfServerHoldsDatabase(config: ServerConfig, meanwhile: string): void {
  if (config.databaseUrl) return;
  const pid = serverHoldingDataDir(config.dataDir);
  if (!pid) return;
  console.error(
    `The server (pid ${pid}) has the embedded database in ${config.dataDir} open. PGlite allows one process at a time:\n` +
      `stop the server and run this again (${meanwhile}).`,
  );
  process.exit(1);
}
