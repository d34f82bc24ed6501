/**
 * Capacity bench: what one server and two servers behind a balancer hold, in numbers a district can plan with
 * (docs/capacity.md).
 *
 * Part 1, one server. `node server/bin/start.mjs` (what `npm start` runs) on a fresh DATA_DIR (PGlite) with the
 * library of content/. N simulated readers (bench/capacityReaders.ts: catalog, title, passages page by page,
 * narration answers and MP3 ranges) with /ping probed under the same load in the same run. Prints errors, the app's
 * p99, /ping's p99 and their ratio, the server's CPU per request and RSS; then GET /passages alone, closed loop,
 * for requests per CPU-second of the server process (/proc/<pid>/stat).
 *
 * Part 2, two servers on one PostgreSQL behind HAProxy. A throwaway cluster from Debian's postgresql (initdb and
 * pg_ctl in a temporary directory, as the server tests do), one S3 bucket (s3rver, behind a proxy that counts what
 * the servers fetch), two server processes with one secret, and Debian's HAProxy started with a generated
 * configuration (bench/capacityCluster.ts). The same readers go through HAProxy; halfway through the measured
 * window one server is killed (SIGKILL). Prints errors, latency, and what each part used: CPU and peak RSS per
 * server, HAProxy's CPU, PostgreSQL connections (pg_stat_activity), object-store requests and bytes, and the MP3
 * bytes the readers received. Without haproxy or PostgreSQL the part says so and is skipped.
 *
 * Narrations are reused from bench/results/load-audio (shared with bench/load.ts; keys name their content), so the
 * setup is quick after the first run. `capacityBench()` is for bench/run.ts; `node --import tsx bench/capacity.ts`
 * runs it alone. Environment: CAPACITY_READERS (default 500), CAPACITY_DURATION_S (measured seconds per run,
 * default 40), CAPACITY_THINK_MS (a reader's pause between pages, "200,500"), CAPACITY_SKIP_CLUSTER=1 (part 1 only),
 * CAPACITY_SKIP_SINGLE=1 (part 2 only), CAPACITY_KILL=0 (kill no server), CAPACITY_CPU_PROF=<dir> (each server writes a
 * CPU profile there when it stops), CAPACITY_HAPROXY_LOG=<file> (keep HAProxy's request log with its timers),
 * CAPACITY_JSON (write the result there).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import S3rver from 's3rver';
import { buildIfStale } from '../server/build';
import { audioStoreFromEnv } from '../server/narration/audioStore';
import { postgresAvailable, startPgCluster } from '../tests/server/pg-cluster';
import { countingProxy, findHaproxy, freePort, parentPid, processFamilyCpuSeconds, startHaproxy, startServerProcess, type ServerProcess } from './capacityCluster';
import { procCpuSeconds, procRssMb, runPassagesOnly, runReaders, sleep, type ReaderRun, type Walk } from './capacityReaders';
import { CACHE_NAME_RE, copyAudio, prepareWalks } from './walks';

const root = path.resolve(import.meta.dirname, '..');
const AUDIO_CACHE = path.join(root, 'bench', 'results', 'load-audio');

/** The target: the app's p99 within 1.5 times /ping's, with 0 errors. */
export const CAPACITY_TARGET = { p99Ratio: 1.5 };

export interface CapacityOptions {
  readers?: number;
  durationS?: number;
  warmupS?: number;
  thinkMs?: [number, number];
  /** Editions walked and passages per edition. @default 6, 6 */
  editions?: number;
  passagesPerEdition?: number;
  skipSingle?: boolean;
  skipCluster?: boolean;
  log?: (line: string) => void;
}

export interface ServerUse {
  name: string;
  /** CPU seconds in the measured window (until it was killed, for the killed one), and as a share of one core. */
  cpuS: number;
  cpuPct: number;
  /** The largest RSS sampled (every second) during the measured window, and the process's peak since it started (VmHWM, which includes start-up and the library import), MB. */
  runRssMb: number;
  peakRssMb: number;
  killed: boolean;
}

export interface SingleResult {
  startupMs: number;
  idleRssMb: number;
  run: ReaderRun;
  server: ServerUse;
  /** Server CPU ms per app request, and app requests per server CPU-second, over the reader mix. */
  cpuMsPerRequest: number;
  requestsPerCpuSecond: number;
  /** Server CPU ms per page a reader turns (everything a reader asks, catalog and title visits included). */
  cpuMsPerPage: number;
  /** The same readers with the MP3s served by a CDN in front of /audio (the server answers the rest). */
  cdn: { run: ReaderRun; cpuS: number; cpuMsPerRequest: number; cpuMsPerPage: number };
  passagesOnly: Awaited<ReturnType<typeof runPassagesOnly>>;
}

export interface ClusterResult {
  skipped?: string;
  run?: ReaderRun;
  servers?: ServerUse[];
  haproxyCpuS?: number;
  haproxyCpuPct?: number;
  haproxyPeakRssMb?: number;
  postgres?: { maxConnections: number; meanConnections: number; serverCpuS: number; databaseMb: number };
  objectStore?: { requests: number; bytes: number };
  killedAtS?: number;
  requestsPerCpuSecond?: number;
}

export interface CapacityResult {
  machine: { cores: number; cpu: string; memGiB: number };
  readers: number;
  durationS: number;
  thinkMs: [number, number];
  walks: { slug: string; editionId: number; language: string; passages: number }[];
  single?: SingleResult;
  cluster?: ClusterResult;
}

/** What every run of the readers shares: how many, how long, their pauses, and /ping probed four at a time every 100 ms. */
const readerOptions = (o: Required<Pick<CapacityOptions, 'readers' | 'durationS' | 'warmupS' | 'thinkMs'>>) =>
  ({ readers: o.readers, durationS: o.durationS, warmupS: o.warmupS, thinkMs: o.thinkMs, pingConnections: 4, pingEveryMs: 100 });

const round1 = (v: number) => Math.round(v * 10) / 10;

function machine(): CapacityResult['machine'] {
  const model = /^model name\s*:\s*(.+)$/m.exec(fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '')?.[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return { cores: os.availableParallelism(), cpu: model.trim(), memGiB: Math.round(os.totalmem() / 2 ** 30) };
}

async function singleServer(o: Required<Pick<CapacityOptions, 'readers' | 'durationS' | 'warmupS' | 'thinkMs' | 'editions' | 'passagesPerEdition'>>, log: (l: string) => void): Promise<{ walks: Walk[]; single: SingleResult }> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-capacity-'));
  const dataDir = path.join(work, 'data');
  const n = copyAudio(AUDIO_CACHE, path.join(dataDir, 'audio'));
  if (n) log(`reusing ${n / 2} cached narrations`);
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess('server', { DATA_DIR: dataDir, NARRATION_CONCURRENCY: '0', NARRATION_PRIORITY_WORKERS: '2' }, path.join(work, 'server.log'));
    log(`one server up in ${server.startupMs} ms (pid ${server.pid})`);
    const idleRssMb = Math.round(procRssMb(server.pid).rss);
    const walks = await prepareWalks(server.url, o.editions, o.passagesPerEdition, log);
    copyAudio(path.join(dataDir, 'audio'), AUDIO_CACHE);
    log(`${o.readers} readers through one server: ${o.warmupS} s warm-up, ${o.durationS} s measured (load average ${os.loadavg()[0].toFixed(2)})`);
    let cpu0 = 0;
    let runRss = 0;
    const pid = server.pid;
    const readers = readerOptions(o);
    const run = await runReaders(server.url, walks, {
      ...readers,
      onMeasureStart: () => (cpu0 = procCpuSeconds(pid)),
      onTick: () => void (runRss = Math.max(runRss, procRssMb(pid).rss)),
    });
    const cpuS = procCpuSeconds(pid) - cpu0;
    await sleep(2000);
    log(`the same readers with the MP3s from a CDN in front of /audio: ${o.warmupS} s warm-up, ${o.durationS} s measured`);
    let cdnCpu0 = 0;
    const cdnRun = await runReaders(server.url, walks, {
      ...readers,
      audioFromCdn: true,
      onMeasureStart: () => (cdnCpu0 = procCpuSeconds(pid)),
    });
    const cdnCpuS = procCpuSeconds(pid) - cdnCpu0;
    await sleep(2000);
    log('GET /passages alone, 20 connections, closed loop');
    const passagesOnly = await runPassagesOnly(server.url, walks, { connections: 20, durationS: Math.min(15, o.durationS), warmupS: 2, serverPids: [pid] });
    return {
      walks,
      single: {
        startupMs: server.startupMs,
        idleRssMb,
        run,
        server: { name: 'server', cpuS: round1(cpuS), cpuPct: Math.round((cpuS / run.seconds) * 100), runRssMb: Math.round(runRss), peakRssMb: Math.round(procRssMb(pid).peak), killed: false },
        cpuMsPerRequest: run.requests ? Math.round((cpuS / run.requests) * 1e5) / 100 : 0,
        requestsPerCpuSecond: cpuS > 0 ? Math.round(run.requests / cpuS) : 0,
        cpuMsPerPage: run.pages ? Math.round((cpuS / run.pages) * 1e5) / 100 : 0,
        cdn: {
          run: cdnRun,
          cpuS: round1(cdnCpuS),
          cpuMsPerRequest: cdnRun.requests ? Math.round((cdnCpuS / cdnRun.requests) * 1e5) / 100 : 0,
          cpuMsPerPage: cdnRun.pages ? Math.round((cdnCpuS / cdnRun.pages) * 1e5) / 100 : 0,
        },
        passagesOnly,
      },
    };
  } catch (error) {
    const log_ = path.join(work, 'server.log');
    if (fs.existsSync(log_)) log(`server log (tail):\n${fs.readFileSync(log_, 'utf8').split('\n').slice(-20).join('\n')}`);
    throw error;
  } finally {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const BUCKET = 'lectern-audio';
const PREFIX = 'narration';

async function twoServers(o: Required<Pick<CapacityOptions, 'readers' | 'durationS' | 'warmupS' | 'thinkMs' | 'editions' | 'passagesPerEdition'>>, log: (l: string) => void): Promise<{ walks?: Walk[]; cluster: ClusterResult }> {
  const haproxyBin = findHaproxy();
  if (!haproxyBin) return { cluster: { skipped: 'haproxy is not installed (apt-get install -y haproxy)' } };
  if (!postgresAvailable()) return { cluster: { skipped: "PostgreSQL is not installed (Debian's postgresql: initdb and pg_ctl)" } };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-capacity-two-'));
  const cluster = startPgCluster();
  const stops: (() => Promise<unknown> | unknown)[] = [() => cluster.stop()];
  const servers: ServerProcess[] = [];
  try {
    const s3Dir = path.join(work, 's3');
    fs.mkdirSync(s3Dir);
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET, configs: [] }] });
    const { port: s3Port } = await s3.run();
    stops.unshift(() => s3.close());
    const store = await countingProxy(s3Port);
    stops.unshift(() => store.close());
    const s3Env = {
      AUDIO_STORE: `s3://${BUCKET}/${PREFIX}`,
      S3_ENDPOINT: store.url,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'eu-west-1',
    };
    // The cached narrations go into the bucket, as if narrated before: the servers find them by key.
    if (fs.existsSync(AUDIO_CACHE)) {
      const bucket = await audioStoreFromEnv(s3Env, path.join(work, 'unused'));
      let n = 0;
      for (const name of fs.readdirSync(AUDIO_CACHE)) {
        if (!CACHE_NAME_RE.test(name)) continue;
        await bucket.put(name, fs.readFileSync(path.join(AUDIO_CACHE, name)));
        n++;
      }
      log(`${n / 2} cached narrations put into the bucket`);
    }
    const lbPort = await freePort();
    const env = (name: string) => ({
      ...s3Env,
      DATABASE_URL: cluster.url,
      DATA_DIR: path.join(work, `data-${name}`),
      BETTER_AUTH_SECRET: 'one-secret-shared-by-both-servers-of-the-capacity-bench',
      PUBLIC_URL: `http://127.0.0.1:${lbPort}`,
      TRUST_PROXY: 'true',
      NARRATION_CONCURRENCY: '0',
      NARRATION_PRIORITY_WORKERS: '2',
    });
    // One after the other: the first migrates and imports the library, the second finds it done.
    for (const name of ['a', 'b']) {
      const s = await startServerProcess(`server ${name}`, env(name), path.join(work, `server-${name}.log`));
      servers.push(s);
      stops.unshift(() => s.stop());
      log(`server ${name} up in ${s.startupMs} ms (pid ${s.pid}, PostgreSQL)`);
    }
    const lb = await startHaproxy(haproxyBin, work, servers.map((s) => ({ name: s.name.replace(' ', '-'), url: s.url })), lbPort);
    stops.unshift(() => lb.stop());
    log(`haproxy up at ${lb.url} (pid ${lb.pid})`);
    const walks = await prepareWalks(lb.url, o.editions, o.passagesPerEdition, log);

    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    stops.unshift(() => client.end());
    const connections: number[] = [];
    const countConnections = async () => {
      const r = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
      connections.push(Number(r.rows[0].n));
    };
    // PostgreSQL's CPU: its postmaster (the parent of our own backend) with every backend and helper under it, live
    // and ended, from /proc.
    const postmaster = parentPid(Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid));

    const objects0 = structuredClone(store.counts);
    const cpu0 = new Map<number, number>();
    const cpuAt = new Map<number, number>();
    const killed = servers[1];
    const killAtS = Math.round(o.durationS / 2);
    let peakAtKill = 0;
    const runRss = new Map<number, number>();
    const pgCpu = () => (postmaster ? processFamilyCpuSeconds(postmaster) : 0);
    let pgCpu0 = 0;
    log(`${o.readers} readers through haproxy to two servers: ${o.warmupS} s warm-up, ${o.durationS} s measured, server b killed at ${killAtS} s (load average ${os.loadavg()[0].toFixed(2)})`);
    const run = await runReaders(lb.url, walks, {
      ...readerOptions(o),
      onMeasureStart: () => {
        pgCpu0 = pgCpu();
        for (const pid of [...servers.map((s) => s.pid), lb.pid]) cpu0.set(pid, procCpuSeconds(pid));
      },
      onTick: async () => {
        for (const sv of servers) if (sv.alive()) runRss.set(sv.pid, Math.max(runRss.get(sv.pid) ?? 0, procRssMb(sv.pid).rss));
        await countConnections();
      },
      midRun: process.env.CAPACITY_KILL === '0' ? undefined : {
        atS: killAtS,
        run: async () => {
          cpuAt.set(killed.pid, procCpuSeconds(killed.pid));
          peakAtKill = procRssMb(killed.pid).peak;
          await killed.kill();
          log(`server b killed (SIGKILL) at ${killAtS} s`);
        },
      },
    });
    const pgCpuS = pgCpu() - pgCpu0;
    const databaseMb = Number((await client.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes')).rows[0].bytes) / 2 ** 20;
    for (const pid of [...servers.filter((sv) => sv.alive()).map((sv) => sv.pid), lb.pid]) cpuAt.set(pid, procCpuSeconds(pid));
    const use = (s: ServerProcess): ServerUse => {
      const cpuS = (cpuAt.get(s.pid) ?? 0) - (cpu0.get(s.pid) ?? 0);
      const wasKilled = !s.alive();
      const seconds = wasKilled ? killAtS : run.seconds;
      return {
        name: s.name,
        cpuS: round1(cpuS),
        cpuPct: Math.round((cpuS / seconds) * 100),
        runRssMb: Math.round(runRss.get(s.pid) ?? 0),
        peakRssMb: Math.round(wasKilled ? peakAtKill : procRssMb(s.pid).peak),
        killed: wasKilled,
      };
    };
    const serverUse = servers.map(use);
    const lbCpu = (cpuAt.get(lb.pid) ?? 0) - (cpu0.get(lb.pid) ?? 0);
    const sum = (c: typeof store.counts) => Object.values(c).reduce((a, e) => ({ requests: a.requests + e.requests, bytes: a.bytes + e.bytes }), { requests: 0, bytes: 0 });
    const before = sum(objects0);
    const after = sum(store.counts);
    const serversCpu = serverUse.reduce((a, s) => a + s.cpuS, 0);
    return {
      walks,
      cluster: {
        run,
        servers: serverUse,
        haproxyCpuS: round1(lbCpu),
        haproxyCpuPct: Math.round((lbCpu / run.seconds) * 100),
        haproxyPeakRssMb: Math.round(procRssMb(lb.pid).peak),
        postgres: {
          maxConnections: Math.max(0, ...connections),
          meanConnections: connections.length ? round1(connections.reduce((a, b) => a + b, 0) / connections.length) : 0,
          serverCpuS: Math.round(pgCpuS * 100) / 100,
          databaseMb: round1(databaseMb),
        },
        objectStore: { requests: after.requests - before.requests, bytes: after.bytes - before.bytes },
        killedAtS: killAtS,
        requestsPerCpuSecond: serversCpu > 0 ? Math.round(run.requests / serversCpu) : 0,
      },
    };
  } catch (error) {
    for (const s of ['a', 'b']) {
      const f = path.join(work, `server-${s}.log`);
      if (fs.existsSync(f)) log(`server ${s} log (tail):\n${fs.readFileSync(f, 'utf8').split('\n').slice(-15).join('\n')}`);
    }
    throw error;
  } finally {
    for (const stop of stops) {
      try {
        await stop();
      } catch {
        /* already stopped */
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function capacityBench(options: CapacityOptions = {}): Promise<CapacityResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[capacity] ${line}\n`));
  const readers = options.readers ?? Number(process.env.CAPACITY_READERS ?? 500);
  const durationS = options.durationS ?? Number(process.env.CAPACITY_DURATION_S ?? 40);
  const thinkMs = options.thinkMs ?? ((process.env.CAPACITY_THINK_MS?.split(',').map(Number) as [number, number] | undefined) ?? [200, 500]);
  const o = {
    readers,
    durationS,
    // 500 readers arriving at once meet a cold server (JIT, caches, new connections): the first seconds are not
    // what a running server does.
    warmupS: options.warmupS ?? Math.min(10, durationS / 4),
    thinkMs,
    editions: options.editions ?? 6,
    passagesPerEdition: options.passagesPerEdition ?? 6,
  };
  // The web app is built once here, if stale, rather than by the first server it would delay.
  buildIfStale(root, path.join(root, 'dist'), log);
  const result: CapacityResult = { machine: machine(), readers, durationS, thinkMs, walks: [] };
  const describe = (walks: Walk[]) => walks.map((w) => ({ slug: w.slug, editionId: w.editionId, language: w.language, passages: w.passages.length }));
  if (!(options.skipSingle ?? process.env.CAPACITY_SKIP_SINGLE === '1')) {
    const { walks, single } = await singleServer(o, log);
    result.walks = describe(walks);
    result.single = single;
  }
  if (options.skipCluster ?? process.env.CAPACITY_SKIP_CLUSTER === '1') {
    result.cluster = { skipped: 'CAPACITY_SKIP_CLUSTER' };
  } else {
    const { walks, cluster } = await twoServers(o, log);
    if (walks && result.walks.length === 0) result.walks = describe(walks);
    result.cluster = cluster;
  }
  return result;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

function runLine(r: ReaderRun): string {
  const met = r.errors === 0 && r.p99Ratio <= CAPACITY_TARGET.p99Ratio;
  return [
    `  ${r.readers} readers, ${r.seconds} s: ${r.errors} errors, ${r.requests} requests (${r.rps} req/s, ${r.pagesPerSecond} pages/s)`,
    `  app p50 ${r.app.p50} / p90 ${r.app.p90} / p99 ${r.app.p99} / max ${r.app.max} ms; /ping p50 ${r.ping.p50} / p99 ${r.ping.p99} ms (${r.ping.count} probes)`,
    `  app p99 / ping p99 = ${r.p99Ratio} (target 0 errors and <= ${CAPACITY_TARGET.p99Ratio}: ${met ? 'met' : 'NOT met'})`,
    `  p50 / p90 / p99 by route: ${Object.entries(r.byRoute).map(([k, s]) => `${k} ${s.p50} / ${s.p90} / ${s.p99}`).join(', ')} ms`,
    ...(r.errors ? [`  errors: ${Object.entries(r.errorKinds).map(([k, n]) => `${k} ×${n}`).join(', ')}`] : []),
    `  readers received ${mb(r.bodyBytes)} (${mb(r.mp3Bytes)} of MP3 ranges, ${mb(r.mp3Bytes / r.seconds)}/s); generator CPU ${r.generatorCpuPct}%; load average ${r.loadAvg[0]}→${r.loadAvg[1]}`,
  ].join('\n');
}

export function formatCapacity(result: CapacityResult): string {
  const m = result.machine;
  const lines = [
    `capacity: ${m.cores} cores (${m.cpu}), ${m.memGiB} GiB; ${result.readers} readers pausing ${result.thinkMs[0]}–${result.thinkMs[1]} ms between pages, ${result.durationS} s measured; ${result.walks.length} editions, ${result.walks.reduce((n, w) => n + w.passages, 0)} narrated passages`,
  ];
  const s = result.single;
  if (s) {
    lines.push(
      `one server (npm start, PGlite): up in ${s.startupMs} ms, ${s.idleRssMb} MB RSS idle`,
      runLine(s.run),
      `  server CPU ${s.server.cpuS} s (${s.server.cpuPct}% of a core), ${s.cpuMsPerRequest} ms per request = ${s.requestsPerCpuSecond} requests per CPU-second over the reader mix; RSS ${s.server.runRssMb} MB at most during the run (${s.server.peakRssMb} MB peak since start, with the library import)`,
      `  server CPU per page turned: ${s.cpuMsPerPage} ms`,
      `  with the MP3s from a CDN (no /audio requests):`,
      runLine(s.cdn.run).replace(/^  /gm, '    '),
      `    server CPU ${s.cdn.cpuS} s, ${s.cdn.cpuMsPerRequest} ms per request, ${s.cdn.cpuMsPerPage} ms per page turned`,
      `  GET /passages alone: ${s.passagesOnly.requests} requests in ${s.passagesOnly.seconds} s (${s.passagesOnly.errors} errors, p99 ${s.passagesOnly.p99} ms), server CPU ${s.passagesOnly.serverCpuS} s = ${s.passagesOnly.requestsPerCpuSecond} requests per CPU-second`,
    );
  }
  const c = result.cluster;
  if (c?.skipped) lines.push(`two servers behind HAProxy: skipped (${c.skipped})`);
  else if (c?.run) {
    const kill = c.servers!.some((sv) => sv.killed) ? `, server b killed at ${c.killedAtS} s` : ' (no server killed: CAPACITY_KILL=0)';
    lines.push(`two servers on one PostgreSQL behind HAProxy${kill}:`, runLine(c.run));
    for (const sv of c.servers!) lines.push(`  ${sv.name}: CPU ${sv.cpuS} s (${sv.cpuPct}% of a core${sv.killed ? ` until killed at ${c.killedAtS} s` : ''}), RSS ${sv.runRssMb} MB at most during the run (${sv.peakRssMb} MB peak since start)`);
    lines.push(
      `  servers together: ${c.requestsPerCpuSecond} requests per CPU-second`,
      `  haproxy: CPU ${c.haproxyCpuS} s (${c.haproxyCpuPct}% of a core), peak RSS ${c.haproxyPeakRssMb} MB`,
      `  PostgreSQL: ${c.postgres!.maxConnections} connections at most (mean ${c.postgres!.meanConnections}, pg_stat_activity client backends), CPU ${c.postgres!.serverCpuS} s (postmaster and backends), database ${c.postgres!.databaseMb} MB`,
      `  object store: ${c.objectStore!.requests} requests, ${mb(c.objectStore!.bytes)} fetched by the servers (the readers received ${mb(c.run.mp3Bytes)} of MP3)`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await capacityBench();
  console.log(formatCapacity(result));
  if (process.env.CAPACITY_JSON) fs.writeFileSync(process.env.CAPACITY_JSON, JSON.stringify(result, null, 2));
}
