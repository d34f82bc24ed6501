/** The bench's server process: the real server on a fresh data dir, plus a constant-JSON route as the ceiling. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startServer } from '../server/server';
import { buildIfStale } from '../server/build';
import { serveUntilSignalled } from './spawnServer';

const root = path.resolve(import.meta.dirname, '..');
buildIfStale(root, path.join(root, 'dist'), (m) => process.stderr.write(m + '\n'));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-bench-'));
const CONSTANT = { ok: true, message: 'constant' };
const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  contentDir: path.join(root, 'content'),
  distDir: path.join(root, 'dist'),
  // Background narration would compete with the HTTP measurements for the cores.
  narration: { concurrency: 0 },
  logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }),
  extraRoutes: (app) => {
    app.get('/bench/constant', (c) => c.json(CONSTANT));
  },
});
serveUntilSignalled(server, dataDir);
