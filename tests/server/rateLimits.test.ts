/**
 * Rate limits counted in the database (server/auth/rateLimit.ts): the store's atomic counting, window ends and
 * sweeping on PGlite; what each rule does when its store fails (a double at the store port, and the real server
 * with its table gone); and, on a real PostgreSQL, one budget shared by two connection pools and by two servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getJson, silentLogger, startFixtureServer, writeFixtureLibrary } from './harness';
import { postgresAvailable, startPgCluster, type PgCluster } from './pg-cluster';
import { startServer, type RunningServer } from '../../server/server';
import { openDatabase, type Database } from '../../server/db/client';
import { rateLimits } from '../../server/db/schema';
import { DbRateLimitStore, RateLimiter, type RateLimitStore } from '../../server/auth/rateLimit';
import { CLASS_CODE_FAILURES_PER_IP } from '../../server/auth/limits';
import { HttpError } from '../../server/kit/errors';

const WINDOW = 15 * 60_000;

/** Every counter row, by key. */
async function counters(database: Database) {
  const rows = await database.db.select().from(rateLimits);
  return new Map(rows.map((r) => [r.key, r.count]));
}

/** End a key's window now, as if its time had passed. */
async function endWindow(database: Database, key: string) {
  await database.db.execute(sql`update rate_limits set reset_at = now() - interval '1 second' where key = ${key}`);
}

describe('the database store (PGlite)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer({ contentDir: writeFixtureLibrary(0), accounts: { env: { TRUST_PROXY: 'true' } } });
  });
  afterAll(() => server?.stop());

  it('counts concurrent hits exactly, one window per key', async () => {
    const store = new DbRateLimitStore(server.database);
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.increment('t:concurrent', WINDOW)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const read = await store.read('t:concurrent');
    expect(read!.count).toBe(40);
    expect(read!.resetInMs).toBeGreaterThan(0);
    expect(read!.resetInMs).toBeLessThanOrEqual(WINDOW);
    expect(await store.read('t:other')).toBeNull();
  });

  it('starts a new window once the old one has ended', async () => {
    const store = new DbRateLimitStore(server.database);
    await store.increment('t:ends', WINDOW);
    await store.increment('t:ends', WINDOW);
    await endWindow(server.database, 't:ends');
    expect(await store.read('t:ends')).toBeNull();
    expect((await store.increment('t:ends', WINDOW)).count).toBe(1);
  });

  it('limits after max hits and tells how long to wait; reset clears the key', async () => {
    const limiter = new RateLimiter('rule', { max: 3, windowMs: WINDOW }, new DbRateLimitStore(server.database));
    for (let i = 0; i < 3; i++) {
      expect(await limiter.blockedFor('k')).toBe(0);
      await limiter.hit('k');
    }
    const wait = await limiter.blockedFor('k');
    expect(wait).toBeGreaterThan(WINDOW - 60_000);
    expect(wait).toBeLessThanOrEqual(WINDOW);
    expect(await limiter.blockedFor('other')).toBe(0);
    await limiter.reset('k');
    expect(await limiter.blockedFor('k')).toBe(0);
  });

  it('keys rules apart, and stores a long key as its hash', async () => {
    const store = new DbRateLimitStore(server.database);
    const a = new RateLimiter('ruleA', { max: 1, windowMs: WINDOW }, store);
    const b = new RateLimiter('ruleB', { max: 1, windowMs: WINDOW }, store);
    const long = 'x'.repeat(5000);
    await a.hit(long);
    expect(await a.blockedFor(long)).toBeGreaterThan(0);
    expect(await b.blockedFor(long)).toBe(0);
    const keys = [...(await counters(server.database)).keys()].filter((k) => k.startsWith('ruleA:'));
    expect(keys).toEqual([expect.stringMatching(/^ruleA:sha256:[0-9a-f]{64}$/)]);
  });

  it('sweeps the windows that have ended, when a hit comes after the sweep interval', async () => {
    let now = 1_000_000;
    const store = new DbRateLimitStore(server.database, { sweepEveryMs: 60_000, now: () => now });
    await store.increment('t:sweep-old', WINDOW);
    await store.increment('t:sweep-live', WINDOW);
    await endWindow(server.database, 't:sweep-old');
    // Not due yet: the ended row stays.
    now += 59_000;
    await store.increment('t:sweep-live', WINDOW);
    expect((await counters(server.database)).has('t:sweep-old')).toBe(true);
    now += 2_000;
    await store.increment('t:sweep-live', WINDOW);
    const after = await counters(server.database);
    expect(after.has('t:sweep-old')).toBe(false);
    expect(after.get('t:sweep-live')).toBe(3);
    expect(await store.sweep()).toBe(0);
  });
});

describe('when the store fails (a double at the store port)', () => {
  const broken: RateLimitStore = {
    read: () => Promise.reject(new Error('connection refused')),
    increment: () => Promise.reject(new Error('connection refused')),
    remove: () => Promise.reject(new Error('connection refused')),
  };

  it('a closed rule refuses with 503 rate_limit_unavailable', async () => {
    const limiter = new RateLimiter('guess', { max: 10, windowMs: WINDOW, whenStoreFails: 'closed' }, broken);
    for (const attempt of [() => limiter.blockedFor('k'), () => limiter.hit('k')]) {
      const error = await attempt().then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(503);
      expect((error as HttpError).errors[0].code).toBe('rate_limit_unavailable');
    }
  });

  it('an open rule lets the request through', async () => {
    const limiter = new RateLimiter('read', { max: 10, windowMs: WINDOW, whenStoreFails: 'open' }, broken);
    expect(await limiter.blockedFor('k')).toBe(0);
    await expect(limiter.hit('k')).resolves.toBeUndefined();
  });
});

describe('when the store fails (a real server whose table is gone)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer({ contentDir: writeFixtureLibrary(0), accounts: { env: { TRUST_PROXY: 'true' } } });
  });
  afterAll(() => server?.stop());

  const post = (pathname: string, body: unknown, ip: string) =>
    getJson(server, `/api/v1${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': ip },
      body: JSON.stringify(body),
    });

  it('refuses class-code guesses and sign-ins (closed), lets sign-ups and reading through (open)', async () => {
    await server.database.db.execute(sql`alter table rate_limits rename to rate_limits_away`);
    try {
      const guess = await getJson(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': 'WRONG123', 'X-Client-Id': 'c1', 'X-Forwarded-For': '192.0.2.1' } });
      expect(guess.status).toBe(503);
      expect(guess.body.errors[0].code).toBe('rate_limit_unavailable');
      expect(Number(guess.headers.get('retry-after'))).toBeGreaterThan(0);

      const email = `open.${Date.now()}@example.org`;
      const signUp = await post('/auth/sign-up/email', { email, password: 'violet-harbor-lantern', name: 'Open Door' }, '192.0.2.2');
      expect(signUp.status).toBe(200);

      const signIn = await post('/auth/sign-in/email', { email, password: 'violet-harbor-lantern' }, '192.0.2.3');
      expect(signIn.status).toBe(503);
      expect(signIn.body.errors[0].code).toBe('rate_limit_unavailable');

      // Reading without a class code never touches the counters.
      expect((await getJson(server, '/api/v1/publications?sort=most_recent')).status).toBe(200);
      expect((await getJson(server, '/api/v1/visitors/me')).status).toBe(200);
    } finally {
      await server.database.db.execute(sql`alter table rate_limits_away rename to rate_limits`);
    }
    const guess = await getJson(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': 'WRONG123', 'X-Client-Id': 'c1', 'X-Forwarded-For': '192.0.2.1' } });
    expect(guess.status).toBe(200);
    expect(guess.body.groupCodeValid).toBe(false);
  });
});

describe.runIf(postgresAvailable())('on a real PostgreSQL: one budget for every server', () => {
  let cluster: PgCluster;
  beforeAll(() => {
    cluster = startPgCluster();
  }, 60_000);
  afterAll(() => cluster?.stop());

  it('two connection pools counting one key at once reach the exact total', async () => {
    const a = await openDatabase({ databaseUrl: cluster.url });
    const b = await openDatabase({ databaseUrl: cluster.url });
    try {
      const storeA = new DbRateLimitStore(a);
      const storeB = new DbRateLimitStore(b);
      const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? storeA : storeB).increment('pg:shared', WINDOW)));
      expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      expect((await storeB.read('pg:shared'))!.count).toBe(60);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('wrong class codes count across two servers: the 429 comes after the same total', async () => {
    const contentDir = writeFixtureLibrary(0);
    const start = () =>
      startServer({
        port: 0,
        host: '127.0.0.1',
        databaseUrl: cluster.url,
        contentDir,
        translationProvider: null,
        logger: silentLogger(),
        narration: { concurrency: 0 },
        accounts: { env: { TRUST_PROXY: 'true', BETTER_AUTH_SECRET: 'a-shared-secret-for-both-servers-of-this-test' } },
      });
    const serverA = await start();
    const serverB = await start();
    try {
      let limitedAt = -1;
      for (let i = 0; i < 100 && limitedAt < 0; i++) {
        const server = i % 2 ? serverB : serverA;
        const res = await getJson(server, '/api/v1/visitors/me', {
          headers: { 'X-Group-Code': `GUESS${String(i).padStart(3, '0')}`, 'X-Client-Id': `pg-${i}`, 'X-Forwarded-For': '198.51.100.77' },
        });
        if (res.status === 429) limitedAt = i;
        else expect(res.body.groupCodeValid).toBe(false);
      }
      expect(limitedAt).toBe(CLASS_CODE_FAILURES_PER_IP.max);
      // Both servers refuse from then on.
      for (const server of [serverA, serverB]) {
        const res = await getJson(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': 'ANOTHER1', 'X-Forwarded-For': '198.51.100.77' } });
        expect(res.status).toBe(429);
        expect(res.body.errors[0].message).toMatch(/Too many wrong class codes/);
      }
    } finally {
      await serverA.stop();
      await serverB.stop();
    }
  }, 120_000);
});
