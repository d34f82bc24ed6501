/**
 * Simulated readers for the capacity bench (bench/capacity.ts), each doing what the reader app does on one device:
 *
 *   GET /api/v1/publications                          the catalog
 *   GET /api/v1/publications/{slug}                   the title it picks
 *   then page by page through an edition:
 *     GET /api/v1/passages?editionId=&position=       the passage
 *     GET /api/v1/passages/{id}/audio?editionId=      its narration (url, speech marks, duration)
 *     GET /audio/{key}.mp3  Range: bytes=0-65535       the first range the audio element asks for
 *     GET /audio/{key}.mp3  Range: bytes=65536-        the rest, as playback goes on (when the file is longer)
 *   a pause, the next page; after the edition's last walked page, back to the catalog for another title.
 *
 * Beside them, a few probe connections ask GET /api/v1/ping at a steady pace, so that the app's latency can be set
 * against the floor of the same server under the same load, in the same run. Each reader has its own keep-alive
 * connection (an undici Pool with one connection per reader), requests are not conditional (a fresh browser cache),
 * and a request counts as an error when it fails or answers another status than the one a reader expects.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Pool } from 'undici';

export interface WalkPassage {
  position: number;
  id: number;
  /** The MP3's address (`/audio/{key}.mp3`) and size in bytes. */
  mp3: string;
  mp3Bytes: number;
}
export interface Walk {
  slug: string;
  editionId: number;
  language: string;
  passages: WalkPassage[];
}

export type RouteKind = 'catalog' | 'title' | 'passage' | 'audio' | 'mp3' | 'ping';
const EXPECTED: Record<RouteKind, number> = { catalog: 200, title: 200, passage: 200, audio: 200, mp3: 206, ping: 200 };
export const APP_ROUTES = ['catalog', 'title', 'passage', 'audio', 'mp3'] as const;

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** A growable list of latencies, ms. */
export class Samples {
  values = new Float64Array(1 << 14);
  count = 0;
  push(v: number): void {
    if (this.count === this.values.length) {
      const next = new Float64Array(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.count++] = v;
  }
  /** Nearest-rank percentiles, rounded to 0.1 ms. */
  summary(): LatencySummary {
    const count = this.count;
    if (count === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0 };
    const sorted = this.values.slice(0, count).sort();
    const at = (q: number) => sorted[Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1))];
    const round = (v: number) => Math.round(v * 10) / 10;
    return { count, p50: round(at(0.5)), p90: round(at(0.9)), p99: round(at(0.99)), max: round(sorted[count - 1]) };
  }
}

/** utime + stime of a process (all its threads), in seconds, from /proc; 0 when it is gone or there is no /proc. */
export function procCpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime is field 14 and stime field 15 of the stat line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** Resident memory now and at its peak (VmHWM), MB; zeros when the process is gone. */
export function procRssMb(pid: number): { rss: number; peak: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ReaderRunOptions {
  readers: number;
  /** Measured seconds. */
  durationS: number;
  /** Seconds of load before measuring, not counted. */
  warmupS: number;
  /** A reader's pause between pages, ms. */
  thinkMs: [number, number];
  /** Probe connections asking /ping, and each one's pause between probes, ms. */
  pingConnections: number;
  pingEveryMs: number;
  /** The MP3s come from a CDN in front of /audio: the readers do not ask the server for them. */
  audioFromCdn?: boolean;
  /**
   * Pages only (bench/load.ts): the readers ask for no catalog and no title between editions, and for an MP3's first
   * range only. @default false
   */
  pagesOnly?: boolean;
  /** Extra headers on every request (e.g. X-Forwarded-For for a reader's own address behind a balancer). */
  headersFor?: (reader: number) => Record<string, string>;
  /** Called once the measured window opens, and every `tickMs` during it (for sampling other processes). */
  onMeasureStart?: () => void;
  onTick?: (elapsedS: number) => void | Promise<void>;
  tickMs?: number;
  /** Called once, this far into the measured window (seconds): e.g. to kill a server mid-run. */
  midRun?: { atS: number; run: () => void | Promise<void> };
}

export interface ReaderRun {
  readers: number;
  seconds: number;
  requests: number;
  errors: number;
  /** Errors by kind: `status 503 passage`, `ECONNRESET mp3`, … */
  errorKinds: Record<string, number>;
  /** App requests a second (pings not counted). */
  rps: number;
  pages: number;
  pagesPerSecond: number;
  /** Latency of every app request, and per route; /ping separately. */
  app: LatencySummary;
  byRoute: Record<(typeof APP_ROUTES)[number], LatencySummary>;
  ping: LatencySummary;
  /** app p99 / ping p99. */
  p99Ratio: number;
  /** Response body bytes the readers received, all and MP3 only. */
  bodyBytes: number;
  mp3Bytes: number;
  /** CPU of this process (the load generator) as a share of one core, %. */
  generatorCpuPct: number;
  loadAvg: [number, number];
}

/** Run the readers and the /ping probes for warmup + duration seconds against `url`; measure the last `duration`. */
export async function runReaders(url: string, walks: Walk[], opts: ReaderRunOptions): Promise<ReaderRun> {
  const pool = new Pool(url, { connections: opts.readers, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 120_000 });
  const pingPool = new Pool(url, { connections: opts.pingConnections, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 120_000 });
  const samples: Record<RouteKind, Samples> = {
    catalog: new Samples(),
    title: new Samples(),
    passage: new Samples(),
    audio: new Samples(),
    mp3: new Samples(),
    ping: new Samples(),
  };
  const app = new Samples();
  const errorKinds: Record<string, number> = {};
  let measuring = false;
  let stopping = false;
  let requests = 0;
  let pages = 0;
  let bodyBytes = 0;
  let mp3Bytes = 0;

  async function hit(kind: RouteKind, p: string, headers: Record<string, string> | undefined): Promise<boolean> {
    const target = kind === 'ping' ? pingPool : pool;
    // A request belongs to the measured window when it starts in it (one sent during the warm-up is not counted,
    // however late it ends).
    const counted = measuring;
    const t0 = performance.now();
    let status = 0;
    let error: string | null = null;
    let bytes = 0;
    try {
      const res = await target.request({ path: p, method: 'GET', headers });
      status = res.statusCode;
      for await (const chunk of res.body) bytes += (chunk as Buffer).length;
    } catch (e) {
      error = (e as { code?: string }).code ?? (e as Error).message;
    }
    const ms = performance.now() - t0;
    if (!counted) return error === null && status === EXPECTED[kind];
    samples[kind].push(ms);
    if (kind !== 'ping') {
      requests++;
      app.push(ms);
      bodyBytes += bytes;
      if (kind === 'mp3') mp3Bytes += bytes;
    }
    if (error !== null || status !== EXPECTED[kind]) {
      const k = `${error ?? `status ${status}`} ${kind}`;
      errorKinds[k] = (errorKinds[k] ?? 0) + 1;
      return false;
    }
    return true;
  }

  const pause = () => sleep(opts.thinkMs[0] + Math.random() * (opts.thinkMs[1] - opts.thinkMs[0]));

  async function reader(index: number): Promise<void> {
    const headers = opts.headersFor?.(index);
    const rangeHeaders = { ...headers, range: 'bytes=0-65535' };
    const restHeaders = { ...headers, range: 'bytes=65536-' };
    // Readers arrive spread over the first pause, not all at once, and start on different pages.
    await sleep(Math.random() * opts.thinkMs[1]);
    let walk = walks[index % walks.length];
    let at = Math.floor(Math.random() * walk.passages.length);
    while (!stopping) {
      if (!opts.pagesOnly) {
        await hit('catalog', '/api/v1/publications', headers);
        await hit('title', `/api/v1/publications/${walk.slug}`, headers);
      }
      for (; at < walk.passages.length && !stopping; at++) {
        const p = walk.passages[at];
        await hit('passage', `/api/v1/passages?editionId=${walk.editionId}&position=${p.position}`, headers);
        await hit('audio', `/api/v1/passages/${p.id}/audio?editionId=${walk.editionId}`, headers);
        if (!opts.audioFromCdn) {
          await hit('mp3', p.mp3, rangeHeaders);
          if (p.mp3Bytes > 65536 && !opts.pagesOnly) await hit('mp3', p.mp3, restHeaders);
        }
        if (measuring) pages++;
        await pause();
      }
      walk = walks[Math.floor(Math.random() * walks.length)];
      at = 0;
    }
  }

  async function prober(): Promise<void> {
    await sleep(Math.random() * opts.pingEveryMs);
    while (!stopping) {
      await hit('ping', '/api/v1/ping', undefined);
      await sleep(opts.pingEveryMs);
    }
  }

  const running = [
    ...Array.from({ length: opts.readers }, (_, i) => reader(i)),
    ...Array.from({ length: opts.pingConnections }, () => prober()),
  ];
  await sleep(opts.warmupS * 1000);
  const loadStart = os.loadavg()[0];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  opts.onMeasureStart?.();
  let midRunDone = !opts.midRun;
  const tickMs = opts.tickMs ?? 1000;
  while (performance.now() - t0 < opts.durationS * 1000) {
    await sleep(Math.min(tickMs, opts.durationS * 1000 - (performance.now() - t0)));
    const elapsed = (performance.now() - t0) / 1000;
    if (!midRunDone && elapsed >= opts.midRun!.atS) {
      midRunDone = true;
      await opts.midRun!.run();
    }
    await opts.onTick?.(elapsed);
  }
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  stopping = true;
  await Promise.all(running);
  await Promise.all([pool.close(), pingPool.close()]);
  const appSummary = app.summary();
  const pingSummary = samples.ping.summary();
  return {
    readers: opts.readers,
    seconds: Math.round(wall * 10) / 10,
    requests,
    errors: Object.values(errorKinds).reduce((a, b) => a + b, 0),
    errorKinds,
    rps: Math.round(requests / wall),
    pages,
    pagesPerSecond: Math.round((pages / wall) * 10) / 10,
    app: appSummary,
    byRoute: {
      catalog: samples.catalog.summary(),
      title: samples.title.summary(),
      passage: samples.passage.summary(),
      audio: samples.audio.summary(),
      mp3: samples.mp3.summary(),
    },
    ping: pingSummary,
    p99Ratio: pingSummary.p99 > 0 ? Math.round((appSummary.p99 / pingSummary.p99) * 100) / 100 : NaN,
    bodyBytes,
    mp3Bytes,
    generatorCpuPct: Math.round(((cpu.user + cpu.system) / 1e6 / wall) * 1000) / 10,
    loadAvg: [Math.round(loadStart * 100) / 100, Math.round(os.loadavg()[0] * 100) / 100],
  };
}

/**
 * Closed-loop GET /passages from `connections` connections for `durationS` seconds (after a short warm-up), over the
 * walked passages: requests, and the CPU seconds the server processes spent meanwhile, for requests per CPU-second.
 */
export async function runPassagesOnly(
  url: string,
  walks: Walk[],
  opts: { connections: number; durationS: number; warmupS: number; serverPids: number[] },
): Promise<{ requests: number; errors: number; seconds: number; serverCpuS: number; requestsPerCpuSecond: number; p99: number }> {
  const pool = new Pool(url, { connections: opts.connections, pipelining: 1 });
  const targets = walks.flatMap((w) => w.passages.map((p) => `/api/v1/passages?editionId=${w.editionId}&position=${p.position}`));
  const lat = new Samples();
  let measuring = false;
  let stopping = false;
  let requests = 0;
  let errors = 0;
  const worker = async (i: number) => {
    for (let n = i; !stopping; n++) {
      const counted = measuring;
      const t0 = performance.now();
      let ok = false;
      try {
        const res = await pool.request({ path: targets[n % targets.length], method: 'GET' });
        await res.body.dump({ limit: 1 << 24 });
        ok = res.statusCode === 200;
      } catch {
        ok = false;
      }
      if (!counted) continue;
      requests++;
      if (!ok) errors++;
      lat.push(performance.now() - t0);
    }
  };
  const running = Array.from({ length: opts.connections }, (_, i) => worker(i));
  await sleep(opts.warmupS * 1000);
  const cpu0 = opts.serverPids.reduce((s, pid) => s + procCpuSeconds(pid), 0);
  const t0 = performance.now();
  measuring = true;
  await sleep(opts.durationS * 1000);
  measuring = false;
  const serverCpuS = opts.serverPids.reduce((s, pid) => s + procCpuSeconds(pid), 0) - cpu0;
  const seconds = (performance.now() - t0) / 1000;
  stopping = true;
  await Promise.all(running);
  await pool.close();
  return {
    requests,
    errors,
    seconds: Math.round(seconds * 10) / 10,
    serverCpuS: Math.round(serverCpuS * 100) / 100,
    requestsPerCpuSecond: serverCpuS > 0 ? Math.round(requests / serverCpuS) : 0,
    p99: lat.summary().p99,
  };
}
