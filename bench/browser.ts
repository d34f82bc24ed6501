/**
 * Browser measurements for `npm run bench`, in Debian's Chromium against the real server:
 * - the gzip size of the catalog route's entry JS (budget 160 KB);
 * - page turn: ArrowRight to the new passage painted (a requestAnimationFrame after the text changes), p50/p95
 *   over prefetched passages (target p95 <= 16.7 ms, one frame);
 * - cold open: navigation to the passage text on localhost (target 500 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config';

export const ENTRY_JS_BUDGET_KB = 160;
export const PAGE_TURN_TARGET_MS = 16.7;
export const COLD_OPEN_TARGET_MS = 500;

export function entryJsReport(distDir: string) {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]);
  const files = [...new Set([...scripts, ...preloads])];
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const data = fs.readFileSync(path.join(distDir, f.replace(/^\//, '')));
    raw += data.length;
    gzip += zlib.gzipSync(data, { level: 9 }).length;
  }
  return { files, rawKb: raw / 1024, gzipKb: gzip / 1024 };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** In the page: press ArrowRight, then time until the first frame that shows another passage. */
const PAGE_TURN_SCRIPT = `new Promise((resolve, reject) => {
  const before = document.querySelector('[data-passage-text]')?.getAttribute('data-position');
  const t0 = performance.now();
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  const deadline = t0 + 5000;
  function check() {
    const now = document.querySelector('[data-passage-text]')?.getAttribute('data-position');
    if (now && now !== before) requestAnimationFrame(() => resolve(performance.now() - t0));
    else if (performance.now() > deadline) reject(new Error('the passage did not change'));
    else requestAnimationFrame(check);
  }
  check();
})`;

export async function browserBench(baseUrl: string, readerPath: string, turns = 6) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // Cold open: a fresh context (no cache), navigation start to the passage text.
    const coldTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(baseUrl + readerPath, { waitUntil: 'commit' });
      await page.waitForSelector('[data-passage-text]', { state: 'visible', timeout: 15_000 });
      coldTimes.push(await page.evaluate(() => performance.now()));
      await context.close();
    }

    // Page turns, each after its passage was prefetched.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(baseUrl + readerPath);
    await page.waitForSelector('[data-passage-text]');
    const turnTimes: number[] = [];
    for (let i = 0; i < turns; i++) {
      await page.waitForTimeout(400); // let the prefetch of the next passage land
      // A string, not a function: tsx keeps function names with a `__name` helper the page does not have.
      const ms = await page.evaluate<number>(PAGE_TURN_SCRIPT);
      turnTimes.push(ms);
    }
    await context.close();
    return {
      coldOpenMs: percentile(coldTimes, 50),
      coldOpenAll: coldTimes,
      pageTurnP50: percentile(turnTimes, 50),
      pageTurnP95: percentile(turnTimes, 95),
      turnTimes,
    };
  } finally {
    await browser.close();
  }
}
