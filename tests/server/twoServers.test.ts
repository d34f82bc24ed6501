/**
 * Several servers on one PostgreSQL (docs/deploy.md): two real server processes
 * (`node --import tsx server/bin/start.ts`, what `npm start` runs from source), started at the same time on one
 * fresh PostgreSQL cluster, with one BETTER_AUTH_SECRET, one PUBLIC_URL, TRUST_PROXY, and one S3 audio store
 * (s3rver). Each server reaches the store through a small counting proxy of the test's own, so that every
 * object a server writes is seen and attributed, without changing the product. Checks:
 *
 *  - a session made on A works on B, and signing out on B ends it on A;
 *  - a class code rotated on A is refused on B at once, and the new one works there;
 *  - wrong class codes count across both: the 429 comes after the same total as on one server;
 *  - the library is narrated once, split across both: every passage has audio, each narration was written once;
 *  - content imported by `npm run content:import` reaches both servers, and when one is killed (SIGKILL) while it
 *    holds a narration job, the other finishes the queue, that job included, after the lease.
 *
 * Debian's PostgreSQL (or TEST_DATABASE_URL) is required: without it this file fails, it does not skip.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/commands';
import { CLASS_CODE_FAILURES_PER_CLIENT, CLASS_CODE_FAILURES_PER_IP } from '../../server/auth/limits';
import { withEnv, writeFixtureLibrary } from './harness';
import { postgresAvailable, startPgCluster, type PgCluster } from './pg-cluster';
import { spawnNode, startServerProcess, tmpWork, type ServerProcess } from './processes';

const SECRET = 'one-secret-shared-by-every-server-of-this-test';
const PUBLIC_URL = 'https://lectern.example.test';
const BUCKET = 'lectern-audio';
/** Short, so that a killed server's job comes back soon; long enough that a loaded machine renews in time. */
const LEASE_MS = 5000;
/** Filler titles (one English passage each) beside the fixture library's own, at start and after the import. */
const FILLERS_AT_START = 12;
const FILLERS_IMPORTED = 30;

/** An HTTP proxy in front of s3rver that records the object keys written through it (2xx PUTs). */
async function countingProxy(targetPort: number): Promise<{ url: string; puts: string[]; close(): Promise<void> }> {
  const puts: string[] = [];
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (req.method === 'PUT' && answer.statusCode! < 300) puts.push(decodeURIComponent(new URL(req.url!, 'http://s3').pathname));
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    puts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The narration keys of the MP3s among recorded object paths (`/bucket/prefix/<key>.mp3`). */
const mp3Keys = (puts: string[]) => puts.filter((p) => p.endsWith('.mp3')).map((p) => path.basename(p, '.mp3'));

function countBy(items: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const i of items) counts.set(i, (counts.get(i) ?? 0) + 1);
  return counts;
}

/** Poll `check` until it returns something other than undefined; fail with `what` (and its last value) after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 150_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    const value = await check().catch((err: unknown) => ((last = err), undefined));
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (last: ${String(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(server: { url: string }, route: string, init: RequestInit & { ip?: string } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  // Behind the reverse proxy (TRUST_PROXY): the client's address and scheme come in these headers.
  headers.set('X-Forwarded-For', init.ip ?? '203.0.113.10');
  headers.set('X-Forwarded-Proto', 'https');
  if (init.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    headers.set('Origin', PUBLIC_URL);
  }
  const res = await fetch(server.url + route, { ...init, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

const cookieOf = (answer: Answer) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

describe('two servers on one PostgreSQL', { timeout: 180_000 }, () => {
  let cluster: PgCluster | undefined;
  let client: pg.Client | undefined;
  let s3: S3rver | undefined;
  const proxies: Awaited<ReturnType<typeof countingProxy>>[] = [];
  const work = tmpWork('two-servers');
  let a: ServerProcess;
  let b: ServerProcess;
  let putsA: string[];
  let putsB: string[];
  /** The teacher's session (their school's license has every reading feature): narration answers need AUDIO, and LANGUAGES and LEVELS beyond the free editions. */
  let teacher = '';

  beforeAll(async () => {
    if (!postgresAvailable()) {
      throw new Error(
        "This test needs a real PostgreSQL: Debian's postgresql package (/usr/lib/postgresql/*/bin/initdb and pg_ctl; .ci/run installs it), or TEST_DATABASE_URL.",
      );
    }
    cluster = startPgCluster();
    client = new pg.Client({ connectionString: cluster.url });
    await client.connect();

    const s3Dir = path.join(work, 's3');
    fs.mkdirSync(s3Dir);
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port: s3Port } = await s3.run();
    proxies.push(await countingProxy(s3Port), await countingProxy(s3Port));
    putsA = proxies[0].puts;
    putsB = proxies[1].puts;

    fs.renameSync(writeFixtureLibrary(FILLERS_AT_START), path.join(work, 'content'));
    const env = (s3Url: string) => ({
      DATABASE_URL: cluster!.url,
      BETTER_AUTH_SECRET: SECRET,
      PUBLIC_URL,
      TRUST_PROXY: 'true',
      AUDIO_STORE: `s3://${BUCKET}/narration`,
      S3_ENDPOINT: s3Url,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'eu-west-1',
      NARRATION_CONCURRENCY: '1',
      NARRATION_LEASE_MS: String(LEASE_MS),
    });
    // At the same time, as a deployment starts its servers: both migrate and import the library at once.
    [a, b] = await Promise.all([
      startServerProcess(work, path.join(work, 'data-a'), env(proxies[0].url)),
      startServerProcess(work, path.join(work, 'data-b'), env(proxies[1].url)),
    ]);
  }, 240_000);

  afterAll(async () => {
    for (const server of [a, b]) {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
    await client?.end();
    for (const p of proxies) await p.close();
    await s3?.close();
    cluster?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  const admin = (...argv: string[]) =>
    withEnv({ DATABASE_URL: cluster!.url }, async () => {
      const lines: string[] = [];
      const code = await runAdmin(argv, { out: (l) => lines.push(l), err: (l) => lines.push(l), contentDir: '.', cwd: '.' });
      return { code, text: lines.join('\n') };
    });

  const signUp = async (server: ServerProcess, email: string, name: string) => {
    const res = await call(server, '/api/v1/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({ email, password: 'granite-meadow-71', name }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return cookieOf(res);
  };

  it('a session made on A works on B, and signing out on B ends it on A', async () => {
    const email = 'ada.two@example.org';
    const cookie = await signUp(a, email, 'Ada Two');
    expect(cookie).toMatch(/__Secure-lectern\.session_token=/); // PUBLIC_URL is https

    const onB = await call(b, '/api/v1/auth/get-session', { headers: { Cookie: cookie } });
    expect(onB.status).toBe(200);
    expect(onB.body.user.email).toBe(email);
    const me = await call(b, '/api/v1/users/me', { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);

    // Signed in on B with the password, signed out on B: that session no longer works on A either.
    const signIn = await call(b, '/api/v1/auth/sign-in/email', { method: 'POST', body: JSON.stringify({ email, password: 'granite-meadow-71' }) });
    expect(signIn.status).toBe(200);
    const second = cookieOf(signIn);
    expect((await call(a, '/api/v1/users/me', { headers: { Cookie: second } })).status).toBe(200);
    const out = await call(b, '/api/v1/auth/sign-out', { method: 'POST', body: '{}', headers: { Cookie: second } });
    expect(out.status).toBe(200);
    expect((await call(a, '/api/v1/users/me', { headers: { Cookie: second } })).status).toBe(401);
    // The first session is still good on both.
    expect((await call(a, '/api/v1/users/me', { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('a class code rotated on A is refused on B at once, and the new one works there', async () => {
    const email = 'teacher.two@example.org';
    const cookie = await signUp(a, email, 'Tess Two');
    teacher = cookie;
    for (const argv of [
      ['org', 'create', 'Twin Oaks School'],
      ['user', 'teacher', email],
      ['user', 'org-admin', email, 'twin-oaks-school'],
      ['license', 'grant', 'twin-oaks-school', 'AUDIO,DECODE,GROUP_CODES,LANGUAGES,LEVELS'],
    ]) {
      const r = await admin(...argv);
      expect(r.code, r.text).toBe(0);
    }
    const me = await call(a, '/api/v1/users/me', { headers: { Cookie: cookie } });
    const old = me.body.groupCode as string;
    expect(old).toMatch(/^[A-Z0-9]{8}$/);
    const check = (server: ServerProcess, code: string) => call(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': code, 'X-Client-Id': 'rotation' }, ip: '203.0.113.20' });

    // B has seen the code work.
    expect((await check(b, old)).body).toMatchObject({ groupCodeValid: true, features: expect.arrayContaining(['AUDIO', 'LANGUAGES']) });

    const rotated = await call(a, '/api/v1/users/me/group-code', { method: 'POST', body: '{}', headers: { Cookie: cookie } });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.groupCode as string;
    expect(fresh).toMatch(/^[A-Z0-9]{8}$/);
    expect(fresh).not.toBe(old);

    // The very next request to B: the old code is refused, the new one works.
    expect((await check(b, old)).body).toEqual({ groupCodeValid: false, features: [], titleIds: [] });
    expect((await check(b, fresh)).body).toMatchObject({ groupCodeValid: true, features: expect.arrayContaining(['AUDIO', 'LANGUAGES']) });
    expect((await call(b, '/api/v1/users/me', { headers: { Cookie: cookie } })).body.groupCode).toBe(fresh);
  });

  /** Wrong guesses alternating between A and B; returns how many were answered before the first 429. */
  async function guessUntilLimited(ip: (i: number) => string, clientId: (i: number) => string): Promise<number> {
    for (let i = 0; i < 100; i++) {
      const res = await call(i % 2 ? b : a, '/api/v1/visitors/me', {
        headers: { 'X-Group-Code': `WRNG${String(i).padStart(4, '0')}`, 'X-Client-Id': clientId(i) },
        ip: ip(i),
      });
      if (res.status === 429) {
        expect(res.body.errors[0].message).toMatch(/Too many wrong class codes/);
        return i;
      }
      expect(res.status).toBe(200);
      expect(res.body.groupCodeValid).toBe(false);
    }
    throw new Error('no 429 after 100 wrong class codes');
  }

  it('wrong class codes count across both: the 429 comes after the same total as on one server', async () => {
    // One client id, a new address each time: the per-client budget.
    expect(await guessUntilLimited((i) => `198.51.100.${i + 1}`, () => 'one-guessing-tablet')).toBe(CLASS_CODE_FAILURES_PER_CLIENT.max);
    // One address (a classroom), a new client id each time: the per-address budget.
    expect(await guessUntilLimited(() => '192.0.2.77', (i) => `tablet-${i}`)).toBe(CLASS_CODE_FAILURES_PER_IP.max);
    // Both servers refuse that address from then on.
    for (const server of [a, b]) {
      const res = await call(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': 'ANOTHER1', 'X-Client-Id': 'someone-new' }, ip: '192.0.2.77' });
      expect(res.status).toBe(429);
    }
  });

  /** Every voiced passage and its audio URL, from the database. */
  async function passageAudio(): Promise<{ id: number; editionId: number; audioUrl: string | null; marks: boolean }[]> {
    const { rows } = await client!.query(
      `select p.id, p.edition_id as "editionId", p.audio_url as "audioUrl", p.speech_marks is not null as marks
       from passages p join editions e on e.id = p.edition_id where e.language <> 'fil' order by p.id`,
    );
    return rows;
  }

  /** Resolves once the queue is empty and every voiced passage has its narration. */
  const allNarrated = () =>
    until('the whole library to be narrated', async () => {
      const { rows } = await client!.query('select count(*)::int as n from narration_jobs');
      const list = await passageAudio();
      return rows[0].n === 0 && list.length > 0 && list.every((p) => p.audioUrl && p.marks) ? list : undefined;
    });

  it('narrates the library once, split across both servers', async () => {
    expect(teacher, 'the class-code test signs the teacher up').not.toBe('');
    const list = await allNarrated();
    const keys = list.map((p) => path.basename(p.audioUrl!, '.mp3'));
    const written = mp3Keys([...putsA, ...putsB]);
    // Every narration was written to the store once, by one server; each server wrote some.
    expect([...countBy(written)].filter(([, n]) => n > 1)).toEqual([]);
    expect(new Set(written)).toEqual(new Set(keys));
    const split = `A wrote ${mp3Keys(putsA).length} narrations, B ${mp3Keys(putsB).length}`;
    expect(mp3Keys(putsA).length, split).toBeGreaterThan(0);
    expect(mp3Keys(putsB).length, split).toBeGreaterThan(0);
    // And both serve every narration, whoever made it: the answer and the MP3 (from the shared store).
    for (const server of [a, b]) {
      for (const p of list) {
        const res = await call(server, `/api/v1/passages/${p.id}/audio?editionId=${p.editionId}`, { headers: { Cookie: teacher } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.audio.url).toBe(p.audioUrl);
      }
    }
    for (const [server, other] of [
      [a, putsB],
      [b, putsA],
    ] as const) {
      const mp3 = await fetch(`${server.url}/audio/${mp3Keys(other)[0]}.mp3`, { headers: { Range: 'bytes=0-3' } });
      expect(mp3.status).toBe(206);
      expect((await mp3.arrayBuffer()).byteLength).toBe(4);
    }
  });

  it('a library imported by content:import reaches both; one is killed holding a job, the other finishes the queue', async () => {
    const before = await passageAudio();
    const library = writeFixtureLibrary(FILLERS_IMPORTED);
    try {
      const imported = spawnNode('server/bin/content-import.ts', [library], { DATABASE_URL: cluster!.url, DATA_DIR: path.join(work, 'data-import') });
      expect(await imported.exited, imported.stderr()).toBe(0);
      expect(imported.stdout()).toMatch(new RegExp(`added:\\s+${FILLERS_IMPORTED - FILLERS_AT_START}\\b`));
    } finally {
      fs.rmSync(library, { recursive: true, force: true });
    }
    // Both servers see the new titles (the content revision is polled every REVISION_POLL_MS).
    const last = `filler-${FILLERS_IMPORTED}`;
    for (const server of [a, b]) {
      await until(`${last} on ${server.url}`, async () => ((await call(server, `/api/v1/publications/${last}`)).status === 200 ? true : undefined), 60_000, 200);
    }

    // A server holds a narration job: kill A then, without letting it give the job back.
    const held = await until(
      'server A to hold a narration job',
      async () => {
        const { rows } = await client!.query('select passage_id as "passageId" from narration_jobs where leased_by like $1 and lease_until > now()', [`%:${a.pid}:%`]);
        return rows[0] as { passageId: number } | undefined;
      },
      120_000,
      25,
    );
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');

    // B narrates everything left, the killed server's job among it once its lease has run out.
    const list = await allNarrated();
    expect(list.length).toBeGreaterThan(before.length);
    const killed = list.find((p) => p.id === held.passageId)!;
    expect(killed.audioUrl).toBeTruthy();
    const answer = await call(b, `/api/v1/passages/${killed.id}/audio?editionId=${killed.editionId}`, { headers: { Cookie: teacher } });
    expect(answer.status).toBe(200);
    expect(answer.body.audio.url).toBe(killed.audioUrl);
    const mp3 = await fetch(b.url + killed.audioUrl!, { headers: { Range: 'bytes=0-3' } });
    expect(mp3.status).toBe(206);
    // Every passage new since the import is narrated, and B's answer for each is ready.
    for (const p of list.filter((p) => !before.some((q) => q.id === p.id))) {
      const res = await call(b, `/api/v1/passages/${p.id}/audio?editionId=${p.editionId}`, { headers: { Cookie: teacher } });
      expect(res.status).toBe(200);
    }
  }, 300_000);
});
