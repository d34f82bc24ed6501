/**
 * A fresh DATA_DIR for the e2e server: `node --import tsx e2e/support/freshDataDir.ts [dataDir]` (default: the
 * DATA_DIR variable), which playwright.config.ts runs before server/bin/start.ts.
 *
 * It empties the folder only if no live process holds its lock (server/db/lock.ts): a server of an earlier e2e run
 * still alive, or of a second run on the same folder, would have its database deleted under it. To check and empty
 * without a gap for another process to start in, it takes the lock itself (the lock module refuses at once when a
 * live process holds it, and takes over a stale one), removes everything else, then releases it. When the lock is
 * held it removes nothing, names the holder on stderr and exits 1; Playwright shows that and starts no server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireDataDirLock, DataDirLockedError, describeHolder, LOCK_FILE } from '../../server/db/lock';
import { ROOT_DIR } from '../../server/config';

/** What this process is, in the message a server that starts while it works gets. */
const PURPOSE = 'e2e: emptying the data folder';

const given = process.argv[2] ?? process.env.DATA_DIR;
if (!given) {
  console.error('usage: freshDataDir.ts <dataDir> (or DATA_DIR=<dataDir>)');
  process.exit(2);
}
const dataDir = path.resolve(given);
// A mistyped variable must not empty the checkout, a folder above it, the home folder or the root.
if (ROOT_DIR === dataDir || ROOT_DIR.startsWith(`${dataDir}${path.sep}`) || dataDir === os.homedir() || dataDir === path.parse(dataDir).root) {
  console.error(`e2e: refusing to empty ${dataDir}: it is not a data folder (E2E_DATA_DIR).`);
  process.exit(2);
}

try {
  const lock = await acquireDataDirLock(dataDir, PURPOSE);
  try {
    for (const name of fs.readdirSync(dataDir)) {
      if (name !== LOCK_FILE) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    }
  } finally {
    lock.release();
  }
} catch (error) {
  if (!(error instanceof DataDirLockedError)) throw error;
  const { pid } = error.holder;
  console.error(
    [
      `e2e: not emptying ${dataDir} for this run's server: another process is using its database, and deleting it would break that process:`,
      `  ${describeHolder(error.holder)}`,
      `It is most likely the server of an earlier e2e run that is still alive, or of another run on the same folder. Stop it ` +
        `(kill ${pid}) and run again, or give this run its own folder and ports (E2E_DATA_DIR, E2E_PORT, E2E_DIST_DIR).`,
    ].join('\n'),
  );
  process.exit(1);
}
