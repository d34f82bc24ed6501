/** `npm start`: build the app if needed, migrate, load the library, and serve app + API. */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../config';
import { buildIfStale } from '../build';
import { startServer } from '../server';

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

const lockFile = config.databaseUrl ? null : path.join(config.dataDir, 'server.pid');
if (lockFile) {
  fs.mkdirSync(config.dataDir, { recursive: true });
  fs.writeFileSync(lockFile, String(process.pid));
}

const server = await startServer({
  port: config.port,
  host: config.host,
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  contentDir: config.contentDir,
  distDir: config.distDir,
  logger,
});
logger.info(`Lectern is serving at ${server.url} (database: ${server.database.kind}${server.database.kind === 'pglite' ? ` in ${config.dataDir}` : ''})`);
logger.flush();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: shutting down`);
  await server.stop();
  if (lockFile) fs.rmSync(lockFile, { force: true });
  destination.flushSync();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
