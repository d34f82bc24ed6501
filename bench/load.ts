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
import os from 'node:os';
import path from 'node:path';
import { freePort } from './capacityCluster';
import { procCpuSeconds, procRssMb, runReaders, sleep, type LatencySummary, type ReaderRun, type Walk } from './capacityReaders';
import { copyAudio, prepareWalks } from './walks';

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
  /** The server command (run by a shell in the repository). @default LOAD_START or 'npm start' */
  startCommand?: string;
  /** Reuse narrations kept in bench/results/load-audio (keys name their content). @default LOAD_AUDIO_CACHE !== '0' */
  audioCache?: boolean;
  /** Progress lines. @default stderr */
  log?: (line: string) => void;
}

export type { LatencySummary };

/** A run of the readers: the counts it shares with the capacity bench's runs (bench/capacityReaders.ts), and its own figures. */
export interface LoadRun extends Pick<ReaderRun, 'readers' | 'seconds' | 'requests' | 'errors' | 'errorKinds' | 'rps'> {
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

/**
 * Run `readers` simulated readers for warmup + duration seconds, each turning pages (passage, narration metadata,
 * the MP3's first range; bench/capacityReaders.ts with `pagesOnly`), and measure the last `duration` seconds with
 * the server's CPU and memory.
 */
async function runPageReaders(url: string, serverPid: number, walks: Walk[], readers: number, opts: { durationS: number; warmupS: number; thinkMs: [number, number] }): Promise<LoadRun> {
  let server0 = 0;
  const run = await runReaders(url, walks, { readers, ...opts, pingConnections: 0, pingEveryMs: 1000, pagesOnly: true, onMeasureStart: () => (server0 = procCpuSeconds(serverPid)) });
  const serverCpu = procCpuSeconds(serverPid) - server0;
  const mem = procRssMb(serverPid);
  const { passage, audio, mp3 } = run.byRoute;
  return {
    readers,
    seconds: run.seconds,
    requests: run.requests,
    errors: run.errors,
    errorKinds: run.errorKinds,
    rps: run.rps,
    pagesPerSecond: run.pagesPerSecond,
    latency: run.app,
    byRoute: { passage, audio, mp3 },
    generatorCpuPct: run.generatorCpuPct,
    serverCpuPct: Math.round((serverCpu / run.seconds) * 1000) / 10,
    serverCpuMsPerRequest: run.requests ? Math.round((serverCpu / run.requests) * 1e5) / 100 : 0,
    serverRssMb: Math.round(mem.rss),
    serverPeakRssMb: Math.round(mem.peak),
    loadAvg: run.loadAvg,
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
        await runPageReaders(server.url, server.pid, walks, readers, { durationS, warmupS, thinkMs: options.thinkMs ?? [200, 500] }),
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
