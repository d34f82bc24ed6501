/** `npm run dev`: the API on PORT+1 (with the library loaded) and Vite with hot reloading on PORT, proxying /api and /media. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import { exitDataDirLocked, loadConfig } from '../config';
import { startServer } from '../server';

const config = loadConfig();
const logger = pino({ level: config.logLevel });
const apiPort = config.port + 1;
const server = await startServer({
  port: apiPort,
  host: config.host,
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  contentDir: config.contentDir,
  logger,
}).catch((error: unknown) => exitDataDirLocked(error)); // another process holds DATA_DIR: say who, exit 1
logger.info(`API at ${server.url}`);
const vite = spawn(process.execPath, [path.join(config.rootDir, 'node_modules/vite/bin/vite.js'), '--port', String(config.port), '--host', config.host], {
  stdio: 'inherit',
  env: { ...process.env, LECTERN_API_ORIGIN: server.url },
});
const shutdown = async () => {
  vite.kill('SIGTERM');
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
vite.on('exit', () => void shutdown());
