/**
 * e2e/support/freshDataDir.ts, which playwright.config.ts runs before the e2e server instead of `rm -rf DATA_DIR`:
 * with real processes, it empties a folder nobody uses or whose lock was left by a killed process, and refuses,
 * naming the holder and removing nothing, while a live process holds the lock (server/db/lock.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../server/db/lock';
import { ROOT_DIR } from '../../server/config';
import { spawnNode, tmpWork, type NodeProcess } from './processes';

const work = tmpWork('fresh-data-dir');
const started: NodeProcess[] = [];
const track = <T extends NodeProcess>(p: T) => (started.push(p), p);

afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

const fresh = (dataDir: string | undefined, env: NodeJS.ProcessEnv = {}) =>
  track(spawnNode('e2e/support/freshDataDir.ts', dataDir === undefined ? [] : [dataDir], { DATA_DIR: undefined, ...env }));
/** A child that takes only DATA_DIR's lock (tests/server/lockHolder.ts), like a running server. */
const holder = (dataDir: string) => track(spawnNode('tests/server/lockHolder.ts', ['lock', dataDir]));

/** A data folder as a previous run leaves it: database files, audio, the outbox. */
function used(name: string): string {
  const dataDir = path.join(work, name);
  fs.mkdirSync(path.join(dataDir, 'base', '1'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'base', '1', '1259'), 'pages');
  fs.writeFileSync(path.join(dataDir, 'PG_VERSION'), '17\n');
  fs.mkdirSync(path.join(dataDir, 'outbox'));
  fs.writeFileSync(path.join(dataDir, 'outbox', 'a.eml'), 'mail');
  return dataDir;
}

describe('freshDataDir.ts', { timeout: 120_000 }, () => {
  it('empties a folder that no process uses (DATA_DIR from the environment, as playwright.config.ts passes it)', async () => {
    const dataDir = used('unused');
    const run = fresh(undefined, { DATA_DIR: dataDir });
    expect(await run.exited, run.stderr()).toBe(0);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('makes the folder when it is missing', async () => {
    const dataDir = path.join(work, 'missing', 'data');
    const run = fresh(dataDir);
    expect(await run.exited, run.stderr()).toBe(0);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses while a live process holds the lock, names it, and removes nothing; then empties it once that ends', async () => {
    const dataDir = used('held');
    const live = holder(dataDir);
    await live.waitFor(/^held \d+/m);
    const lockBefore = fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8');

    const refused = fresh(dataDir);
    expect(await refused.exited).toBe(1);
    const message = refused.stderr();
    expect(message).toContain(`e2e: not emptying ${dataDir} for this run's server: another process is using its database`);
    expect(message).toMatch(new RegExp(`pid ${live.pid} \\(lock test: .*lockHolder\\.ts lock .*\\), since \\d{4}-`));
    expect(message).toContain(`kill ${live.pid}`);
    expect(message).toContain('E2E_DATA_DIR');
    expect(fs.readdirSync(dataDir).sort()).toEqual(['PG_VERSION', 'base', LOCK_FILE, 'outbox']);
    expect(fs.readFileSync(path.join(dataDir, 'base', '1', '1259'), 'utf8')).toBe('pages');
    expect(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).toBe(lockBefore);

    live.child.stdin!.end();
    expect(await live.exited).toBe(0);
    const run = fresh(dataDir);
    expect(await run.exited, run.stderr()).toBe(0);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('empties a folder whose lock was left by a killed process', async () => {
    const dataDir = used('stale');
    const crashed = holder(dataDir);
    await crashed.waitFor(/^held \d+/m);
    crashed.child.kill('SIGKILL');
    expect(await crashed.exited).toBe('SIGKILL');
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);
    const run = fresh(dataDir);
    expect(await run.exited, run.stderr()).toBe(0);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses no folder at all, and the checkout or a folder above it', async () => {
    const none = fresh(undefined);
    expect(await none.exited).toBe(2);
    expect(none.stderr()).toContain('usage: freshDataDir.ts <dataDir>');
    for (const dir of [ROOT_DIR, path.dirname(ROOT_DIR)]) {
      const run = fresh(dir);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toContain(`e2e: refusing to empty ${dir}`);
    }
    expect(fs.existsSync(path.join(ROOT_DIR, 'package.json'))).toBe(true);
  });
});
