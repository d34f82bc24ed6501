/**
 * A child process for tests/server/dataDirLock.test.ts: `node --import tsx tests/server/lockHolder.ts <mode> <dataDir>`.
 *
 *   open   opens the embedded database in dataDir (openDatabase, which takes DATA_DIR's lock)
 *   lock   takes only the lock (server/db/lock.ts)
 *
 * Prints `held <pid>` once it holds it, then waits for stdin to close and releases it (closes the database) and
 * exits 0. When the lock is held by another process it prints the error's message on stderr and exits 3.
 */
import { openDatabase } from '../../server/db/client';
import { acquireDataDirLock, DataDirLockedError } from '../../server/db/lock';

const [mode, dataDir] = process.argv.slice(2);
if ((mode !== 'open' && mode !== 'lock') || !dataDir) {
  console.error('usage: lockHolder.ts open|lock <dataDir>');
  process.exit(2);
}

let release: () => Promise<void>;
try {
  if (mode === 'open') {
    const database = await openDatabase({ dataDir, lockPurpose: 'lock test' });
    release = () => database.close();
  } else {
    const lock = await acquireDataDirLock(dataDir, 'lock test');
    release = async () => lock.release();
  }
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  console.error(error.message);
  process.exit(3);
}
process.stdout.write(`held ${process.pid}\n`);
process.stdin.resume();
process.stdin.once('end', () => {
  void release().then(() => process.exit(0));
});
