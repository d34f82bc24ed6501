/** Composes the server: database, migrations, library import, cache and HTTP. Used by `npm start`, the tests and the bench. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import pino, { type Logger } from 'pino';
import { openDatabase, type Database } from './db/client';
import { ContentStore } from './content/store';
import { importLibrary, type ImportSummary } from './content/import';
import { readLibrary } from './content/read';
import { createApp } from './http/app';
import { StaticSite } from './http/static';
import { buildOnDemand } from './content/onDemand';
import { loadTranslationProvider, type TranslationProvider } from './content/translation';
import { NarrationService, narrationSettings, type NarrationSettings } from './narration/queue';
import { audioStoreFromEnv } from './narration/audioStore';
import { createAccounts, type Accounts, type AccountsOptions } from './auth';
import { loadAuthSecret } from './auth/config';
import { createSso, type Sso } from './sso';
import { startAdminSocket, type AdminSocket } from './admin/socket';
import { startRetentionJob } from './analytics/service';

export interface StartOptions {
  port: number;
  host: string;
  dataDir?: string;
  databaseUrl?: string;
  contentDir?: string | null;
  distDir?: string;
  logger?: Logger;
  logLevel?: string;
  /** Start from a PGlite snapshot (tests). */
  loadDataDir?: Blob;
  /** A translation provider for on-demand editions; by default from the environment (none ships). */
  translationProvider?: TranslationProvider | null;
  /** Extra routes mounted first (the bench's ceiling route). */
  extraRoutes?: Parameters<typeof createApp>[0]['extraRoutes'];
  /** Reuse an open database (tests); it is not closed on stop. */
  database?: Database;
  /**
   * Narration (server/narration). Settings not given come from NARRATION_CONCURRENCY, NARRATION_WAIT_MS and
   * NARRATION_PRIORITY_WORKERS. Audio goes to `audioDir`, by default DATA_DIR/audio, or a temporary directory
   * (removed on stop) for an in-memory database; to an object store instead when AUDIO_STORE is set (audioStore.ts).
   */
  narration?: Partial<NarrationSettings> & { audioDir?: string };
  /** Accounts (server/auth): rate-limit overrides and the environment (BETTER_AUTH_SECRET, PUBLIC_URL, TRUST_PROXY). */
  accounts?: Pick<AccountsOptions, 'limits' | 'env'>;
  /**
   * Listen on DATA_DIR/admin.sock for `npm run admin` commands (server/admin) when the database is PGlite in a
   * data directory, which no other process can open meanwhile. @default true
   */
  adminSocket?: boolean;
  /** How long stop() waits for requests in flight. @default SHUTDOWN_GRACE_MS */
  shutdownGraceMs?: number;
  /**
   * A file to write this process's pid to once the database (and DATA_DIR's lock) is ours, before the server
   * listens; removed on stop. `npm start` writes DATA_DIR/server.pid, for tools.
   */
  pidFile?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  database: Database;
  store: ContentStore;
  logger: Logger;
  importSummary: ImportSummary | null;
  narration: NarrationService;
  accounts: Accounts;
  /** Single sign-on: the platform and organization providers (server/sso). */
  sso: Sso;
  app: ReturnType<typeof createApp>;
  /** The admin socket's path, or null when there is none (PostgreSQL, in memory, or it could not listen). */
  adminSocket: string | null;
  stop(): Promise<void>;
}

/** How often a server on a shared PostgreSQL checks for imports made by another process. Not in the spec. @default 5000 */
export const REVISION_POLL_MS = 5000;

/**
 * How long stop() (SIGTERM, SIGINT) lets requests in flight finish before it closes their connections. Below the
 * 10 s most supervisors (Docker, systemd's default is 90 s) wait before SIGKILL. Not in the spec. @default 8000
 */
export const SHUTDOWN_GRACE_MS = 8000;

/**
 * Stop accepting connections, close the idle ones, and wait for the requests in flight, up to `graceMs`; then
 * close what is left. Keep-alive connections are closed as soon as their request is answered.
 */
async function closeHttp(server: ServerType, graceMs: number, logger: Logger): Promise<void> {
  const http = server as unknown as import('node:http').Server;
  const closed = new Promise<void>((resolve) => http.close(() => resolve()));
  // A keep-alive client must not send its next request on a connection about to close.
  const onRequest = (_req: unknown, res: import('node:http').ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  http.on('request', onRequest);
  http.closeIdleConnections?.();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), graceMs);
  });
  // Connections that finish their request while we wait become idle: close them too.
  const sweep = setInterval(() => http.closeIdleConnections?.(), 50);
  const late = await Promise.race([closed.then(() => false), timedOut]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (late) {
    logger.warn(`Requests still in flight after ${graceMs} ms of shutdown were cut off.`);
    http.closeAllConnections?.();
    await closed;
  }
  http.off('request', onRequest);
}

export function formatProblems(problems: { file: string; line: number; reason: string }[]): string {
  return problems.map((p) => `  ${p.file}:${p.line}  ${p.reason}`).join('\n');
}

export async function loadContent(database: Database, contentDir: string, logger: Logger): Promise<ImportSummary | null> {
  const library = readLibrary(contentDir);
  for (const w of library.warnings) logger.warn(`${w.file}:${w.line} ${w.reason}`);
  if (library.problems.length) {
    logger.error(`The library in ${contentDir} has ${library.problems.length} problem(s); nothing was imported:\n${formatProblems(library.problems)}`);
    return null;
  }
  const summary = await importLibrary(database, library.publications);
  logger.info(
    { added: summary.added.length, updated: summary.updated.length, unchanged: summary.unchanged.length },
    `Library: ${library.publications.length} publications (${summary.added.length} added, ${summary.updated.length} updated, ${summary.unchanged.length} unchanged)`,
  );
  return summary;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: options.logLevel ?? 'info' });
  const ownsDatabase = !options.database;
  const database =
    options.database ??
    (await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, loadDataDir: options.loadDataDir, lockPurpose: 'server' }));
  if (options.pidFile) fs.writeFileSync(options.pidFile, String(process.pid));
  let importSummary: ImportSummary | null = null;
  if (options.contentDir) importSummary = await loadContent(database, options.contentDir, logger);

  const store = new ContentStore(database);
  await store.refreshRevision();
  const site = options.distDir ? new StaticSite(options.distDir) : undefined;
  const provider = options.translationProvider === undefined ? loadTranslationProvider() : options.translationProvider;
  const inMemory = !options.databaseUrl && (options.dataDir ?? 'memory://').startsWith('memory://');
  const persistent = database.kind === 'postgres' || !inMemory;
  let audioDir = options.narration?.audioDir ?? (options.dataDir && !inMemory ? path.join(options.dataDir, 'audio') : null);
  const tempAudioDir = audioDir ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-audio-'));
  audioDir ??= tempAudioDir!;
  const narration = new NarrationService({
    database,
    store,
    audio: await audioStoreFromEnv(process.env, audioDir, logger),
    logger,
    settings: narrationSettings(process.env, persistent, options.narration),
  });
  await narration.prepare();

  // Accounts (server/auth) with single sign-on (server/sso) added to their sign-in; the secret keys both.
  const accountsDataDir = inMemory ? null : (options.dataDir ?? null);
  const env = options.accounts?.env ?? process.env;
  const secret = loadAuthSecret(accountsDataDir, env);
  const sso = createSso({ database, secret, logger, env });
  const accounts = createAccounts({ database, secret, dataDir: accountsDataDir, logger, ...options.accounts, signIn: sso.signIn });

  const app = createApp({
    store,
    logger,
    site,
    extraRoutes: options.extraRoutes,
    onDemand: (request) => buildOnDemand(database, provider, request),
    narration,
    accounts,
    sso,
    readiness: { database, audio: () => narration.audioStore, draining: () => draining },
  });

  const poll =
    database.kind === 'postgres'
      ? setInterval(() => {
          store
            .refreshRevision()
            .then((changed) => (changed ? narration.libraryChanged() : undefined))
            .catch((err) => logger.warn({ err }, 'revision poll failed'));
        }, REVISION_POLL_MS)
      : null;
  poll?.unref();
  // Analytics events past their retention are deleted now and every day (server/analytics).
  const stopRetention = startRetentionJob(database.db, logger);

  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host}:${port}`;
  const adminSocket: AdminSocket | null =
    database.kind === 'pglite' && !inMemory && options.dataDir && options.adminSocket !== false
      ? await startAdminSocket({ dataDir: options.dataDir, database, logger, contentDir: options.contentDir, authSecret: accounts.secret })
      : null;
  // The library is narrated in the background from here on; requests are served at once.
  narration.start();

  let stopped = false;
  let draining = false;
  return {
    url,
    port,
    database,
    store,
    logger,
    importSummary,
    narration,
    accounts,
    sso,
    app,
    adminSocket: adminSocket?.path ?? null,
    async stop() {
      if (stopped) return;
      stopped = true;
      // Graceful (docs/operations.md): stop accepting connections and let the requests in flight finish, up to
      // shutdownGraceMs; then stop narration (leased jobs go back to the queue), the admin socket (after its
      // commands in flight) and the revision poll, and close the database, which releases DATA_DIR's lock.
      draining = true;
      await closeHttp(server, options.shutdownGraceMs ?? SHUTDOWN_GRACE_MS, logger);
      await narration.stop();
      await adminSocket?.close();
      if (poll) clearInterval(poll);
      stopRetention();
      if (ownsDatabase) await database.close();
      if (options.pidFile) fs.rmSync(options.pidFile, { force: true });
      if (tempAudioDir) fs.rmSync(tempAudioDir, { recursive: true, force: true });
    },
  };
}
