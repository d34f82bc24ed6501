/**
 * Real child processes for the server suite: `node --import tsx <script>` with its output collected, and
 * `server/bin/start.ts` (what `npm start` runs, from source) on a DATA_DIR, with a stand-in web app so that it does
 * not run Vite. Waits poll on conditions (output seen, the process exited, the API answers), never on a clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT_DIR } from '../../server/config';
import { hashInputs } from '../../server/build';
import { writeFixtureLibrary } from './harness';

export interface NodeProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves when stdout or stderr matches; rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

export function spawnNode(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): NodeProcess {
  const merged: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete merged[k];
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(ROOT_DIR, script), ...args], {
    cwd: ROOT_DIR,
    env: merged,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  child.stdout!.setEncoding('utf8').on('data', (d: string) => ((out += d), notify()));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => ((err += d), notify()));
  let exitCode: number | string | undefined;
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal ?? 'unknown';
      resolve(exitCode);
      notify();
    }),
  );
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern) ?? err.match(pattern);
          if (m) {
            listeners.delete(check);
            resolve(m);
          } else if (exitCode !== undefined) {
            listeners.delete(check);
            reject(new Error(`exited (${exitCode}) before ${pattern} appeared:\n${out}\n${err}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A stand-in for the built web app, stamped as fresh so that start.ts does not run Vite. */
export function stubDist(dir: string): string {
  const distDir = path.join(dir, 'dist');
  fs.mkdirSync(distDir, { recursive: true });
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Lectern</title><div id="root"></div>');
  fs.writeFileSync(path.join(distDir, '.build-stamp'), hashInputs(ROOT_DIR) + '\n');
  return distDir;
}

export interface ServerProcess extends NodeProcess {
  url: string;
  env: NodeJS.ProcessEnv;
}

/** The environment start.ts, content:import, narrate and admin run with on `dataDir`. */
export function serverEnv(work: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const contentDir = path.join(work, 'content');
  if (!fs.existsSync(contentDir)) fs.renameSync(writeFixtureLibrary(0), contentDir);
  return {
    DATA_DIR: dataDir,
    DATABASE_URL: undefined,
    CONTENT_DIR: contentDir,
    DIST_DIR: fs.existsSync(path.join(work, 'dist')) ? path.join(work, 'dist') : stubDist(work),
    HOST: '127.0.0.1',
    NARRATION_CONCURRENCY: '0',
    NARRATION_WAIT_MS: '0',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/** `server/bin/start.ts` on `dataDir`; resolves once it logged that it serves. */
export async function startServerProcess(work: string, dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const port = await freePort();
  const env = serverEnv(work, dataDir, { PORT: String(port), ...extra });
  const proc = spawnNode('server/bin/start.ts', [], env);
  await proc.waitFor(/Lectern is serving at/);
  return { ...proc, url: `http://127.0.0.1:${port}`, env };
}

export const tmpWork = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `lectern-${name}-`));
