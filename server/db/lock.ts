/**
 * The exclusive lock on a PGlite data directory: `DATA_DIR/lectern.lock`.
 *
 * PGlite is one process's database. Two processes on one data folder lose committed rows without any error
 * (electric-sql/pglite#1106), so every process that opens the embedded database takes this lock first
 * (`openDatabase` in ./client.ts does it): the server, `content:import`, `narrate`, and the admin CLI when no server
 * runs. A second opener is refused at once with a `DataDirLockedError` naming the holder (pid, command, start time).
 *
 * How it works (no dependency; plain POSIX file operations):
 * - **Taking it.** The holder's record (JSON: pid, a random nonce, the command, when it started) is written to a
 *   temporary file and hard-linked to `lectern.lock`. link() fails with EEXIST when the lock exists, so creating
 *   the lock is atomic, and a reader never sees a half-written record.
 * - **Who holds it.** A lock whose process is alive (`process.kill(pid, 0)`) is held. On Linux the record also keeps
 *   the process's start time (/proc/<pid>/stat), so a pid reused by another process after a crash or a container
 *   restart does not look like the holder.
 * - **A stale lock** (its process is gone) is taken over: only the process that creates
 *   `lectern.lock.takeover-<nonce>` with O_EXCL may remove the stale lock of that nonce, and it removes it only
 *   after reading that nonce again under that guard. Nonces are never reused, so two processes taking over at once
 *   cannot remove each other's fresh lock: one of them links its lock, the other finds it held and is refused.
 *   (The one case left: a process killed between creating the takeover guard and removing it leaves the guard; the
 *   next opener removes a guard whose process is gone.)
 * - **Releasing it.** `release()` (the database's close) removes the lock if its nonce is still ours; an `exit`
 *   handler does the same when the process exits without closing. SIGKILL leaves a stale lock, taken over next time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/** The lock's file name in DATA_DIR. */
export const LOCK_FILE = 'lectern.lock';

export const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

const LockRecordSchema = z.object({
  pid: z.number().int().positive(),
  nonce: z.string().regex(/^[0-9a-f]{32}$/),
  /** What the holder is, e.g. 'server' or 'content:import': what `npm run …` it is, in words. */
  purpose: z.string().max(200),
  /** The holder's command line. */
  command: z.string().max(2000),
  /** When the holder took the lock (ISO 8601). */
  startedAt: z.string(),
  hostname: z.string().max(255),
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22), Linux only. */
  procStart: z.string().nullable(),
});
export type LockRecord = z.infer<typeof LockRecordSchema>;

/** A live process holds DATA_DIR's lock. The message says who and what to do. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockRecord,
  ) {
    super(lockedMessage(dataDir, holder));
    this.name = 'DataDirLockedError';
  }
}

/** Who holds the lock, in one line: "pid 1234 (server: node server/bin/start.mjs), since 2026-11-26T11:50:14.000Z". */
export function describeHolder(holder: LockRecord): string {
  const host = holder.hostname && holder.hostname !== os.hostname() ? ` on ${holder.hostname}` : '';
  return `pid ${holder.pid}${host} (${holder.purpose}: ${holder.command}), since ${holder.startedAt}`;
}

function lockedMessage(dataDir: string, holder: LockRecord): string {
  const isServer = holder.purpose === 'server';
  return [
    `The embedded database in ${dataDir} is in use by another process, and PGlite allows one process at a time:`,
    `  ${describeHolder(holder)}`,
    isServer
      ? `That server runs npm run admin commands (and backups) itself: they reach it through ${path.join(dataDir, 'admin.sock')}. ` +
        `To run this, stop the server first (kill ${holder.pid} sends SIGTERM, and it shuts down cleanly), or use another DATA_DIR.`
      : `Wait for it to finish, or stop it (kill ${holder.pid}), then run this again; or use another DATA_DIR.`,
    'Several servers on one database need PostgreSQL (DATABASE_URL); see docs/operations.md.',
  ].join('\n');
}

/** This process's start time since boot (Linux), to tell a reused pid from the holder. */
function procStartOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (the command) is in parentheses and may hold spaces; the fields after the last ')' start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22
  } catch {
    return null;
  }
}

/** Whether the process of this record still runs. */
export function isHolderAlive(record: Pick<LockRecord, 'pid' | 'procStart'>): boolean {
  try {
    process.kill(record.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (record.procStart !== null) {
    const now = procStartOf(record.pid);
    if (now !== null && now !== record.procStart) return false; // the pid was reused
  }
  return true;
}

type ReadResult = { kind: 'none' } | { kind: 'record'; record: LockRecord } | { kind: 'unreadable'; key: string };

function readLockFile(file: string): ReadResult {
  let text: string;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw error;
  }
  try {
    return { kind: 'record', record: LockRecordSchema.parse(JSON.parse(text)) };
  } catch {
    // Not written by us (a lock is linked whole, never half-written): stale, keyed by the file itself.
    return { kind: 'unreadable', key: `i${stat.ino}-${Math.trunc(stat.mtimeMs)}` };
  }
}

/** The live holder of DATA_DIR's lock, or null (none, or stale). */
export function lockHolder(dataDir: string): LockRecord | null {
  const read = readLockFile(lockPath(dataDir));
  return read.kind === 'record' && isHolderAlive(read.record) && !isStaleOwnPid(read.record) ? read.record : null;
}

/** Nonces of the locks this process holds. */
const held = new Set<string>();

/** A record with our pid that this process did not write: a previous process with the same pid (a container restart). */
function isStaleOwnPid(record: LockRecord): boolean {
  return record.pid === process.pid && !held.has(record.nonce);
}

export interface DataDirLock {
  readonly dataDir: string;
  readonly record: LockRecord;
  /** Remove the lock, if it is still ours. Idempotent. */
  release(): void;
}

/** The default purpose: the npm script, else the script file's name. */
function defaultPurpose(): string {
  if (process.env.npm_lifecycle_event) return process.env.npm_lifecycle_event;
  return path.basename(process.argv[1] ?? 'node');
}

/**
 * Remove the stale lock whose key is `key`, guarded so that only one process removes it. Returns false when another
 * live process holds the guard (it is taking the stale lock over right now).
 */
function removeStale(file: string, key: string, matches: (read: ReadResult) => boolean): boolean {
  const guard = `${file}.takeover-${key}`;
  try {
    fs.writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over this stale lock right now; or one died doing it, and left its guard.
    const pid = Number(fs.readFileSync(guard, 'utf8').trim() || 'NaN');
    if (Number.isInteger(pid) && isHolderAlive({ pid, procStart: null })) return false;
    fs.rmSync(guard, { force: true });
    return true;
  }
  try {
    if (matches(readLockFile(file))) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
  return true;
}

/**
 * How long acquire() keeps trying while other processes take a stale lock over (a matter of microseconds each).
 * Not in the spec. @default 5000
 */
export const LOCK_TAKEOVER_TIMEOUT_MS = 5000;
/** The pause between two tries while another process holds the takeover guard. Not in the spec. @default 5 */
const TAKEOVER_RETRY_MS = 5;

/**
 * Take DATA_DIR's lock, or throw DataDirLockedError. `purpose` says what this process is ('server',
 * 'content:import', …) in the message another opener sees.
 */
export async function acquireDataDirLock(dataDir: string, purpose = defaultPurpose()): Promise<DataDirLock> {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const record: LockRecord = {
    pid: process.pid,
    nonce: crypto.randomBytes(16).toString('hex'),
    purpose,
    command: process.argv
      .slice(1)
      .map((a) => path.relative(process.cwd(), a) || a)
      .join(' ')
      .slice(0, 2000) || 'node',
    startedAt: new Date().toISOString(),
    hostname: os.hostname(),
    procStart: procStartOf(process.pid),
  };
  const tmp = `${file}.${process.pid}.${record.nonce}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o644 });
  try {
    const deadline = performance.now() + LOCK_TAKEOVER_TIMEOUT_MS;
    while (performance.now() < deadline) {
      try {
        fs.linkSync(tmp, file);
        held.add(record.nonce);
        return makeLock(dataDir, file, record);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const read = readLockFile(file);
      if (read.kind === 'none') continue;
      if (read.kind === 'record') {
        if (isHolderAlive(read.record) && !isStaleOwnPid(read.record)) throw new DataDirLockedError(dataDir, read.record);
        const nonce = read.record.nonce;
        if (!removeStale(file, nonce, (r) => r.kind === 'record' && r.record.nonce === nonce)) await pause(TAKEOVER_RETRY_MS);
      } else {
        const key = read.key;
        if (!removeStale(file, key, (r) => r.kind === 'unreadable' && r.key === key)) await pause(TAKEOVER_RETRY_MS);
      }
    }
    throw new Error(`Could not take the lock ${file} within ${LOCK_TAKEOVER_TIMEOUT_MS} ms: other processes kept taking it over.`);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function makeLock(dataDir: string, file: string, record: LockRecord): DataDirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    held.delete(record.nonce);
    const read = readLockFile(file);
    if (read.kind === 'record' && read.record.nonce === record.nonce) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { dataDir, record, release };
}
