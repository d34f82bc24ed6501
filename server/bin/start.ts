/** `npm start`: build the app if needed, migrate, load the library, and serve app + API. */
import path from 'node:path';
import pino from 'pino';
import { exitDataDirLocked, loadConfig } from '../config';
import { DataDirLockedError, lockHolder } from '../db/lock';
import { buildIfStale } from '../build';
import { SHUTDOWN_GRACE_MS, startServer } from '../server';

const config = loadConfig();
// Log lines are buffered and written asynchronously in batches of 4 KB or more (pino's SonicBoom destination), not
// one blocking write per request; measured in docs/performance/load.md. The buffer is written out every second, so
// a quiet server's log still shows promptly, and synchronously on exit.
const LOG_FLUSH_MS = 1000;
const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
const logger = pino({ level: config.logLevel }, destination);
setInterval(() => logger.flush(), LOG_FLUSH_MS).unref();

buildIfStale(config.rootDir, config.distDir, (m) => {
  logger.info(m);
  destination.flushSync(); // before the build's own output
});

// PGlite in DATA_DIR: one process at a time (server/db/lock.ts). Refuse now, before building, when another process
// holds it; openDatabase takes the lock itself (and refuses as well if another process took it meanwhile).
const embedded = !config.databaseUrl;
const holder = embedded ? lockHolder(config.dataDir) : null;
if (holder) exitDataDirLocked(new DataDirLockedError(config.dataDir, holder));

// DATA_DIR/server.pid: the server's pid, for tools (the bench), written once the lock is ours. What keeps a second
// process out is the lock.
const server = await startServer({
  pidFile: embedded ? path.join(config.dataDir, 'server.pid') : undefined,
  port: config.port,
  host: config.host,
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  contentDir: config.contentDir,
  distDir: config.distDir,
  logger,
}).catch((error: unknown) => {
  destination.flushSync();
  return exitDataDirLocked(error);
});
logger.info(`Lectern is serving at ${server.url} (database: ${server.database.kind}${server.database.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
logger.flush();

// SIGTERM or SIGINT: stop accepting connections, finish the requests in flight (up to SHUTDOWN_GRACE_MS), stop
// narration, close the database (which releases the lock) and exit 0. A second signal exits at once: as safe as a
// crash (see docs/operations.md), the lock is released on exit.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) {
    logger.warn(`${signal} again: exiting now, without waiting for requests in flight`);
    destination.flushSync();
    process.exit(1);
  }
  stopping = true;
  logger.info(`${signal}: shutting down (requests in flight get up to ${SHUTDOWN_GRACE_MS / 1000} s; ${signal} again exits at once)`);
  let code = 0;
  try {
    await server.stop();
    logger.info('Stopped cleanly');
  } catch (err) {
    logger.error({ err }, 'shutdown failed');
    code = 1;
  }
  destination.flushSync();
  process.exit(code);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
