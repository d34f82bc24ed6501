/**
 * `npm run admin -- backup <file>` and `npm run admin -- restore <file> [--force]` (docs/operations.md, "Backups").
 *
 * Backup:
 * - PGlite in DATA_DIR: the database's files, copied after a CHECKPOINT while no statement runs (so the copy is
 *   consistent), as PGlite's own gzipped tarball (`dumpDataDir`). While a server runs, the CLI sends the command
 *   through the admin socket and the server writes the file from its open database; otherwise the CLI takes
 *   DATA_DIR's lock, opens the database and writes it.
 * - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, from PATH or Debian's /usr/lib/postgresql/<version>/bin.
 *   It is a consistent snapshot while servers run. `pg_restore` reads it too.
 * - Written to a temporary file beside `<file>`, then renamed: a failed backup never leaves a half file.
 *
 * Restore:
 * - PGlite: holds DATA_DIR's lock for the whole restore (so it refuses while a server or any other opener runs),
 *   loads the backup into a new folder inside DATA_DIR, brings it to the current migrations, and only then puts it in
 *   place. DATA_DIR must hold no database; `--force` replaces one. A folder that is neither empty nor a database is
 *   refused even with --force.
 * - PostgreSQL: `pg_restore --clean --if-exists --no-owner` into DATABASE_URL; refuses a database that has tables
 *   unless --force. Stop every server first (there is no lock across machines).
 *
 * Not in the backup: narration audio (made again from the text) and the session secret (DATA_DIR/auth-secret or
 * BETTER_AUTH_SECRET). Both commands say so.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../config';
import { isDatabaseEntry, openDatabase, type Database } from '../db/client';
import { DataDirLockedError, LOCK_FILE, acquireDataDirLock } from '../db/lock';
import { AdminError, type AdminCommand, type AdminIo } from '../cli/command';

const run = promisify(execFile);

/** The first bytes of each kind of backup. */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PG_DUMP_MAGIC = Buffer.from('PGDMP');

export const NOT_IN_BACKUP =
  'Not in the backup: narration audio (DATA_DIR/audio or AUDIO_STORE), which is made again from the text, and the session secret ' +
  '(DATA_DIR/auth-secret or BETTER_AUTH_SECRET): restored with a different secret, everyone signs in again.';

const isLockFile = (name: string) => name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`);
/** Where a restore loads the backup first (inside DATA_DIR, so that moving it into place is a rename). */
const RESTORE_DIR = '.restore-in-progress';

function humanBytes(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A PostgreSQL client program: PATH first, else the newest of Debian's /usr/lib/postgresql/<version>/bin. */
export async function findPgProgram(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  try {
    await run(name, ['--version']);
    return name;
  } catch {
    // not on PATH
  }
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const bin = path.join(base, v, 'bin', name);
    if (fs.existsSync(bin)) return bin;
  }
  throw new AdminError(`${name} was not found on PATH nor in ${base}/*/bin: install PostgreSQL's client programs (Debian: apt-get install postgresql-client).`);
}

/** Write `bytes` (or let `write` fill a temporary path) and rename it to `file`. */
async function writeAtomically(file: string, write: (tmp: string) => Promise<void>): Promise<number> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.partial`;
  try {
    await write(tmp);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return fs.statSync(file).size;
}

/**
 * A consistent dump of an open PGlite database: its files copied while no statement runs (Database.snapshot), then
 * opened apart and written as PGlite's own tarball (dumpDataDir), which restore loads. Dumping DATA_DIR itself
 * would take in the audio, the secret and the admin socket, which live beside the database files.
 */
async function dumpPglite(database: Database): Promise<Uint8Array> {
  if (!database.snapshot) throw new AdminError('This database cannot be backed up this way (not PGlite in a data directory).');
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-backup-'));
  try {
    await database.snapshot(path.join(copy, 'pgdata'));
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create(path.join(copy, 'pgdata'));
    try {
      return new Uint8Array(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await pg.close();
    }
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}

const backup: AdminCommand = {
  summary: 'write a consistent backup of the database to <file> (works while the server runs)',
  usage: '<file>',
  details: [
    '<file>  where to write: PGlite in DATA_DIR gives a .tar.gz of the data directory, PostgreSQL (DATABASE_URL) a pg_dump custom-format file',
    NOT_IN_BACKUP,
  ],
  database: true,
  // The server writes the file: send it an absolute path.
  remoteArgv: (argv, io) => [argv[0], path.resolve(io.cwd, argv[1])],
  async run({ positionals }, io) {
    const file = path.resolve(io.cwd, positionals[0]);
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new AdminError(`${file} is a folder; name the backup file, e.g. ${path.join(file, 'lectern.tar.gz')}`);
    const config = loadConfig();
    let where: string;
    let size: number;
    if (io.database?.kind === 'pglite' || (!io.database && !config.databaseUrl)) {
      let database = io.database;
      let opened: Database | null = null;
      if (!database) {
        // Opening an empty folder would make a new database, and back that up.
        if (!fs.existsSync(path.join(config.dataDir, 'PG_VERSION'))) throw new AdminError(`There is no database in ${config.dataDir} to back up (is DATA_DIR set?).`);
        opened = await openDatabase({ dataDir: config.dataDir, lockPurpose: 'admin backup' }).catch((error: unknown) => {
          if (error instanceof DataDirLockedError) throw new AdminError(error.message);
          throw error;
        });
        database = opened;
      }
      try {
        const bytes = await dumpPglite(database);
        size = await writeAtomically(file, (tmp) => fs.promises.writeFile(tmp, bytes));
      } finally {
        await opened?.close();
      }
      where = `PGlite in ${config.dataDir}${io.database ? ', through the running server' : ''}`;
    } else {
      const url = config.databaseUrl!;
      const pgDump = await findPgProgram('pg_dump');
      try {
        size = await writeAtomically(file, async (tmp) => {
          await run(pgDump, ['--format=custom', '--no-owner', '--file', tmp, '--dbname', url]);
        });
      } catch (error) {
        throw new AdminError(`pg_dump failed: ${((error as { stderr?: string }).stderr || (error as Error).message).trim()}`);
      }
      where = 'PostgreSQL (DATABASE_URL), with pg_dump';
    }
    io.out(`Backed up the database (${where}) to ${file} (${humanBytes(size)}).`);
    io.out(NOT_IN_BACKUP);
    io.out(`Restore it with: npm run admin -- restore ${positionals[0]}`);
    return 0;
  },
};

/** The entries of DATA_DIR that belong to a database (everything but audio, the secret, sockets and the lock). */
function databaseEntries(dataDir: string): string[] {
  if (!fs.existsSync(dataDir)) return [];
  return fs.readdirSync(dataDir).filter(isDatabaseEntry);
}

async function restorePglite(file: string, bytes: Buffer, force: boolean, io: AdminIo): Promise<number> {
  const { dataDir } = loadConfig();
  fs.mkdirSync(dataDir, { recursive: true });
  let lock;
  try {
    lock = await acquireDataDirLock(dataDir, 'admin restore');
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new AdminError(`${error.message}\nA restore replaces the database under it: stop it first.`);
    throw error;
  }
  try {
    const existing = databaseEntries(dataDir);
    if (existing.length && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      throw new AdminError(`${dataDir} is neither empty nor a database (it holds ${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ', …' : ''}); set DATA_DIR to an empty folder.`);
    }
    if (existing.length && !force) {
      throw new AdminError(`${dataDir} already holds a database. A restore replaces it: add --force to do that (back it up first with npm run admin -- backup <file>), or set DATA_DIR to an empty folder.`);
    }
    // Load the backup beside, and bring it to the current migrations: a bad file fails here, with DATA_DIR untouched.
    const staging = path.join(dataDir, RESTORE_DIR);
    fs.rmSync(staging, { recursive: true, force: true });
    try {
      const database = await openDatabase({ dataDir: staging, loadDataDir: new Blob([new Uint8Array(bytes)]), lockPurpose: 'admin restore' }).catch((error: unknown) => {
        throw new AdminError(`${file} could not be loaded as a Lectern backup: ${(error as Error).message}`);
      });
      await database.close();
      for (const name of existing) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
      for (const name of fs.readdirSync(staging)) {
        if (!isLockFile(name)) fs.renameSync(path.join(staging, name), path.join(dataDir, name));
      }
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
    io.out(`Restored ${file} into ${dataDir}${existing.length ? ' (the database that was there is replaced)' : ''}. Start the server with npm start.`);
    io.out(NOT_IN_BACKUP);
    return 0;
  } finally {
    lock.release();
  }
}

async function restorePostgres(url: string, file: string, force: boolean, io: AdminIo): Promise<number> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  let tables: number;
  try {
    await client.connect();
    const result = await client.query(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    tables = result.rows[0].n;
  } catch (error) {
    throw new AdminError(`Cannot reach the database at DATABASE_URL: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  if (tables > 0 && !force) {
    throw new AdminError(`The database at DATABASE_URL already has ${tables} table(s). A restore replaces them: stop every server, then add --force; or restore into an empty database.`);
  }
  const pgRestore = await findPgProgram('pg_restore');
  try {
    await run(pgRestore, ['--clean', '--if-exists', '--no-owner', '--single-transaction', '--dbname', url, file]);
  } catch (error) {
    throw new AdminError(`pg_restore failed (nothing was changed): ${((error as { stderr?: string }).stderr || (error as Error).message).trim()}`);
  }
  io.out(`Restored ${file} into the PostgreSQL database at DATABASE_URL${tables ? ' (its tables are replaced)' : ''}. Start the servers again.`);
  io.out(NOT_IN_BACKUP);
  return 0;
}

const restore: AdminCommand = {
  summary: 'restore a backup into an empty DATA_DIR (or DATABASE_URL); --force replaces a database that is there',
  usage: '<file> [--force]',
  details: [
    '<file>   a file written by npm run admin -- backup',
    '--force  replace the database that is there (PGlite: DATA_DIR; PostgreSQL: DATABASE_URL\'s tables)',
    'The server must be stopped: with PGlite the restore holds DATA_DIR\'s lock, and refuses while anything else does.',
    NOT_IN_BACKUP,
  ],
  options: { force: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const file = path.resolve(io.cwd, positionals[0]);
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (error) {
      throw new AdminError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const force = values.force === true;
    const config = loadConfig();
    const isPglite = bytes.subarray(0, 2).equals(GZIP_MAGIC);
    const isPgDump = bytes.subarray(0, 5).equals(PG_DUMP_MAGIC);
    if (!isPglite && !isPgDump) throw new AdminError(`${file} is not a Lectern backup (neither a PGlite .tar.gz nor a pg_dump custom-format file).`);
    if (config.databaseUrl) {
      if (!isPgDump) throw new AdminError(`${file} is a PGlite backup; DATABASE_URL is set, so this would restore into PostgreSQL. Unset DATABASE_URL to restore it into DATA_DIR.`);
      return restorePostgres(config.databaseUrl, file, force, io);
    }
    if (!isPglite) throw new AdminError(`${file} is a PostgreSQL backup (pg_dump); set DATABASE_URL to restore it into PostgreSQL.`);
    return restorePglite(file, bytes, force, io);
  },
};

export const BACKUP_COMMANDS: Record<string, AdminCommand> = { backup, restore };
