/**
 * Health for load balancers and orchestrators (docs/operations.md, "Shutdown and health"):
 *
 *   GET /api/v1/health        liveness: 200 {"status":"ok"} while the process serves HTTP at all.
 *   GET /api/v1/health/ready  readiness: 200 {"status":"ready","checks":{"database":"ok","audio":"ok"}} when the
 *                             database answers `select 1` and the audio store is usable; otherwise 503 with the
 *                             API's error shape, one error per failed check (`database_unavailable`,
 *                             `audio_store_unavailable`), or `shutting_down` once SIGTERM has arrived, so a balancer
 *                             stops sending requests while those in flight finish.
 *
 * Both are `Cache-Control: no-store`, take no parameters and need no session.
 */
import type { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { AudioStore } from '../narration/storage';
import type { Env } from '../kit/env';
import { NO_STORE } from '../kit/headers';

/** How long one readiness check may take before it counts as failed. Not in the spec. @default 2000 */
export const HEALTH_CHECK_TIMEOUT_MS = 2000;

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadySchema = z.object({
  status: z.literal('ready'),
  checks: z.object({ database: z.literal('ok'), audio: z.literal('ok') }),
});

export interface Readiness {
  database: Pick<Database, 'db'>;
  /** The narration store (server/narration/storage.ts); null when narration is off. */
  audio: () => Pick<AudioStore, 'ready'> | null;
  /** True once shutdown has begun. */
  draining: () => boolean;
}

/** Run `check` with a deadline; resolves to null when it passed, or to what went wrong. */
async function timed(check: () => Promise<unknown>, what: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_CHECK_TIMEOUT_MS} ms`)), HEALTH_CHECK_TIMEOUT_MS);
      }),
    ]);
    return null;
  } catch (error) {
    return `${what}: ${(error as Error).message || String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}


export function registerHealth(api: Hono<Env>, readiness: Readiness | undefined): void {
  api.get('/health', (c) => c.json({ status: 'ok' as const }, 200, NO_STORE));

  api.get('/health/ready', async (c) => {
    if (!readiness) return c.json({ errors: [{ code: 'not_ready', message: 'This server has no readiness checks.' }] }, 503, NO_STORE);
    if (readiness.draining()) {
      return c.json({ errors: [{ code: 'shutting_down', message: 'The server is shutting down; requests in flight are finishing.' }] }, 503, NO_STORE);
    }
    const store = readiness.audio();
    const [database, audio] = await Promise.all([
      timed(() => readiness.database.db.execute(sql`select 1`), 'the database did not answer select 1'),
      store?.ready ? timed(() => store.ready!(), 'the audio store is not usable') : Promise.resolve(null),
    ]);
    const errors = [
      ...(database ? [{ code: 'database_unavailable', message: database }] : []),
      ...(audio ? [{ code: 'audio_store_unavailable', message: audio }] : []),
    ];
    if (errors.length) return c.json({ errors }, 503, NO_STORE);
    return c.json({ status: 'ready' as const, checks: { database: 'ok' as const, audio: 'ok' as const } }, 200, NO_STORE);
  });
}
