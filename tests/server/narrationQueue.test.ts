/**
 * The durable narration queue (server/narration/jobs.ts, the `narration_jobs` table) and the NarrationService on it:
 * claims in priority order with a lease; a crashed worker's job comes back when its lease runs out; failures back
 * off and are given up after the maximum; stop() gives leases back; two services on one database narrate every
 * passage once between them; a request does not take a job another server holds. On PGlite, and on a real
 * PostgreSQL (SKIP LOCKED between two connections, and two services on two connection pools).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { silentLogger, startFixtureServer } from './harness';
import { postgresAvailable, startPgCluster, type PgCluster } from './pg-cluster';
import type { RunningServer } from '../../server/server';
import { loadContent } from '../../server/server';
import { openDatabase, type Database } from '../../server/db/client';
import { narrationJobs, passages } from '../../server/db/schema';
import { ContentStore } from '../../server/content/store';
import { NarrationJobs, PRIORITY_BACKGROUND, PRIORITY_NEXT, PRIORITY_REQUESTED } from '../../server/narration/jobs';
import { NarrationService, type NarrationSettings } from '../../server/narration/queue';
import { FsAudioStore, type AudioStore } from '../../server/narration/storage';
import { narrationKey } from '../../server/narration/pipeline';
import { narrationVoice } from '../../server/narration/voices';
import { passagePlainText } from '../../src/domain/sanitize';

/** One English title of `count` short passages, nothing else. */
function tinyLibrary(count: number, slug = 'tiny-tales'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-tiny-'));
  const pub = path.join(dir, slug);
  fs.mkdirSync(path.join(pub, 'images'), { recursive: true });
  fs.writeFileSync(path.join(pub, 'images/cover.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 4"><rect width="3" height="4"/></svg>');
  fs.writeFileSync(
    path.join(pub, 'publication.yaml'),
    `slug: ${slug}\nversion: 1\ntitle: Tiny Tales\nauthor: Ida Small\ncreatedAt: 2026-04-01\ncover: images/cover.svg\ndefaultReader:\n  left: en:ORIGINAL\n`,
  );
  const words = ['cat', 'dog', 'hen', 'fox', 'owl', 'bee', 'elk', 'ram', 'yak', 'ant'];
  fs.writeFileSync(
    path.join(pub, 'en.ORIGINAL.md'),
    Array.from({ length: count }, (_, i) => `The ${words[i % words.length]} ran ${i + 1} times.`).join('\n\n---\n\n'),
  );
  return dir;
}

/** Poll `check` until it returns true (or throw after `timeoutMs`). No fixed sleeps in assertions. */
async function until(check: () => Promise<boolean> | boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function jobRows(database: Database) {
  return database.db.select().from(narrationJobs).orderBy(narrationJobs.passageId);
}

async function passageIds(database: Database): Promise<number[]> {
  return (await database.db.select({ id: passages.id }).from(passages).orderBy(passages.id)).map((r) => r.id);
}

/** The narration key of an English passage's text, as the service computes it. */
async function keyOf(database: Database, passageId: number): Promise<string> {
  const [row] = await database.db.select({ text: passages.text }).from(passages).where(eq(passages.id, passageId));
  return narrationKey(passagePlainText(row.text), narrationVoice('en')!.keyVoice);
}

/** Age a job's lease (or its backoff) into the past, as if the time had passed. */
async function expire(database: Database, passageId: number, column: 'lease_until' | 'run_after') {
  await database.db.execute(sql`update narration_jobs set ${sql.raw(column)} = now() - interval '1 second' where passage_id = ${passageId}`);
}

function service(database: Database, audio: AudioStore, settings: Partial<NarrationSettings> = {}, workerId?: string) {
  return new NarrationService({
    database,
    store: new ContentStore(database),
    audio,
    logger: silentLogger(),
    workerId,
    settings: { concurrency: 1, waitMs: 0, priorityWorkers: 1, pollMs: 50, ...settings },
  });
}

const tempAudio = () => new FsAudioStore(fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-queue-audio-')));

describe('the jobs table (PGlite)', () => {
  let server: RunningServer;
  let ids: number[];
  beforeAll(async () => {
    server = await startFixtureServer({ contentDir: tinyLibrary(6) });
    ids = await passageIds(server.database);
  });
  afterAll(() => server?.stop());
  const clear = () => server.database.db.delete(narrationJobs);

  it('claims by priority, then rank; a leased job is not claimed twice', async () => {
    await clear();
    const a = new NarrationJobs(server.database, 'worker-a');
    const b = new NarrationJobs(server.database, 'worker-b');
    await a.enqueue([
      { passageId: ids[0], key: 'k0', rank: 1, priority: PRIORITY_BACKGROUND },
      { passageId: ids[1], key: 'k1', rank: 2, priority: PRIORITY_BACKGROUND },
      { passageId: ids[2], key: 'k2', rank: 9, priority: PRIORITY_NEXT },
      { passageId: ids[3], key: 'k3', rank: 9, priority: PRIORITY_REQUESTED },
    ]);
    const order = [await a.claimNext(), await b.claimNext(), await a.claimNext(), await b.claimNext(), await a.claimNext()];
    expect(order.map((j) => j?.passageId ?? null)).toEqual([ids[3], ids[2], ids[0], ids[1], null]);
    expect(order[0]).toMatchObject({ key: 'k3', attempts: 1, priority: PRIORITY_REQUESTED });
    const rows = await jobRows(server.database);
    expect(rows.map((r) => r.leasedBy)).toEqual(['worker-a', 'worker-b', 'worker-b', 'worker-a']);
    expect(rows.every((r) => r.leaseUntil!.getTime() > Date.now() - 60_000)).toBe(true);
  });

  it("takes a crashed worker's job again once its lease has run out", async () => {
    await clear();
    const crashed = new NarrationJobs(server.database, 'crashed');
    const alive = new NarrationJobs(server.database, 'alive');
    await crashed.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: 0 }]);
    expect((await crashed.claimNext())!.passageId).toBe(ids[0]);
    expect(await alive.claimNext()).toBeNull();
    expect(await alive.claim(ids[0])).toBeNull();
    await expire(server.database, ids[0], 'lease_until');
    const again = await alive.claimNext();
    expect(again).toMatchObject({ passageId: ids[0], attempts: 2 });
    // The crashed worker can no longer fail or renew it.
    expect(await crashed.fail(ids[0], 'k0', 'late')).toBeNull();
    expect(await crashed.renew()).toBe(0);
    expect(await alive.renew()).toBe(1);
    expect((await jobRows(server.database))[0].leasedBy).toBe('alive');
  });

  it('backs off after a failure, gives up after the maximum, and a scan starts it over', async () => {
    await clear();
    const jobs = new NarrationJobs(server.database, 'w', { maxAttempts: 2, retryBaseMs: 60_000 });
    await jobs.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: 0 }]);
    await jobs.claimNext();
    expect(await jobs.fail(ids[0], 'k0', 'espeak broke')).toBe('retry');
    let [row] = await jobRows(server.database);
    expect(row).toMatchObject({ attempts: 1, leaseUntil: null, leasedBy: null, lastError: 'espeak broke' });
    expect(row.runAfter.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(await jobs.claimNext()).toBeNull(); // backing off
    await expire(server.database, ids[0], 'run_after');
    expect(await jobs.claimNext()).toMatchObject({ passageId: ids[0], attempts: 2 });
    expect(await jobs.fail(ids[0], 'k0', 'again')).toBe('given-up');
    await expire(server.database, ids[0], 'run_after');
    expect(await jobs.claimNext()).toBeNull(); // given up
    expect(await jobs.pending()).toBe(0);
    // Queueing again for the next page does not revive it; a scan does.
    await jobs.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: PRIORITY_NEXT }]);
    expect(await jobs.claimNext()).toBeNull();
    await jobs.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: 0 }], { retryGivenUp: true });
    [row] = await jobRows(server.database);
    expect(row).toMatchObject({ attempts: 0, lastError: null, priority: PRIORITY_NEXT });
    expect(await jobs.claimNext()).toMatchObject({ passageId: ids[0], attempts: 1 });
  });

  it('a reader’s claim ignores the backoff but not another worker’s live lease', async () => {
    await clear();
    const jobs = new NarrationJobs(server.database, 'w', { retryBaseMs: 60_000 });
    await jobs.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: 0 }]);
    await jobs.claimNext();
    await jobs.fail(ids[0], 'k0', 'once');
    expect(await jobs.claimNext()).toBeNull();
    expect(await jobs.claim(ids[0])).toMatchObject({ passageId: ids[0], attempts: 2, priority: PRIORITY_REQUESTED });
    expect(await new NarrationJobs(server.database, 'other').claim(ids[0])).toBeNull();
  });

  it('release gives the jobs back at once, and the attempt does not count', async () => {
    await clear();
    const stopping = new NarrationJobs(server.database, 'stopping');
    const other = new NarrationJobs(server.database, 'other');
    await stopping.enqueue([{ passageId: ids[0], key: 'k0', rank: 1, priority: 0 }]);
    await stopping.claimNext();
    expect(await other.claimNext()).toBeNull();
    expect(await stopping.release()).toBe(1);
    expect((await jobRows(server.database))[0]).toMatchObject({ attempts: 0, leaseUntil: null, leasedBy: null });
    expect(await other.claimNext()).toMatchObject({ passageId: ids[0], attempts: 1 });
  });

  it('a new text (key) starts its job over; the same key only raises the priority', async () => {
    await clear();
    const jobs = new NarrationJobs(server.database, 'w');
    await jobs.enqueue([{ passageId: ids[0], key: 'old', rank: 1, priority: PRIORITY_NEXT }]);
    await jobs.claimNext();
    await jobs.enqueue([{ passageId: ids[0], key: 'old', rank: 1, priority: PRIORITY_BACKGROUND }]);
    expect((await jobRows(server.database))[0]).toMatchObject({ key: 'old', priority: PRIORITY_NEXT, attempts: 1, leasedBy: 'w' });
    await jobs.enqueue([{ passageId: ids[0], key: 'new', rank: 1, priority: PRIORITY_BACKGROUND }]);
    expect((await jobRows(server.database))[0]).toMatchObject({ key: 'new', priority: PRIORITY_BACKGROUND, attempts: 0, leasedBy: null, leaseUntil: null });
    // Finishing the old text leaves the new text's job.
    await jobs.complete(ids[0], ['old']);
    expect(await jobRows(server.database)).toHaveLength(1);
    await jobs.complete(ids[0], ['old', 'new']);
    expect(await jobRows(server.database)).toHaveLength(0);
  });

  it('holds back a job whose text another worker is narrating for another passage', async () => {
    await clear();
    const a = new NarrationJobs(server.database, 'a');
    const b = new NarrationJobs(server.database, 'b');
    await a.enqueue([
      { passageId: ids[0], key: 'same', rank: 1, priority: 0 },
      { passageId: ids[1], key: 'same', rank: 2, priority: 0 },
      { passageId: ids[2], key: 'other', rank: 3, priority: 0 },
    ]);
    expect((await a.claimNext())!.passageId).toBe(ids[0]);
    expect((await b.claimNext())!.passageId).toBe(ids[2]);
    expect(await b.claimNext()).toBeNull();
    await a.complete(ids[0], ['same']);
    expect((await b.claimNext())!.passageId).toBe(ids[1]);
  });

  it('goes with its passage', async () => {
    await clear();
    const jobs = new NarrationJobs(server.database, 'w');
    await jobs.enqueue([{ passageId: ids[5], key: 'k5', rank: 6, priority: 0 }]);
    await server.database.db.delete(passages).where(eq(passages.id, ids[5]));
    expect(await jobRows(server.database)).toHaveLength(0);
  });
});

describe('the narration service on the queue (PGlite)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer({ contentDir: tinyLibrary(6) });
  });
  afterAll(() => server?.stop());

  /** Forget every narration, so the next test narrates the library again. */
  async function reset() {
    await server.database.db.delete(narrationJobs);
    await server.database.db.update(passages).set({ audioUrl: null, speechMarks: null, audioDurationMs: null });
  }

  async function narrated(): Promise<number> {
    const rows = await server.database.db.select({ url: passages.audioUrl }).from(passages);
    return rows.filter((r) => r.url !== null).length;
  }

  it('two services on one database narrate every passage once between them', async () => {
    await reset();
    const audio = tempAudio();
    const a = service(server.database, audio, {}, 'server-a');
    const b = service(server.database, audio, {}, 'server-b');
    try {
      await Promise.all([a.scan(), b.scan()]);
      await Promise.all([a.idle(), b.idle()]);
      const perKey = new Map<string, number>();
      for (const s of [a, b]) for (const [k, n] of s.stats.perKey) perKey.set(k, (perKey.get(k) ?? 0) + n);
      expect(perKey.size).toBe(6);
      expect([...perKey.values()].every((n) => n === 1)).toBe(true);
      expect(a.stats.failed + b.stats.failed).toBe(0);
      expect(a.stats.persisted + b.stats.persisted).toBe(6);
      expect(await narrated()).toBe(6);
      expect(await jobRows(server.database)).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 120_000);

  it("narrates a crashed server's passage once its lease runs out, and not before", async () => {
    await reset();
    const [first] = await passageIds(server.database);
    const s = service(server.database, tempAudio(), {}, 'survivor');
    try {
      // Another server took the first passage and died holding it (its lease has an hour left).
      await server.database.db
        .insert(narrationJobs)
        .values({ passageId: first, key: await keyOf(server.database, first), attempts: 1, leasedBy: 'crashed', leaseUntil: sql`now() + interval '1 hour'` });
      await s.scan();
      await until(async () => (await jobRows(server.database)).length === 1 && (await narrated()) === 5, 60_000, 'the other passages');
      const [held] = await jobRows(server.database);
      expect(held).toMatchObject({ passageId: first, leasedBy: 'crashed' });
      expect(s.stats.synthesized).toBe(5);

      await expire(server.database, first, 'lease_until');
      await s.idle();
      expect(await narrated()).toBe(6);
      expect(await jobRows(server.database)).toEqual([]);
      expect(s.stats.synthesized).toBe(6);
    } finally {
      await s.stop();
    }
  }, 120_000);

  it('a request does not take a passage another server holds; it narrates it once the lease runs out', async () => {
    await reset();
    const [first] = await passageIds(server.database);
    const s = service(server.database, tempAudio(), { concurrency: 0 }, 'asked');
    try {
      await server.database.db.insert(narrationJobs).values({ passageId: first, key: await keyOf(server.database, first), leasedBy: 'busy-elsewhere', leaseUntil: sql`now() + interval '1 hour'` });
      expect(await s.audioFor(first)).toEqual({ kind: 'generating', passageId: first });
      expect(s.stats.synthesized).toBe(0);
      expect((await jobRows(server.database))[0]).toMatchObject({ leasedBy: 'busy-elsewhere', priority: PRIORITY_REQUESTED });

      await expire(server.database, first, 'lease_until');
      let answer = await s.audioFor(first);
      await until(async () => {
        answer = await s.audioFor(first);
        return answer.kind === 'ready';
      }, 60_000, 'the requested passage');
      expect(s.stats.synthesized).toBe(1);
      expect(await jobRows(server.database)).toEqual([]);
    } finally {
      await s.stop();
    }
  }, 120_000);

  it('stop() gives a leased, unfinished job back so another server takes it at once', async () => {
    await reset();
    const a = service(server.database, tempAudio(), {}, 'stopping');
    await a.scan();
    await until(async () => (await jobRows(server.database)).some((r) => r.leasedBy === 'stopping'), 60_000, 'a lease');
    // Two callers (the SIGTERM handler and the server's own stop): the second waits for the same work.
    const first = a.stop();
    await a.stop();
    // Every unfinished job is free again, and the attempt it was on does not count.
    const rows = await jobRows(server.database);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => [r.leasedBy, r.leaseUntil, r.attempts])).toEqual(rows.map(() => [null, null, 0]));
    const b = new NarrationJobs(server.database, 'taker');
    expect(await b.claimNext()).toMatchObject({ passageId: rows[0].passageId, attempts: 1 });
    await b.release();
    await first;
    // A stopped service narrates nothing more, even on request.
    expect(await a.audioFor(rows[0].passageId)).toEqual({ kind: 'generating', passageId: rows[0].passageId });
    expect(await jobRows(server.database)).toHaveLength(rows.length);
  }, 120_000);

  it('retries a failed narration with backoff and gives up after the maximum', async () => {
    await reset();
    const store = tempAudio();
    let puts = 0;
    // A double at the audio-store port: every write fails.
    const broken: AudioStore = {
      put: async () => {
        puts++;
        throw new Error('disk full');
      },
      get: (name, range) => store.get(name, range),
      stat: (name) => store.stat(name),
      has: (name) => store.has(name),
    } as AudioStore;
    const [first] = await passageIds(server.database);
    await server.database.db.delete(passages).where(sql`${passages.id} <> ${first}`);
    const s = service(server.database, broken, { maxAttempts: 3, retryBaseMs: 1, retryMaxMs: 5 }, 'unlucky');
    try {
      await s.scan();
      await s.idle();
      expect(s.stats.failed).toBe(3);
      expect(puts).toBe(3);
      const [row] = await jobRows(server.database);
      expect(row).toMatchObject({ passageId: first, attempts: 3, leasedBy: null, lastError: 'disk full' });
      expect(await narrated()).toBe(0);
    } finally {
      await s.stop();
    }
  }, 120_000);
});

describe.runIf(postgresAvailable())('the narration queue on a real PostgreSQL', () => {
  let cluster: PgCluster;
  let a: Database;
  let b: Database;
  let ids: number[];
  beforeAll(async () => {
    cluster = startPgCluster();
    a = await openDatabase({ databaseUrl: cluster.url });
    b = await openDatabase({ databaseUrl: cluster.url });
    await loadContent(a, tinyLibrary(6, 'pg-tales'), silentLogger());
    ids = await passageIds(a);
  }, 90_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    cluster?.stop();
  });

  it('skips a job another connection has locked instead of waiting for it', async () => {
    await a.db.delete(narrationJobs);
    const jobsA = new NarrationJobs(a, 'a');
    await jobsA.enqueue(ids.slice(0, 3).map((id, i) => ({ passageId: id, key: `k${i}`, rank: i, priority: 0 })));
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query('select passage_id from narration_jobs where passage_id = $1 for update', [ids[0]]);
      const jobsB = new NarrationJobs(b, 'b');
      expect((await jobsB.claimNext())!.passageId).toBe(ids[1]);
      expect((await jobsB.claimNext())!.passageId).toBe(ids[2]);
      expect(await jobsB.claimNext()).toBeNull();
      await client.query('rollback');
      expect((await jobsB.claimNext())!.passageId).toBe(ids[0]);
    } finally {
      await client.end();
    }
  });

  it('two connection pools claiming at once never get the same job', async () => {
    await a.db.delete(narrationJobs);
    const jobsA = new NarrationJobs(a, 'a');
    const jobsB = new NarrationJobs(b, 'b');
    await jobsA.enqueue(ids.map((id, i) => ({ passageId: id, key: `k${i}`, rank: i, priority: 0 })));
    const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? jobsA : jobsB).claimNext()));
    const got = claims.filter((c) => c !== null).map((c) => c!.passageId);
    expect(new Set(got).size).toBe(got.length);
    expect(got.sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
  });

  it('two services on two pools narrate every passage once between them', async () => {
    await a.db.delete(narrationJobs);
    const audio = tempAudio();
    const sa = service(a, audio, {}, 'pg-a');
    const sb = service(b, audio, {}, 'pg-b');
    try {
      await Promise.all([sa.scan(), sb.scan()]);
      await Promise.all([sa.idle(), sb.idle()]);
      const perKey = new Map<string, number>();
      for (const s of [sa, sb]) for (const [k, n] of s.stats.perKey) perKey.set(k, (perKey.get(k) ?? 0) + n);
      expect(perKey.size).toBe(ids.length);
      expect([...perKey.values()].every((n) => n === 1)).toBe(true);
      expect(sa.stats.persisted + sb.stats.persisted).toBe(ids.length);
      const rows = await a.db.select({ url: passages.audioUrl }).from(passages);
      expect(rows.every((r) => r.url !== null)).toBe(true);
      expect(await jobRows(a)).toEqual([]);
    } finally {
      await sa.stop();
      await sb.stop();
    }
  }, 120_000);
});
