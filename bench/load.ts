/**
 * Load bench (one server holds a school of readers): starts the real server the way `npm start` does,
 * in its own process, on a fresh temporary DATA_DIR with the library of content/, narrates a few titles through the
 * server's own narration, then runs N simulated readers against it and prints errors, p50, p99 and req/s for each N.
 *
 * A reader picks a free, narrated edition and walks its passages, as the reader page does:
 *   GET /api/v1/passages?editionId=&position=       (the passage)
 *   GET /api/v1/passages/{id}/audio?editionId=       (its narration: url, speech marks, duration)
 *   GET /audio/{key}.mp3  with  Range: bytes=0-65535  (the first range the audio element fetches)
 * then waits 0.2–0.5 s and turns the page. Each reader has its own keep-alive connection (an undici Pool with one
 * connection per reader), requests are not conditional (a fresh browser cache), and a request counts as an error
 * when it fails or answers another status than 200, 200 and 206.
 *
 * `loadBench(options)` is for bench/run.ts; `node --import tsx bench/load.ts` runs it alone. Environment:
 * LOAD_DURATION_S (seconds per N, default 60), LOAD_READERS (e.g. "50,200"), LOAD_START (the server command,
 * default `npm start`), LOAD_AUDIO_CACHE=0 (narrate from scratch instead of reusing bench/results/load-audio).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';

const root = path.resolve(import.meta.dirname, '..');

export interface LoadBenchOptions {
  /** Reader counts, one run each. @default [50, 200] (LOAD_READERS) */
  readers?: number[];
  /** Measured seconds per run. @default 60 (LOAD_DURATION_S) */
  durationS?: number;
  /** Seconds of load before measuring (JIT, caches, connections), not counted. @default min(5, durationS / 4) */
  warmupS?: number;
  /** Editions the readers walk (free, narrated; spread over titles). @default 6 */
  editions?: number;
  /** Passages narrated and walked in each edition, from position 1. @default 6 */
  passagesPerEdition?: number;
  /** A reader's pause between pages, ms. @default [200, 500] */
  thinkMs?: [number, number];
  /** The MP3 range each page asks for. @default 'bytes=0-65535' */
  range?: string;
  /** The server command (run by a shell in the repository). @default LOAD_START or 'npm start' */
  startCommand?: string;
  /** Reuse narrations kept in bench/results/load-audio (keys name their content). @default LOAD_AUDIO_CACHE !== '0' */
  audioCache?: boolean;
  /** Progress lines. @default stderr */
  log?: (line: string) => void;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface LoadRun {
  readers: number;
  seconds: number;
  requests: number;
  errors: number;
  /** Errors by kind: `status 503 passage`, `ECONNRESET mp3`, … */
  errorKinds: Record<string, number>;
  rps: number;
  /** Pages (passage + audio + MP3) a second. */
  pagesPerSecond: number;
  latency: LatencySummary;
  byRoute: Record<'passage' | 'audio' | 'mp3', LatencySummary>;
  /** CPU of this process (the load generator) as a share of one core, %. */
  generatorCpuPct: number;
  /** CPU of the server process as a share of one core, %. */
  serverCpuPct: number;
  /** Server CPU time per request, ms: what a request costs, whatever else the machine is doing. */
  serverCpuMsPerRequest: number;
  /** The server's resident memory at the end of the run, and its peak so far, MB. */
  serverRssMb: number;
  serverPeakRssMb: number;
  /** 1-minute load average when the run started and when it ended. */
  loadAvg: [number, number];
}

export interface LoadBenchResult {
  url: string;
  command: string;
  /** From spawning the command to the first answer of /api/v1/ping, ms. */
  startupMs: number;
  /** The server's resident memory once it answered, before any load, MB. */
  idleRssMb: number;
  /** Narrating (or reusing) the walked passages, ms. */
  setupMs: number;
  editions: { slug: string; editionId: number; language: string; passages: number }[];
  mp3Bytes: number;
  runs: LoadRun[];
}

interface WalkPassage {
  position: number;
  id: number;
  mp3: string;
}
interface Walk {
  slug: string;
  editionId: number;
  language: string;
  passages: WalkPassage[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** utime + stime of a process, in seconds (from /proc; 0 where there is no /proc). */
function procCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function procRssMb(pid: number): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

function summarize(values: Float64Array, count: number): LatencySummary {
  if (count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  const sorted = values.slice(0, count).sort();
  const at = (q: number) => sorted[Math.min(count - 1, Math.ceil(q * count) - 1)];
  const round = (v: number) => Math.round(v * 10) / 10;
  return { count, p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), max: round(sorted[count - 1]) };
}

/** A growable list of latencies, ms. */
class Samples {
  values = new Float64Array(1 << 16);
  count = 0;
  push(v: number) {
    if (this.count === this.values.length) {
      const next = new Float64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.count++] = v;
  }
}

interface StartedServer {
  url: string;
  pid: number;
  child: ChildProcess;
  startupMs: number;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

async function startServer(command: string, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<StartedServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-load-'));
  const port = await freePort();
  const logFile = path.join(dataDir, 'server.log');
  const out = fs.openSync(logFile, 'a');
  const started = performance.now();
  // Its own process group, so that whatever the command starts (npm, a shell, node) is stopped with it.
  const child = spawn(command, {
    cwd: root,
    shell: true,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env, DATA_DIR: path.join(dataDir, 'data'), PORT: String(port), HOST: '127.0.0.1' },
  });
  fs.closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}`;
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  for (;;) {
    if (exited !== undefined) throw new Error(`The server exited with ${exited} before it answered:\n${tail()}`);
    if (performance.now() - started > 600_000) throw new Error(`The server did not answer within 10 minutes:\n${tail()}`);
    try {
      const res = await fetch(`${url}/api/v1/ping`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await sleep(25);
  }
  const startupMs = performance.now() - started;
  const pid = Number(fs.readFileSync(path.join(dataDir, 'data', 'server.pid'), 'utf8'));
  log(`server up in ${startupMs.toFixed(0)} ms (pid ${pid}, ${command})`);
  return {
    url,
    pid,
    child,
    startupMs,
    dataDir,
    logFile,
    async stop() {
      if (exited === undefined) {
        const done = new Promise((r) => child.once('exit', r));
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          /* gone */
        }
        const timedOut = await Promise.race([done.then(() => false), sleep(15_000).then(() => true)]);
        if (timedOut) {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            /* gone */
          }
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
}

interface PublicationDetail {
  slug: string;
  badges: string[];
  editions: { id: number; language: { code: string }; level: string; passageCount: number; audioEnabled: boolean }[];
}

/** Pick free, voiced editions across titles and narrate their first passages through the server. */
async function prepareWalks(url: string, editions: number, perEdition: number, log: (line: string) => void): Promise<Walk[]> {
  const list = await getJson<{ items: { slug: string }[] }>(`${url}/api/v1/publications?pageSize=100`);
  const candidates: { slug: string; editionId: number; language: string; passages: number }[] = [];
  for (const item of list.body.items) {
    const detail = await getJson<PublicationDetail>(`${url}/api/v1/publications/${item.slug}`);
    if (detail.status !== 200) continue; // premium or private
    for (const e of detail.body.editions) {
      if (e.audioEnabled && e.passageCount >= 2) candidates.push({ slug: item.slug, editionId: e.id, language: e.language.code, passages: e.passageCount });
    }
  }
  // One edition per title first (titles in catalog order), then more editions of the same titles.
  const firsts = candidates.filter((c, i) => candidates.findIndex((d) => d.slug === c.slug) === i);
  const ordered = [...firsts, ...candidates.filter((c) => !firsts.includes(c))];
  const walks: Walk[] = [];
  for (const c of ordered) {
    if (walks.length >= editions) break;
    const passages: WalkPassage[] = [];
    for (let position = 1; position <= Math.min(perEdition, c.passages); position++) {
      const p = await getJson<{ id: number; licenseRequired: boolean; groupCodeRequired: boolean }>(`${url}/api/v1/passages?editionId=${c.editionId}&position=${position}`);
      if (p.status !== 200 || p.body.licenseRequired || p.body.groupCodeRequired) break;
      passages.push({ position, id: p.body.id, mp3: '' });
    }
    if (passages.length === 0) continue;
    // Narration that needs features (src/domain/access.ts audioAccess) answers 403 to an anonymous reader: skip it.
    const probe = await fetch(`${url}/api/v1/passages/${passages[0].id}/audio?editionId=${c.editionId}`);
    await probe.arrayBuffer();
    if (probe.status === 403) continue;
    walks.push({ slug: c.slug, editionId: c.editionId, language: c.language, passages });
  }
  if (walks.length === 0) throw new Error('No free, voiced edition to read');

  // Narrate them through the server's own narration (priority lane), two at a time; 202 means ask again.
  const todo = walks.flatMap((w) => w.passages.map((p) => ({ w, p })));
  let done = 0;
  const worker = async () => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      for (let attempt = 0; ; attempt++) {
        const a = await getJson<{ status: string; audio?: { url: string } }>(`${url}/api/v1/passages/${job.p.id}/audio?editionId=${job.w.editionId}`);
        if (a.status === 200 && a.body.audio) {
          job.p.mp3 = a.body.audio.url;
          break;
        }
        if (a.status !== 202 || attempt > 120) throw new Error(`Narration of passage ${job.p.id} answered ${a.status}`);
        await sleep(500);
      }
      if (++done % 10 === 0) log(`narrated ${done} passages`);
    }
  };
  await Promise.all([worker(), worker()]);
  return walks;
}

/** Copy narrations between the bench's cache and a server's audio directory (keys name their content). */
function copyAudio(from: string, to: string): number {
  if (!fs.existsSync(from)) return 0;
  fs.mkdirSync(to, { recursive: true });
  let n = 0;
  for (const name of fs.readdirSync(from)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\.(mp3|json)$/.test(name) || fs.existsSync(path.join(to, name))) continue;
    fs.copyFileSync(path.join(from, name), path.join(to, name));
    n++;
  }
  return n;
}

/** Run `readers` simulated readers for warmup + duration seconds; measure the last `duration` seconds. */
async function runReaders(
  url: string,
  serverPid: number,
  walks: Walk[],
  readers: number,
  opts: { durationS: number; warmupS: number; thinkMs: [number, number]; range: string },
): Promise<LoadRun> {
  const pool = new Pool(url, { connections: readers, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 120_000 });
  const samples = { passage: new Samples(), audio: new Samples(), mp3: new Samples() };
  const all = new Samples();
  const errorKinds: Record<string, number> = {};
  let measuring = false;
  let stopping = false;
  let requests = 0;
  let pages = 0;
  const expected = { passage: 200, audio: 200, mp3: 206 } as const;
  const audioHeaders = { range: opts.range };

  async function hit(kind: 'passage' | 'audio' | 'mp3', p: string, headers?: Record<string, string>): Promise<boolean> {
    const t0 = performance.now();
    let status = 0;
    let error: string | null = null;
    try {
      const res = await pool.request({ path: p, method: 'GET', headers });
      status = res.statusCode;
      await res.body.dump({ limit: 1 << 24 });
    } catch (e) {
      error = (e as { code?: string }).code ?? (e as Error).message;
    }
    const ms = performance.now() - t0;
    if (!measuring) return error === null;
    requests++;
    samples[kind].push(ms);
    all.push(ms);
    if (error !== null || status !== expected[kind]) {
      const k = `${error ?? `status ${status}`} ${kind}`;
      errorKinds[k] = (errorKinds[k] ?? 0) + 1;
      return false;
    }
    return true;
  }

  async function reader(index: number): Promise<void> {
    // Readers arrive spread over the first pause, not all at once.
    await sleep(Math.random() * opts.thinkMs[1]);
    let walk = walks[index % walks.length];
    let at = Math.floor(Math.random() * walk.passages.length);
    while (!stopping) {
      const p = walk.passages[at];
      await hit('passage', `/api/v1/passages?editionId=${walk.editionId}&position=${p.position}`);
      await hit('audio', `/api/v1/passages/${p.id}/audio?editionId=${walk.editionId}`);
      await hit('mp3', p.mp3, audioHeaders);
      if (measuring) pages++;
      await sleep(opts.thinkMs[0] + Math.random() * (opts.thinkMs[1] - opts.thinkMs[0]));
      if (++at >= walk.passages.length) {
        walk = walks[Math.floor(Math.random() * walks.length)];
        at = 0;
      }
    }
  }

  const running = Array.from({ length: readers }, (_, i) => reader(i));
  await sleep(opts.warmupS * 1000);
  const loadStart = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const server0 = procCpuSeconds(serverPid);
  const t0 = performance.now();
  measuring = true;
  await sleep(opts.durationS * 1000);
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const serverCpu = procCpuSeconds(serverPid) - server0;
  stopping = true;
  await Promise.all(running);
  await pool.close();
  const mem = procRssMb(serverPid);
  return {
    readers,
    seconds: Math.round(wall * 10) / 10,
    requests,
    errors: Object.values(errorKinds).reduce((a, b) => a + b, 0),
    errorKinds,
    rps: Math.round(requests / wall),
    pagesPerSecond: Math.round((pages / wall) * 10) / 10,
    latency: summarize(all.values, all.count),
    byRoute: {
      passage: summarize(samples.passage.values, samples.passage.count),
      audio: summarize(samples.audio.values, samples.audio.count),
      mp3: summarize(samples.mp3.values, samples.mp3.count),
    },
    generatorCpuPct: Math.round(((cpu.user + cpu.system) / 1e6 / wall) * 1000) / 10,
    serverCpuPct: Math.round((serverCpu / wall) * 1000) / 10,
    serverCpuMsPerRequest: requests ? Math.round((serverCpu / requests) * 1e5) / 100 : 0,
    serverRssMb: Math.round(mem.rss),
    serverPeakRssMb: Math.round(mem.peak),
    loadAvg: [Math.round(loadStart * 100) / 100, Math.round(os.loadavg()[0] * 100) / 100],
  };
}

export async function loadBench(options: LoadBenchOptions = {}): Promise<LoadBenchResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[load] ${line}\n`));
  const durationS = options.durationS ?? Number(process.env.LOAD_DURATION_S ?? 60);
  const warmupS = options.warmupS ?? Math.min(5, durationS / 4);
  const readerCounts = options.readers ?? (process.env.LOAD_READERS ? process.env.LOAD_READERS.split(',').map(Number) : [50, 200]);
  const command = options.startCommand ?? process.env.LOAD_START ?? 'npm start';
  const useCache = options.audioCache ?? process.env.LOAD_AUDIO_CACHE !== '0';
  const cacheDir = path.join(root, 'bench', 'results', 'load-audio');

  const server = await startServer(
    command,
    {
      // No background narration: it would compete with the readers for the cores. Requested passages are still
      // narrated (the priority lane), which is how the setup below makes its audio.
      NARRATION_CONCURRENCY: '0',
      NARRATION_PRIORITY_WORKERS: '2',
    },
    log,
  );
  try {
    const idleRssMb = Math.round(procRssMb(server.pid).rss);
    const audioDir = path.join(server.dataDir, 'data', 'audio');
    if (useCache) {
      const n = copyAudio(cacheDir, audioDir);
      if (n) log(`reusing ${n / 2} cached narrations from ${path.relative(root, cacheDir)}`);
    }
    const setupStart = performance.now();
    const walks = await prepareWalks(server.url, options.editions ?? 6, options.passagesPerEdition ?? 6, log);
    const setupMs = performance.now() - setupStart;
    if (useCache) copyAudio(audioDir, cacheDir);
    let mp3Bytes = 0;
    for (const w of walks) for (const p of w.passages) mp3Bytes += fs.statSync(path.join(audioDir, path.basename(p.mp3))).size;
    log(`${walks.reduce((n, w) => n + w.passages.length, 0)} passages of ${walks.length} editions narrated in ${(setupMs / 1000).toFixed(1)} s`);

    const runs: LoadRun[] = [];
    for (const readers of readerCounts) {
      log(`${readers} readers: ${warmupS} s warm-up, ${durationS} s measured (load average ${os.loadavg()[0].toFixed(2)})`);
      runs.push(
        await runReaders(server.url, server.pid, walks, readers, {
          durationS,
          warmupS,
          thinkMs: options.thinkMs ?? [200, 500],
          range: options.range ?? 'bytes=0-65535',
        }),
      );
      // Let the connections close and the server settle before the next run.
      await sleep(2000);
    }
    return {
      url: server.url,
      command,
      startupMs: Math.round(server.startupMs),
      idleRssMb,
      setupMs: Math.round(setupMs),
      editions: walks.map((w) => ({ slug: w.slug, editionId: w.editionId, language: w.language, passages: w.passages.length })),
      mp3Bytes,
      runs,
    };
  } catch (error) {
    log(`server log (tail):\n${fs.readFileSync(server.logFile, 'utf8').split('\n').slice(-20).join('\n')}`);
    throw error;
  } finally {
    await server.stop();
  }
}

/** The target: 200 readers, 0 errors, p99 <= 100 ms (docs/performance.md). */
export const LOAD_TARGET = { readers: 200, p99Ms: 100 };

export function formatLoadBench(result: LoadBenchResult): string {
  const lines = [
    `load: \`${result.command}\` up in ${result.startupMs} ms (${result.idleRssMb} MB RSS idle); ${result.editions.length} editions, ${result.editions.reduce((n, e) => n + e.passages, 0)} narrated passages (setup ${(result.setupMs / 1000).toFixed(1)} s)`,
    'readers  errors   req/s  pages/s   p50 ms   p99 ms   max ms  | p99 passage / audio / mp3 ms | server CPU  CPU/req  generator CPU  server RSS  load avg',
  ];
  for (const r of result.runs) {
    lines.push(
      `${String(r.readers).padStart(7)} ${String(r.errors).padStart(7)} ${String(r.rps).padStart(7)} ${r.pagesPerSecond.toFixed(1).padStart(8)} ${r.latency.p50.toFixed(1).padStart(8)} ${r.latency.p99.toFixed(1).padStart(8)} ${r.latency.max.toFixed(0).padStart(8)}  | ${`${r.byRoute.passage.p99} / ${r.byRoute.audio.p99} / ${r.byRoute.mp3.p99}`.padEnd(28)} | ${`${r.serverCpuPct}%`.padStart(10)} ${`${r.serverCpuMsPerRequest} ms`.padStart(8)} ${`${r.generatorCpuPct}%`.padStart(14)} ${`${r.serverRssMb} MB`.padStart(11)}  ${r.loadAvg[0]}→${r.loadAvg[1]}`,
    );
    if (r.errors) lines.push(`        errors: ${Object.entries(r.errorKinds).map(([k, n]) => `${k} ×${n}`).join(', ')}`);
  }
  const target = result.runs.find((r) => r.readers === LOAD_TARGET.readers);
  if (target) {
    const met = target.errors === 0 && target.latency.p99 <= LOAD_TARGET.p99Ms;
    lines.push(`${LOAD_TARGET.readers} readers: ${target.errors} errors, p99 ${target.latency.p99} ms (target 0 errors, p99 <= ${LOAD_TARGET.p99Ms} ms: ${met ? 'met' : 'NOT met'})`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await loadBench();
  console.log(formatLoadBench(result));
  if (process.env.LOAD_JSON) fs.writeFileSync(process.env.LOAD_JSON, JSON.stringify(result, null, 2));
}
