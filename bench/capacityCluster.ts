/**
 * The parts the capacity bench (bench/capacity.ts) starts and measures: server processes (what `npm start` runs),
 * a counting proxy in front of the object store, HAProxy with a generated configuration, and the PostgreSQL
 * connection count. Everything lives in temporary directories and is stopped by the bench.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../tests/server/processes';
import { sleep } from './capacityReaders';

const root = path.resolve(import.meta.dirname, '..');

export { freePort };

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

export interface ServerProcess {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  startupMs: number;
  logFile: string;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<void>;
  alive(): boolean;
}

/**
 * `node server/bin/start.mjs` (what `npm start` runs) with `env` on a free port, logging to `logFile`; resolves once
 * GET /api/v1/ping answers. The process is node itself, so its pid is the server's.
 */
export async function startServerProcess(name: string, env: NodeJS.ProcessEnv, logFile: string): Promise<ServerProcess> {
  const port = await freePort();
  const out = fs.openSync(logFile, 'a');
  const started = performance.now();
  // CAPACITY_CPU_PROF=<dir>: each server writes a V8 CPU profile there when it stops (node --cpu-prof).
  const prof = process.env.CAPACITY_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CAPACITY_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...prof, path.join(root, 'server/bin/start.mjs')], {
    cwd: root,
    stdio: ['ignore', out, out],
    // The log level is the server's default (one line per API request), as in production, unless LOG_LEVEL is set.
    env: { ...process.env, NODE_OPTIONS: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  fs.closeSync(out);
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const tail = () => fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  for (;;) {
    if (exited) throw new Error(`${name} exited before it answered:\n${tail()}`);
    if (performance.now() - started > 600_000) throw new Error(`${name} did not answer within 10 minutes:\n${tail()}`);
    if (await answers(`${url}/api/v1/ping`)) break;
    await sleep(50);
  }
  const stopWith = async (signal: NodeJS.Signals, graceMs: number) => {
    if (exited) return;
    child.kill(signal);
    const timedOut = await Promise.race([gone.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      child.kill('SIGKILL');
      await gone;
    }
  };
  return {
    name,
    url,
    pid: child.pid!,
    child,
    startupMs: Math.round(performance.now() - started),
    logFile,
    kill: () => stopWith('SIGKILL', 5000),
    stop: () => stopWith('SIGTERM', 15_000),
    alive: () => !exited,
  };
}

export interface CountingProxy {
  url: string;
  /** Requests and response body bytes that went through, by method. */
  counts: Record<string, { requests: number; bytes: number }>;
  close(): Promise<void>;
}

/** An HTTP proxy in front of the object store that counts what the servers ask of it. */
export async function countingProxy(targetPort: number): Promise<CountingProxy> {
  const counts: CountingProxy['counts'] = {};
  const server = http.createServer((req, res) => {
    const entry = (counts[req.method ?? '?'] ??= { requests: 0, bytes: 0 });
    entry.requests++;
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.on('data', (chunk: Buffer) => (entry.bytes += chunk.length));
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The HAProxy binary on PATH (Debian's package puts it in /usr/sbin), or null. */
export function findHaproxy(): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin']) {
    const p = path.join(dir, 'haproxy');
    if (dir && fs.existsSync(p)) return p;
  }
  return null;
}

/**
 * HAProxy's configuration for servers behind one front end: round robin, a health check on /api/v1/ping every
 * 500 ms (down after 3 failures, or at the first refused connection), the same servers unchecked as backups, and
 * retries that move a request to another server when its server refuses the connection, drops it or answers
 * nothing (`retry-on` + `option redispatch`), so that a server killed mid-run costs no reader a request. X-Forwarded-For is replaced, never appended (the servers run with TRUST_PROXY).
 */
export function haproxyConfig(opts: { port: number; servers: { name: string; port: number }[]; log?: boolean }): string {
  return [
    'global',
    '  maxconn 4000',
    // With `log`, one line per request with its timers (Tq/Tw/Tc/Tr/Ta) on standard output: for finding where time goes.
    ...(opts.log ? ['  log stdout format raw local0 info'] : []),
    // One thread: the balancer of a small deployment; its CPU is reported.
    '  nbthread 1',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 30s',
    '  timeout http-keep-alive 60s',
    '  timeout queue 30s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on all-retryable-errors',
    ...(opts.log ? ['  log global', '  option httplog'] : []),
    '',
    'frontend readers',
    `  bind 127.0.0.1:${opts.port}`,
    '  http-request set-header X-Forwarded-For %[src]',
    '  http-request set-header X-Forwarded-Proto http',
    '  default_backend lectern',
    '',
    'backend lectern',
    '  balance roundrobin',
    '  option httpchk GET /api/v1/ping',
    '  http-check expect status 200',
    // A check may take as long as a loaded server's slowest answer (not just `inter`), or a busy server is taken
    // for a dead one; a refused connection (a server that is gone) marks it down at once.
    '  timeout check 5s',
    '  default-server inter 500ms fall 3 rise 2 observe layer4 error-limit 1 on-error mark-down',
    ...opts.servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    // When every server has missed its checks (all alive but starved of CPU, as on an overloaded machine), the same
    // servers unchecked still take the requests rather than HAProxy answering 503 itself; a refused connection
    // there is retried on the next one.
    '  option allbackups',
    ...opts.servers.map((s) => `  server ${s.name}-unchecked 127.0.0.1:${s.port} backup`),
    '',
  ].join('\n');
}

export interface Haproxy {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Write the configuration into `dir` and run HAProxy on `port` in the foreground (-db); resolves once the front end answers. */
export async function startHaproxy(bin: string, dir: string, servers: { name: string; url: string }[], port: number): Promise<Haproxy> {
  const cfg = path.join(dir, 'haproxy.cfg');
  const log = Boolean(process.env.CAPACITY_HAPROXY_LOG);
  fs.writeFileSync(cfg, haproxyConfig({ port, log, servers: servers.map((s) => ({ name: s.name, port: Number(new URL(s.url).port) })) }));
  const check = spawnSync(bin, ['-c', '-f', cfg], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration:\n${check.stdout}${check.stderr}`);
  const logFile = path.join(dir, 'haproxy.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(bin, ['-db', '-f', cfg], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (exited) throw new Error(`haproxy exited:\n${fs.readFileSync(logFile, 'utf8')}`);
    if (performance.now() - started > 30_000) throw new Error(`haproxy did not answer:\n${fs.readFileSync(logFile, 'utf8')}`);
    if (await answers(`${url}/api/v1/ping`)) break;
    await sleep(50);
  }
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await Promise.race([gone, sleep(5000).then(() => child.kill('SIGKILL'))]);
      }
      // CAPACITY_HAPROXY_LOG=<file>: keep the request log.
      if (log) fs.copyFileSync(logFile, process.env.CAPACITY_HAPROXY_LOG!);
    },
  };
}

/** Process CPU seconds from /proc/<pid>/stat: own (utime + stime) and ended children (cutime + cstime). */
function statCpu(pid: number): { own: number; children: number; ppid: number } | null {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); ppid is field 4, utime 14, stime 15, cutime 16, cstime 17; clock ticks of 1/100 s.
    return { ppid: Number(fields[1]), own: (Number(fields[11]) + Number(fields[12])) / 100, children: (Number(fields[13]) + Number(fields[14])) / 100 };
  } catch {
    return null;
  }
}

/**
 * CPU seconds of a process and its children, live and ended: what a PostgreSQL postmaster and its backends have
 * used, whose backends come and go with the connections.
 */
export function processFamilyCpuSeconds(rootPid: number): number {
  const rootStat = statCpu(rootPid);
  if (!rootStat) return 0;
  let total = rootStat.own + rootStat.children;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = statCpu(Number(name));
    if (st && st.ppid === rootPid) total += st.own;
  }
  return total;
}

/** The parent of a process (for a PostgreSQL backend: the postmaster), or null. */
export function parentPid(pid: number): number | null {
  return statCpu(pid)?.ppid ?? null;
}
