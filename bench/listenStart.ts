/**
 * Listen pressed → the first audio plays, in Chromium, on passages that have no narration yet (English, Flite).
 *
 * The server runs in its own process on a fresh, empty DATA_DIR (no passage is narrated), as `npm start` would,
 * in two modes:
 *  - **idle**: no background queue (`NARRATION_CONCURRENCY` 0): only the requested passage is narrated;
 *  - **busy**: the background queue narrates the library (2 workers) while the passages are asked for.
 * For each passage a fresh browser context (no saved audio settings) opens the reader, presses Listen, and the time
 * runs from the press (its `pointerdown`) to the reader's audio element's first `playing` event with a time past 0.
 * A passage the background queue narrated before its turn is left out (it would not measure a fresh narration). The
 * next passage is asked for once the last one's whole narration is made, so no sample waits for another's.
 *
 * `node --import tsx bench/listenStart.ts` runs it alone; `npm run bench` runs it unless BENCH_SKIP_LISTEN is set.
 * LISTEN_PASSAGES sets how many passages per mode (default 12).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config';
import { serveUntilSignalled } from './spawnServer';
import { percentile } from './stats';

const root = path.resolve(import.meta.dirname, '..');

export interface ListenStartRow {
  mode: 'idle' | 'busy';
  /** Press → playing, ms, one per passage measured. */
  samples: number[];
  /** Passages left out because they were narrated before their turn. */
  skipped: number;
  /** Passages whose audio never played within the limit. */
  failed: number;
}

/** The server in its own process (this file with `--serve <concurrency>`), on a fresh data dir. */
async function startServer(concurrency: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve', String(concurrency)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url: string = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        resolve(JSON.parse(line).url);
      } catch {
        /* a log line */
      }
    });
    child.once('exit', (code) => reject(new Error(`listen bench server exited with ${code}`)));
  });
  return { url, child };
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Target {
  path: string;
  editionId: number;
  position: number;
}

/** English ORIGINAL passages from many titles, at positions the background queue reaches last (it goes by position). */
async function targets(url: string, count: number): Promise<Target[]> {
  const list = (await (await fetch(`${url}/api/v1/publications?pageSize=100`)).json()) as { items: { slug: string }[] };
  const editions: { slug: string; version: string; id: number; passageCount: number }[] = [];
  for (const { slug } of list.items) {
    const detail = (await (await fetch(`${url}/api/v1/publications/${slug}`)).json()) as {
      version: string;
      editions?: { id: number; language: { code: string }; level: string; passageCount: number }[];
    };
    const e = detail.editions?.find((x) => x.language.code === 'en' && x.level === 'ORIGINAL');
    if (e) editions.push({ slug, version: detail.version, id: e.id, passageCount: e.passageCount });
  }
  const out: Target[] = [];
  // Deepest positions first, one passage per title per round.
  for (let round = 0; out.length < count && round < 50; round++) {
    for (const e of editions) {
      const position = e.passageCount - round;
      if (position < 2 || out.length >= count) continue;
      out.push({ path: `/${e.slug}/${e.version}/en:original/${position}`, editionId: e.id, position });
    }
  }
  return out;
}

/** The passage's id, and whether it already has its narration (the background queue made it). */
async function passageOf(url: string, t: Target): Promise<{ id: number; narrated: boolean }> {
  const passage = (await (await fetch(`${url}/api/v1/passages?editionId=${t.editionId}&position=${t.position}`)).json()) as { id: number; audio?: unknown };
  return { id: passage.id, narrated: Boolean(passage.audio) };
}

/**
 * Wait until the passage's whole narration is made, so the next passage is asked for with nothing of this one still
 * running in the priority lane (each sample starts from the same state of the queue).
 */
async function untilNarrated(url: string, t: Target, id: number): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${url}/api/v1/passages/${id}/audio?editionId=${t.editionId}`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Records the press and the reader's audio's first `playing` with a time past 0, in page time. */
const PROBE = `(() => {
  window.__listen = { pressedAt: null, playingAt: null };
  document.addEventListener('pointerdown', () => { if (window.__listen.pressedAt === null) window.__listen.pressedAt = performance.now(); }, true);
  const play = HTMLMediaElement.prototype.play;
  HTMLMediaElement.prototype.play = function () {
    if (!this.__probed) {
      this.__probed = true;
      const check = () => {
        if (window.__listen.playingAt === null && window.__listen.pressedAt !== null && this.currentTime > 0) window.__listen.playingAt = performance.now();
      };
      this.addEventListener('playing', () => {
        const at = performance.now();
        if (window.__listen.playingAt === null && window.__listen.pressedAt !== null) window.__listen.playingAt = at;
      });
      this.addEventListener('timeupdate', check);
    }
    return play.call(this);
  };
})();`;

async function measureOne(browser: Browser, url: string, t: Target): Promise<number | null> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(PROBE);
    await page.goto(url + t.path);
    const listen = page.getByRole('button', { name: 'Listen' }).first();
    await listen.waitFor({ state: 'visible', timeout: 30_000 });
    await listen.click();
    const handle = await page.waitForFunction(
      () => {
        const l = (window as unknown as { __listen: { pressedAt: number | null; playingAt: number | null } }).__listen;
        return l.playingAt !== null && l.pressedAt !== null ? l.playingAt - l.pressedAt : null;
      },
      undefined,
      { timeout: 30_000, polling: 20 },
    );
    return (await handle.jsonValue()) as number;
  } catch {
    return null;
  } finally {
    await context.close();
  }
}

export async function listenStartBench(options: { passages?: number; modes?: ('idle' | 'busy')[] } = {}): Promise<ListenStartRow[]> {
  const count = options.passages ?? Number(process.env.LISTEN_PASSAGES ?? 12);
  const rows: ListenStartRow[] = [];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const mode of options.modes ?? (['idle', 'busy'] as const)) {
      const { url, child } = await startServer(mode === 'idle' ? 0 : 2);
      try {
        const row: ListenStartRow = { mode, samples: [], skipped: 0, failed: 0 };
        // One passage first, not counted: the browser's first page load and the server's first request warm up.
        const list = await targets(url, count + 1);
        for (const [i, t] of list.entries()) {
          const passage = await passageOf(url, t);
          if (passage.narrated) {
            row.skipped++;
            continue;
          }
          const ms = await measureOne(browser, url, t);
          await untilNarrated(url, t, passage.id);
          if (i === 0) continue;
          if (ms === null) row.failed++;
          else row.samples.push(ms);
        }
        rows.push(row);
      } finally {
        await stopServer(child);
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}

export function formatListenStart(rows: ListenStartRow[]): string {
  const title = 'Listen pressed → first audio playing (Chromium, English passages never narrated before; target p95 ≤ 1000 ms)';
  const row = (r: ListenStartRow) => {
    const [p50, p95] = [percentile(r.samples, 50), percentile(r.samples, 95)];
    const verdict = p95 <= 1000 && r.failed === 0 ? 'met' : 'NOT met';
    const sorted = [...r.samples].sort((a, b) => a - b).map((v) => v.toFixed(0));
    return [
      `  ${r.mode === 'idle' ? 'queue idle ' : 'queue busy '}  n=${r.samples.length}  p50 ${p50.toFixed(0)} ms  p95 ${p95.toFixed(0)} ms  max ${Math.max(...r.samples).toFixed(0)} ms  (skipped ${r.skipped}, failed ${r.failed}): ${verdict}`,
      `    samples: ${sorted.join(' ')}`,
    ];
  };
  return [title, ...rows.flatMap(row)].join('\n');
}

// `--serve <concurrency>`: the server process. Otherwise, run alone: print the rows.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const at = process.argv.indexOf('--serve');
  if (at >= 0) {
    const [{ startServer: start }, { buildIfStale }, pino] = await Promise.all([import('../server/server'), import('../server/build'), import('pino')]);
    buildIfStale(root, path.join(root, 'dist'), (m) => process.stderr.write(m + '\n'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-listen-'));
    const server = await start({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      contentDir: path.join(root, 'content'),
      distDir: path.join(root, 'dist'),
      narration: { concurrency: Number(process.argv[at + 1]) },
      logger: pino.default({ level: process.env.LOG_LEVEL ?? 'warn' }),
    });
    serveUntilSignalled(server, dataDir);
  } else {
    console.log(formatListenStart(await listenStartBench()));
  }
}
