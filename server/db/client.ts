/**
 * Opens the database: an embedded PGlite in DATA_DIR by default, or a real PostgreSQL when DATABASE_URL is
 * set. Both get the same committed migrations.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { LOCK_FILE, acquireDataDirLock } from './lock';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run fn with writes serialized: PGlite is one connection, so atomic work must not interleave. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * PGlite in a data directory only: copy the database's files (not audio, secrets, sockets or the lock: see
   * isDatabaseEntry) into `dest`, after a CHECKPOINT and while no statement runs, so the copy is consistent (what a
   * crash at that instant would leave, which PostgreSQL recovers from). The admin CLI's backup uses it.
   */
  snapshot?: (dest: string) => Promise<void>;
  /** Close the database, then release DATA_DIR's lock (./lock.ts). */
  close(): Promise<void>;
}

/** drizzle-kit's migrations, at the repository's root (found from this file, under tsx and in the server build alike). */
export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../drizzle');

/** The PostgreSQL advisory lock held while migrating (any constant that no other lock of this database uses). */
export const MIGRATION_LOCK_KEY = 7_265_418_101;

/** What else lives in DATA_DIR beside PGlite's own files. */
const NOT_DATABASE = new Set(['audio', 'auth-secret', 'server.pid', 'admin.sock', 'admin.token', '.restore-in-progress']);

/** Whether an entry of DATA_DIR belongs to the database (PGlite keeps its files in DATA_DIR itself). */
export function isDatabaseEntry(name: string): boolean {
  return !NOT_DATABASE.has(name) && name !== LOCK_FILE && !name.startsWith(`${LOCK_FILE}.`);
}

export interface OpenOptions {
  /** A PGlite data directory, or 'memory://' for an in-memory database. */
  dataDir?: string;
  databaseUrl?: string;
  /** A PGlite data-dir snapshot (from dumpDataDir) to start from: fast tests, and restoring a backup. */
  loadDataDir?: Blob;
  /**
   * What this process is, in the message another opener of the same DATA_DIR gets ('server', 'content:import', …);
   * by default the npm script. See ./lock.ts.
   */
  lockPurpose?: string;
}

function createMutex() {
  let tail: Promise<unknown> = Promise.resolve();
  return function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/** The installed PGlite's version (its package.json, which its exports do not expose), or 'unknown'. */
export function pgliteVersion(): string {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Runs fn while PGlite runs no statement. */
export type QueryLock = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * PGlite's own query lock, what its `dumpDataDir` holds while it reads the files: `runExclusive(fn)`, public on
 * PGliteInterface though not in PGlite's docs (in 0.5.16 it calls the private `_runExclusiveQuery`, which takes the
 * mutex that every query, exec and transaction statement takes). `snapshot` copies the files under it. Checked
 * when the database opens, so an upgrade that drops it fails there with this message, not at the first backup with
 * a TypeError; tests/server/pgliteExclusive.test.ts checks that it still keeps statements out.
 */
export function pgliteQueryLock(client: object): QueryLock {
  if (typeof (client as { runExclusive?: unknown }).runExclusive !== 'function') {
    throw new Error(
      `PGlite ${pgliteVersion()} has no runExclusive(fn), which server/db/client.ts calls to hold PGlite's query lock ` +
        'while a backup copies the data directory (snapshot). Use a PGlite version that has it (0.5.16 does), or ' +
        'adapt snapshot() and tests/server/pgliteExclusive.test.ts to this one.',
    );
  }
  const lockable = client as { runExclusive: QueryLock };
  return (fn) => lockable.runExclusive(fn);
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const exclusive = createMutex();
  if (options.databaseUrl) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.default.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzle(pool, { schema });
    // Several servers may start at once on one PostgreSQL (docs/deploy.md): drizzle's migrator takes no lock, and
    // two running the same migration fail (duplicate key in pg_type). A session advisory lock lets one migrate
    // while the others wait, then find nothing left to do.
    try {
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        lock.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
    return { db: db as unknown as Db, kind: 'postgres', exclusive, close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dataDir = options.dataDir ?? 'memory://';
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) fs.mkdirSync(dataDir, { recursive: true });
  // One process at a time in a data directory (./lock.ts): a second opener is refused here, before PGlite reads it.
  const lock = inMemory ? null : await acquireDataDirLock(dataDir, options.lockPurpose);
  let opened: InstanceType<typeof PGlite> | undefined;
  let queryLock: QueryLock;
  try {
    opened = await PGlite.create(inMemory ? undefined : dataDir, { loadDataDir: options.loadDataDir });
    queryLock = pgliteQueryLock(opened);
    await migrate(drizzle(opened, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await opened?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
  const client = opened;
  const db = drizzle(client, { schema });
  let closed = false;
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    exclusive,
    snapshot: inMemory
      ? undefined
      : async (dest) => {
          await client.exec('CHECKPOINT');
          // PGlite's own query lock (what its dumpDataDir holds): no statement runs while the files are copied.
          await queryLock(async () => {
            fs.mkdirSync(dest, { recursive: true });
            for (const name of fs.readdirSync(dataDir).filter(isDatabaseEntry)) {
              fs.cpSync(path.join(dataDir, name), path.join(dest, name), { recursive: true });
            }
          });
        },
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}
