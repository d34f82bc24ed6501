import { defineConfig } from '@playwright/test';

/** The e2e suite runs against the app exactly as `npm start` serves it, on its own port and a fresh data dir. */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = process.env.E2E_DATA_DIR ?? '.data-e2e';
/** E2E_DIST_DIR builds the app into its own folder, so two e2e runs of one checkout do not race on dist/. */
const DIST_DIR = process.env.E2E_DIST_DIR;
/**
 * The school's OpenID provider of the single sign-on spec (e2e/support/oidcServer.ts, e2e/sso.spec.ts): the port
 * after the app's unless E2E_OIDC_PORT says otherwise, so two e2e runs on their own E2E_PORT do not share one.
 */
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? PORT + 1);

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // The app's service worker (src/sw.ts) would take requests out of reach of page.route: only the offline specs
    // allow it (e2e/offline.spec.ts).
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      // A fresh DATA_DIR, unless a live process (another e2e run's server) holds its lock: then it says so and stops.
      command: 'node --import tsx e2e/support/freshDataDir.ts && node --import tsx server/bin/start.ts',
      url: `http://127.0.0.1:${PORT}/api/v1/ping`,
      timeout: 180_000,
      reuseExistingServer: false,
      env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR, LOG_LEVEL: 'warn', ...(DIST_DIR ? { DIST_DIR } : {}), NARRATION_CONCURRENCY: process.env.NARRATION_CONCURRENCY ?? '0' },
    },
    {
      // Its client's redirect address is the app's callback on E2E_PORT; its state lives in memory, fresh each run.
      command: 'node --import tsx e2e/support/oidcServer.ts',
      url: `http://127.0.0.1:${OIDC_PORT}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      env: { OIDC_PORT: String(OIDC_PORT), E2E_PORT: String(PORT) },
    },
  ],
});
