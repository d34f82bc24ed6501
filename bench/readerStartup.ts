/**
 * The reader's start-up, for `npm run bench` (Debian's Chromium against the real server): on a reader address, in
 * a fresh context (no cache), the scripts requested before the reader is interactive (gzip, as transferred; budget
 * 200 KB) and the time to interactive, unthrottled and with Chromium's CPU slowed 6x (CDP
 * Emulation.setCPUThrottlingRate: a low-end Chromebook's CPU).
 *
 * Interactive: the app's reader shows the passage (`[data-passage-text]`, the app's own, not the server's first
 * screen), and from then on the main thread has no long task (50 ms or more) for a quiet window of 2 s; the time
 * to interactive is the end of the last long task before that window, or the reader's take-over if later
 * (Lighthouse's definition, with a shorter window). What is requested after that moment (the idle prefetch of the
 * menus, dialogs and panels not yet used) is reported apart.
 *
 * Standalone: `node --import tsx bench/readerStartup.ts <baseUrl> [readerPath]`.
 */
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { BENCH_CHROMIUM_ARGS } from './browser';

/** The reader page's JavaScript requested before the reader is interactive, gzip. */
export const READER_STARTUP_JS_BUDGET_KB = 200;
/** The CPU slowdown of the reader's throttled start-up row. */
export const READER_CPU_THROTTLE = 6;
/** How long the main thread stays free of long tasks for the reader to count as interactive (Lighthouse: 5 s). */
const QUIET_WINDOW_MS = 2000;
/** How long after interactive the run waits for the idle prefetch's first request. */
const PREFETCH_WAIT_MS = 8000;
/** The prefetch is over when no script has been requested or finished for this long. */
const SCRIPTS_SETTLED_MS = 1500;
/** Runs of each row; the run with the median time to interactive is reported. */
export const READER_STARTUP_RUNS = 3;
/** The reader address of the rows: the one the cold open measures (bench/run.ts). */
export const READER_STARTUP_PATH = '/how-bees-make-honey/v1/en:original/3';

/**
 * Set before any page script: the long tasks (buffered, so none before the observer is missed) and when the app's
 * reader first shows the passage. A string: tsx's `__name` helper does not exist in the page.
 */
const INTERACTIVE_SCRIPT = `(() => {
  const marks = (window.__lecternStartup = { appAt: null, longTasks: [] });
  new MutationObserver((_, observer) => {
    if (document.querySelector('[data-passage-text]')) { marks.appAt = performance.now(); observer.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.longTasks.push([entry.startTime, entry.startTime + entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
})();`;

/** In the page: resolves once the main thread has had no long task for `quietMs` since the reader took over. */
const WAIT_INTERACTIVE_SCRIPT = (quietMs: number) => `new Promise((resolve) => {
  const marks = window.__lecternStartup;
  const check = () => {
    if (marks.appAt === null) return setTimeout(check, 50);
    const lastEnd = marks.longTasks.reduce((end, task) => Math.max(end, task[1]), 0);
    const since = Math.max(marks.appAt, lastEnd);
    if (performance.now() - since >= ${quietMs}) {
      resolve({ tti: since, appAt: marks.appAt, longTasks: marks.longTasks.filter((task) => task[0] <= since).length });
    } else setTimeout(check, 100);
  };
  check();
})`;

export interface ReaderStartup {
  /** CPU slowdown (1: none). */
  cpuThrottle: number;
  /** Navigation start until interactive. */
  ttiMs: number;
  /** Navigation start until the app's reader shows the passage. */
  appMs: number;
  /** Scripts requested before the reader was interactive, as transferred (gzip). */
  startupKb: number;
  startupScripts: number;
  /** Scripts requested after it (the idle prefetch), as transferred. */
  laterKb: number;
  laterScripts: number;
  /** Long tasks until interactive. */
  longTasks: number;
}

/** One cold start of a reader address in a fresh context, with the CPU slowed `cpuThrottle` times. */
export async function readerStartup(browser: Browser, baseUrl: string, readerPath: string, cpuThrottle = 1): Promise<ReaderStartup> {
  const context = await browser.newContext();
  await context.addInitScript(INTERACTIVE_SCRIPT);
  const page = await context.newPage();
  if (cpuThrottle > 1) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuThrottle });
  }
  const scripts: { startedAt: number; bytes: Promise<number> }[] = [];
  let lastScriptAt = Date.now();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') lastScriptAt = Date.now();
  });
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    lastScriptAt = Date.now();
    // timing().startTime is wall-clock milliseconds; the page's interactive moment is turned into it below.
    scripts.push({ startedAt: request.timing().startTime, bytes: request.sizes().then((s) => s.responseBodySize) });
  });
  try {
    await page.goto(baseUrl + readerPath, { waitUntil: 'commit' });
    const result = await page.evaluate<{ tti: number; appAt: number; longTasks: number }>(WAIT_INTERACTIVE_SCRIPT(QUIET_WINDOW_MS));
    const timeOrigin = await page.evaluate<number>('performance.timeOrigin');
    // The idle prefetch starts once the main thread has been quiet for a while (src/ui/platform/idle.ts): wait for
    // its first request (or give up after PREFETCH_WAIT_MS), then until no script has come for SCRIPTS_SETTLED_MS.
    await page.waitForRequest((request) => request.resourceType() === 'script', { timeout: PREFETCH_WAIT_MS }).catch(() => null);
    while (Date.now() - lastScriptAt < SCRIPTS_SETTLED_MS) await page.waitForTimeout(250);
    const ttiWall = timeOrigin + result.tti;
    const sample: ReaderStartup = { cpuThrottle, ttiMs: result.tti, appMs: result.appAt, startupKb: 0, startupScripts: 0, laterKb: 0, laterScripts: 0, longTasks: result.longTasks };
    for (const s of scripts) {
      const kb = (await s.bytes) / 1024;
      if (s.startedAt <= ttiWall) {
        sample.startupKb += kb;
        sample.startupScripts++;
      } else {
        sample.laterKb += kb;
        sample.laterScripts++;
      }
    }
    return sample;
  } finally {
    await context.close();
  }
}

export interface ReaderStartupRow {
  /** The run with the median time to interactive. */
  median: ReaderStartup;
  runs: ReaderStartup[];
}

export async function readerStartupRow(browser: Browser, baseUrl: string, readerPath: string, cpuThrottle: number, runs = READER_STARTUP_RUNS): Promise<ReaderStartupRow> {
  // Warm the server once; every measured run is a fresh context with an empty cache.
  const warm = await browser.newContext();
  await (await warm.newPage()).goto(baseUrl + readerPath);
  await warm.close();
  const all: ReaderStartup[] = [];
  for (let i = 0; i < runs; i++) all.push(await readerStartup(browser, baseUrl, readerPath, cpuThrottle));
  const sorted = [...all].sort((a, b) => a.ttiMs - b.ttiMs);
  return { median: sorted[Math.floor(sorted.length / 2)], runs: all };
}

/** Both rows: unthrottled, and with the CPU slowed 6x. */
export async function readerStartupBench(baseUrl: string, readerPath = READER_STARTUP_PATH): Promise<ReaderStartupRow[]> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
  try {
    const rows: ReaderStartupRow[] = [];
    for (const throttle of [1, READER_CPU_THROTTLE]) rows.push(await readerStartupRow(browser, baseUrl, readerPath, throttle));
    return rows;
  } finally {
    await browser.close();
  }
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function formatReaderStartup(rows: readonly ReaderStartupRow[], readerPath = READER_STARTUP_PATH): string {
  return rows
    .map(({ median: m, runs }) => {
      const cpu = m.cpuThrottle > 1 ? `CPU ${m.cpuThrottle}x slower` : 'CPU unthrottled';
      return [
        `reader start-up (${readerPath}, ${cpu}), the median of ${runs.length} by time to interactive: interactive at ${m.ttiMs.toFixed(0)} ms (runs: ${runs.map((r) => r.ttiMs.toFixed(0)).join(', ')}; the app's reader shows the passage at ${m.appMs.toFixed(0)} ms; ${m.longTasks} long task(s) until then)`,
        `  JS requested before interactive: ${m.startupKb.toFixed(1)} KB gzip over ${m.startupScripts} script(s); budget ${READER_STARTUP_JS_BUDGET_KB} KB: ${met(m.startupKb <= READER_STARTUP_JS_BUDGET_KB)}; requested afterwards (the idle prefetch): ${m.laterKb.toFixed(1)} KB over ${m.laterScripts} script(s)`,
      ].join('\n');
    })
    .join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const baseUrl = process.argv[2];
  if (!baseUrl) throw new Error('usage: bench/readerStartup.ts <baseUrl> [readerPath]');
  const readerPath = process.argv[3] ?? READER_STARTUP_PATH;
  console.log(formatReaderStartup(await readerStartupBench(baseUrl, readerPath), readerPath));
}
