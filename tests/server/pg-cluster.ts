/**
 * A throwaway PostgreSQL cluster for the DATABASE_URL suite: TEST_DATABASE_URL when given, otherwise a fresh
 * cluster from Debian's postgresql package (initdb + pg_ctl, run as the postgres user when we are root).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PgCluster {
  url: string;
  stop(): void;
}

function findBin(name: string): string | null {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  for (const v of fs.readdirSync(base).sort().reverse()) {
    const p = path.join(base, v, 'bin', name);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL) || Boolean(findBin('initdb') && findBin('pg_ctl'));
}

export function startPgCluster(): PgCluster {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL, stop() {} };
  const initdb = findBin('initdb')!;
  const pgCtl = findBin('pg_ctl')!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-pg-'));
  fs.chmodSync(dir, 0o777);
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) => {
    if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', [bin, ...args].map((a) => `'${a}'`).join(' ')], { stdio: 'pipe' });
    else execFileSync(bin, args, { stdio: 'pipe' });
  };
  const port = 20000 + Math.floor(Math.random() * 20000);
  run(initdb, ['-D', `${dir}/data`, '-A', 'trust', '-U', 'lectern', '--no-sync']);
  run(pgCtl, ['-D', `${dir}/data`, '-o', `-p ${port} -k ${dir} -F`, '-l', `${dir}/log`, '-w', 'start']);
  return {
    url: `postgres://lectern@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(pgCtl, ['-D', `${dir}/data`, '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
