/**
 * The exclusive lock on DATA_DIR (server/db/lock.ts), with real processes: a second opener of the embedded database
 * is refused at once and told who holds it; a lock left by a killed process is taken over, by exactly one of
 * several processes racing for it; and a second `npm start` (server/bin/start.ts), `content:import` and `narrate`
 * are refused while a server runs, while the admin CLI still works through the server's socket.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, acquireDataDirLock } from '../../server/db/lock';
import { spawnNode, startServerProcess, serverEnv, tmpWork, type NodeProcess } from './processes';

const work = tmpWork('lock');
const started: NodeProcess[] = [];
const track = <T extends NodeProcess>(p: T) => (started.push(p), p);

afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

const holder = (mode: 'open' | 'lock', dataDir: string) => track(spawnNode('tests/server/lockHolder.ts', [mode, dataDir]));
const readLock = (dataDir: string) => JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));

/** Close the holder's stdin: it releases the lock and exits 0. */
async function finish(p: NodeProcess) {
  p.child.stdin!.end();
  expect(await p.exited).toBe(0);
}

// Real processes (tsx, PGlite's first start) on a small shared machine: generous timeouts; nothing waits on a clock.
describe('the DATA_DIR lock', { timeout: 240_000 }, () => {
  it('refuses a second opener at once, naming the process that holds it, and frees the folder on close', async () => {
    const dataDir = path.join(work, 'two-openers');
    const first = holder('open', dataDir);
    await first.waitFor(/^held \d+/m);
    expect(readLock(dataDir)).toMatchObject({ pid: first.pid, purpose: 'lock test' });

    const second = holder('open', dataDir);
    expect(await second.exited).toBe(3);
    expect(second.stdout()).toBe('');
    const message = second.stderr();
    expect(message).toContain(`The embedded database in ${dataDir} is in use by another process`);
    expect(message).toMatch(new RegExp(`pid ${first.pid} \\(lock test: .*lockHolder\\.ts open .*\\), since \\d{4}-\\d\\d-\\d\\dT`));
    expect(message).toContain(`kill ${first.pid}`);
    expect(message).toContain('DATABASE_URL');

    await finish(first);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    const third = holder('open', dataDir);
    await third.waitFor(/^held \d+/m);
    await finish(third);
  });

  it('takes over a lock whose process was killed (SIGKILL leaves it behind)', async () => {
    const dataDir = path.join(work, 'stale');
    const crashed = holder('open', dataDir);
    await crashed.waitFor(/^held \d+/m);
    crashed.child.kill('SIGKILL');
    expect(await crashed.exited).toBe('SIGKILL');
    expect(readLock(dataDir).pid).toBe(crashed.pid);

    const next = holder('open', dataDir);
    await next.waitFor(/^held \d+/m);
    expect(readLock(dataDir).pid).toBe(next.pid);
    // No takeover guard or temporary file is left behind.
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(LOCK_FILE))).toEqual([LOCK_FILE]);
    await finish(next);
  });

  it.skipIf(!fs.existsSync('/proc/self/stat'))('knows a reused pid from the holder by its start time (Linux)', async () => {
    const dataDir = path.join(work, 'reused-pid');
    fs.mkdirSync(dataDir, { recursive: true });
    // A live process (our parent) under a record whose start time is not its own: a previous holder with its pid.
    const record = (procStart: string | null) => ({
      pid: process.ppid,
      nonce: 'ab'.repeat(16),
      purpose: 'server',
      command: 'node server/bin/start.mjs',
      startedAt: '2026-01-01T00:00:00.000Z',
      hostname: 'old-container',
      procStart,
    });
    const parentStart = fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify(record(parentStart)));
    await expect(acquireDataDirLock(dataDir, 'lock test')).rejects.toThrow(`pid ${process.ppid} on old-container (server: `);
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify(record('1')));
    const lock = await acquireDataDirLock(dataDir, 'lock test');
    expect(readLock(dataDir).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('lets exactly one of several processes take over a stale lock at once', async () => {
    const dataDir = path.join(work, 'race');
    const crashed = holder('lock', dataDir);
    await crashed.waitFor(/^held \d+/m);
    crashed.child.kill('SIGKILL');
    await crashed.exited;

    const racers = Array.from({ length: 4 }, () => holder('lock', dataDir));
    const outcomes = await Promise.all(
      racers.map((r) => Promise.race([r.waitFor(/^held \d+/m).then(() => 'held' as const), r.exited.then((code) => (code === 3 ? ('refused' as const) : code))])),
    );
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'refused')).toHaveLength(3);
    const winner = racers[outcomes.indexOf('held')];
    expect(readLock(dataDir).pid).toBe(winner.pid);
    for (const loser of racers.filter((r) => r !== winner)) expect(loser.stderr()).toContain(`pid ${winner.pid} (lock test`);
    await finish(winner);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(LOCK_FILE))).toEqual([]);
  });

  it('refuses a second npm start, content:import and narrate while a server runs; the admin CLI goes through the server', async () => {
    const dataDir = path.join(work, 'server');
    const server = track(await startServerProcess(work, dataDir));
    expect(readLock(dataDir)).toMatchObject({ pid: server.pid, purpose: 'server' });
    expect(fs.readFileSync(path.join(dataDir, 'server.pid'), 'utf8')).toBe(String(server.pid));

    const second = track(spawnNode('server/bin/start.ts', [], { ...server.env, PORT: '0' }));
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`The embedded database in ${dataDir} is in use by another process`);
    expect(second.stderr()).toMatch(new RegExp(`pid ${server.pid} \\(server: .*start\\.ts\\), since `));
    expect(second.stdout()).not.toContain('Lectern is serving');
    // The refused server changed nothing: the first still serves, and still owns the lock and server.pid.
    expect((await fetch(`${server.url}/api/v1/health`)).status).toBe(200);
    expect(readLock(dataDir).pid).toBe(server.pid);
    expect(fs.readFileSync(path.join(dataDir, 'server.pid'), 'utf8')).toBe(String(server.pid));

    const env = serverEnv(work, dataDir);
    const importer = track(spawnNode('server/bin/content-import.ts', [], env));
    expect(await importer.exited).toBe(1);
    expect(importer.stderr()).toContain(`pid ${server.pid} (server: `);
    expect(importer.stderr()).toContain('npm start also imports content/ when it starts');
    const narrate = track(spawnNode('server/bin/narrate.ts', [], env));
    expect(await narrate.exited).toBe(1);
    expect(narrate.stderr()).toContain(`pid ${server.pid} (server: `);

    const admin = track(spawnNode('server/bin/admin.ts', ['org', 'create', 'Locked Primary'], env));
    expect(await admin.exited, admin.stderr()).toBe(0);
    expect(admin.stdout()).toMatch(/^Created organization 'Locked Primary'/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);

    // With the server gone, the CLI opens the database itself (and takes the lock meanwhile).
    const list = track(spawnNode('server/bin/admin.ts', ['license', 'list'], env));
    expect(await list.exited, list.stderr()).toBe(0);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });
});
