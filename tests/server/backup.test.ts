/**
 * `npm run admin -- backup <file>` and `restore <file> [--force]` (server/admin/backup.ts): back up, change the data,
 * restore, and the data is as it was at the backup. On PGlite with no server (the CLI takes DATA_DIR's lock), while a
 * server runs (the backup goes through its admin socket; a restore is refused), and on a real PostgreSQL (pg_dump,
 * pg_restore) when one is available.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runAdminCli } from '../../server/bin/admin';
import { openDatabase } from '../../server/db/client';
import { organization } from '../../server/db/schema';
import { restoreEnv, startFixtureServer, writeFixtureLibrary } from './harness';
import { postgresAvailable, startPgCluster } from './pg-cluster';
import { tmpWork } from './processes';

const work = tmpWork('backup');
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

afterAll(() => {
  restoreEnv(saved);
  fs.rmSync(work, { recursive: true, force: true });
});

/** `npm run admin -- …argv` as the CLI runs it, with DATA_DIR / DATABASE_URL from process.env. */
async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: work });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function orgSlugs(options: { dataDir?: string; databaseUrl?: string }): Promise<string[]> {
  const database = await openDatabase(options);
  try {
    return (await database.db.select({ slug: organization.slug }).from(organization)).map((o) => o.slug).sort();
  } finally {
    await database.close();
  }
}

describe('backup and restore on PGlite', { timeout: 180_000 }, () => {
  beforeEach(() => {
    delete process.env.DATABASE_URL;
  });

  it('round-trips with no server running, refuses a non-empty DATA_DIR without --force, and fills an empty one', async () => {
    const dataDir = path.join(work, 'offline');
    process.env.DATA_DIR = dataDir;
    expect((await admin('org', 'create', 'Before Backup')).code).toBe(0);

    const backedUp = await admin('backup', 'offline.tar.gz');
    expect(backedUp.code, backedUp.err).toBe(0);
    const file = path.join(work, 'offline.tar.gz');
    expect(backedUp.out).toContain(`Backed up the database (PGlite in ${dataDir}) to ${file}`);
    expect(backedUp.out).toContain('narration audio');
    expect(backedUp.out).toContain('made again from the text');
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(fs.readdirSync(work).filter((f) => f.includes('.partial'))).toEqual([]);

    expect((await admin('org', 'create', 'After Backup')).code).toBe(0);
    expect(await orgSlugs({ dataDir })).toEqual(['after-backup', 'before-backup']);

    const refused = await admin('restore', 'offline.tar.gz');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`${dataDir} already holds a database`);
    expect(refused.err).toContain('--force');
    expect(await orgSlugs({ dataDir })).toEqual(['after-backup', 'before-backup']);

    fs.mkdirSync(path.join(dataDir, 'audio'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'audio', 'kept.mp3'), 'mp3');
    const restored = await admin('restore', 'offline.tar.gz', '--force');
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toContain(`Restored ${file} into ${dataDir} (the database that was there is replaced)`);
    expect(restored.out).toContain('made again from the text');
    expect(await orgSlugs({ dataDir })).toEqual(['before-backup']);
    // Audio is not in the backup, and the restore leaves it where it was.
    expect(fs.readFileSync(path.join(dataDir, 'audio', 'kept.mp3'), 'utf8')).toBe('mp3');
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('.restore') || f.startsWith('lectern.lock'))).toEqual([]);

    // An empty DATA_DIR needs no --force.
    const fresh = path.join(work, 'fresh');
    process.env.DATA_DIR = fresh;
    const intoEmpty = await admin('restore', file);
    expect(intoEmpty.code, intoEmpty.err).toBe(0);
    expect(await orgSlugs({ dataDir: fresh })).toEqual(['before-backup']);
  });

  it('refuses bad input clearly', async () => {
    process.env.DATA_DIR = path.join(work, 'bad');
    const missing = await admin('restore', 'no-such.tar.gz');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: Cannot read .*no-such\.tar\.gz: ENOENT/);
    fs.writeFileSync(path.join(work, 'notes.txt'), 'hello');
    const notBackup = await admin('restore', 'notes.txt');
    expect(notBackup.code).toBe(1);
    expect(notBackup.err).toContain('is not a Lectern backup');
    // A folder that is not a database is never overwritten, even with --force.
    const other = path.join(work, 'someone-else');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'thesis.docx'), 'precious');
    process.env.DATA_DIR = other;
    fs.writeFileSync(path.join(work, 'fake.tar.gz'), Buffer.from([0x1f, 0x8b, 0, 0]));
    const notEmpty = await admin('restore', 'fake.tar.gz', '--force');
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.err).toContain('is neither empty nor a database');
    expect(fs.readFileSync(path.join(other, 'thesis.docx'), 'utf8')).toBe('precious');
    // A corrupt backup into an empty folder: refused, and nothing is left behind.
    const empty = path.join(work, 'empty');
    process.env.DATA_DIR = empty;
    const corrupt = await admin('restore', 'fake.tar.gz');
    expect(corrupt.code).toBe(1);
    expect(corrupt.err).toContain('could not be loaded as a Lectern backup');
    expect(fs.readdirSync(empty)).toEqual([]);
    // A backup of a DATA_DIR with no database makes none.
    process.env.DATA_DIR = path.join(work, 'nothing-here');
    const nothing = await admin('backup', 'nothing.tar.gz');
    expect(nothing.code).toBe(1);
    expect(nothing.err).toContain('There is no database in');
    expect(fs.existsSync(path.join(work, 'nothing-here', 'PG_VERSION'))).toBe(false);
    expect(fs.existsSync(path.join(work, 'nothing.tar.gz'))).toBe(false);
    // Usage errors.
    expect((await admin('backup')).code).toBe(2);
    expect((await admin('restore', 'a', 'b')).code).toBe(2);
    expect((await admin('restore', 'a', '--yes')).code).toBe(2);
  });

  it('backs up through a running server, refuses to restore under it, and restores once it stopped', async () => {
    const dataDir = path.join(work, 'online');
    process.env.DATA_DIR = dataDir;
    let server = await startFixtureServer({ dataDir, contentDir: writeFixtureLibrary(0) });
    try {
      expect((await admin('org', 'create', 'Served Before')).code).toBe(0);
      fs.writeFileSync(path.join(dataDir, 'audio', 'narrated.mp3'), 'an MP3');
      const backedUp = await admin('backup', path.join(work, 'online.tar.gz'));
      expect(backedUp.code, backedUp.err).toBe(0);
      expect(backedUp.out).toContain('through the running server');
      // The database's files only: not the audio, the session secret, the admin socket or token, nor the lock.
      const tar = zlib.gunzipSync(fs.readFileSync(path.join(work, 'online.tar.gz'))).toString('latin1');
      expect(tar).toContain('PG_VERSION');
      for (const name of ['narrated.mp3', 'auth-secret', 'admin.sock', 'admin.token', 'lectern.lock']) expect(tar).not.toContain(name);
      expect((await admin('org', 'create', 'Served After')).code).toBe(0);

      const underServer = await admin('restore', 'online.tar.gz', '--force');
      expect(underServer.code).toBe(1);
      expect(underServer.err).toContain(`pid ${process.pid} (server: `);
      expect(underServer.err).toContain('stop it first');
    } finally {
      await server.stop();
    }
    const restored = await admin('restore', 'online.tar.gz', '--force');
    expect(restored.code, restored.err).toBe(0);
    server = await startFixtureServer({ dataDir, contentDir: writeFixtureLibrary(0) });
    try {
      const slugs = (await server.database.db.select({ slug: organization.slug }).from(organization)).map((o) => o.slug);
      expect(slugs.sort()).toEqual(['served-before']);
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!postgresAvailable())('backup and restore on PostgreSQL (pg_dump, pg_restore)', { timeout: 180_000 }, () => {
  it('round-trips, and refuses a database with tables without --force', async () => {
    const cluster = startPgCluster();
    try {
      process.env.DATABASE_URL = cluster.url;
      expect((await admin('org', 'create', 'Pg Before')).code).toBe(0);
      const backedUp = await admin('backup', 'pg.dump');
      expect(backedUp.code, backedUp.err).toBe(0);
      expect(backedUp.out).toContain('PostgreSQL (DATABASE_URL), with pg_dump');
      expect(backedUp.out).toContain('made again from the text');
      expect(fs.readFileSync(path.join(work, 'pg.dump')).subarray(0, 5).toString()).toBe('PGDMP');

      expect((await admin('org', 'create', 'Pg After')).code).toBe(0);
      const refused = await admin('restore', 'pg.dump');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/already has \d+ table\(s\)/);
      const restored = await admin('restore', 'pg.dump', '--force');
      expect(restored.code, restored.err).toBe(0);
      expect(await orgSlugs({ databaseUrl: cluster.url })).toEqual(['pg-before']);

      // A PGlite backup is not restored into PostgreSQL by mistake.
      const wrongKind = await admin('restore', 'offline.tar.gz', '--force');
      expect(wrongKind.code).toBe(1);
      expect(wrongKind.err).toContain('is a PGlite backup; DATABASE_URL is set');
    } finally {
      delete process.env.DATABASE_URL;
      cluster.stop();
    }
  });
});
