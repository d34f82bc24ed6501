/**
 * Browser measurements for `npm run bench`, in Debian's Chromium against the real server:
 * - catalog JS: every script `/catalog` fetches until the network is idle, as transferred (gzip), and the part
 *   fetched before the first card is visible; the reader's code prefetched after the cards are interactive is
 *   counted apart (budget 160 KB without it);
 * - cold open: a fresh browser context (no cache) per run, navigation start until the passage's text is in the DOM
 *   and the page has painted (first contentful paint), median of 5, with the server warm (target 500 ms); the time
 *   until the app's own reader has taken over from the server's first screen is printed beside it;
 * - page turn: ArrowRight (and ArrowLeft on the way back) on an already prefetched passage, p50/p95/p99 over at
 *   least 30 turns in each of four cases: one and two columns, with the reading mode's highlight off and on (the
 *   player open and paused on a narrated edition, so the passage's words are lit). The key is pressed at the start of a frame and the time is taken to the start of the first frame
 *   whose `requestAnimationFrame` runs after the next passage's text is in the DOM, so a turn that renders within
 *   the frame it was asked in measures one frame (16.7 ms) and a turn that misses it measures two or more
 *   (target p95 <= 16.7 ms). The time from the key to the DOM change (the work) is printed beside it.
 *   The interval between two frames' timestamps jitters around 1000/60 ms (16.6 to 16.8 ms were seen), so the
 *   target is judged in whole frames: p95 rounded to frames of 1000/60 ms must be one frame, p99 two (33 ms).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../playwright.config';
import { percentile } from './stats';
import { StaticSite } from '../server/http/static';

export const ENTRY_JS_BUDGET_KB = 160;
export const PAGE_TURN_TARGET_MS = 16.7;
/** The page turn's p99 target: two frames. */
export const PAGE_TURN_P99_TARGET_MS = 33;
const FRAME_MS = 1000 / 60;
/** A frame interval in whole frames (the page turn's target is one). */
export const wholeFrames = (ms: number) => Math.round(ms / FRAME_MS);
export const COLD_OPEN_TARGET_MS = 500;
/** Runs of the cold open; the median is reported. */
export const COLD_OPEN_RUNS = 5;
/** Least page turns measured, per case. */
export const PAGE_TURNS = 30;
/** How long a turn waits first, so the prefetch of its passage has landed. */
const PREFETCH_SETTLE_MS = 400;
/**
 * Chromium 156 loads its own omnibox WebUI (hundreds of modules) in the background of each new headless context,
 * on the same 2 cores as the page being measured; these switches turn it off so the figures are the app's.
 */
export const BENCH_CHROMIUM_ARGS = [...CHROMIUM_ARGS, '--disable-features=WebUIOmniboxPopup,OmniboxWebUIPopup,WebUIOmniboxFullPopup,AiModeOmniboxEntryPoint,OmniboxAimPopup'];

/** The catalog's first card. */
const FIRST_CARD = 'main li a[href]';

/** The scripts index.html names (entry and modulepreloads), gzip: the catalog's entry JS as built. */
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


/** The reader's own scripts: what its lazy route loads beyond the entry (as the server's pages preload them). */
function readerChunkFiles(distDir: string): Set<string> {
  return new Set(new StaticSite(distDir).routeScripts(['reader']));
}

export interface CatalogJsResult {
  /** Every script until the network is idle, without the reader's prefetched code. */
  totalKb: number;
  /** The scripts requested before the first card was visible. */
  beforeFirstCardKb: number;
  /** The reader's code, prefetched after the cards are interactive. */
  readerPrefetchKb: number;
  scripts: number;
  firstCardMs: number;
}

export async function catalogJs(browser: Browser, baseUrl: string, distDir: string): Promise<CatalogJsResult> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const reader = readerChunkFiles(distDir);
  const scripts: { url: string; startedAt: number; bytes: Promise<number> }[] = [];
  const started = Date.now();
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'script') return;
    // The encoded size: what crossed the wire, gzip when the server compressed it.
    scripts.push({ url: new URL(request.url()).pathname, startedAt: request.timing().startTime, bytes: request.sizes().then((s) => s.responseBodySize) });
  });
  await page.goto(baseUrl + '/catalog', { waitUntil: 'commit' });
  await page.waitForSelector(FIRST_CARD, { state: 'visible', timeout: 30_000 });
  const firstCardMs = await page.evaluate<number>('performance.now()');
  const firstCardAt = Date.now();
  await page.waitForLoadState('networkidle');
  await context.close();
  let total = 0;
  let before = 0;
  let readerPrefetch = 0;
  for (const s of scripts) {
    const bytes = await s.bytes;
    // The reader's own code, fetched once the cards are there, is an idle prefetch: counted apart.
    if (reader.has(s.url) && s.startedAt > firstCardAt) readerPrefetch += bytes;
    else total += bytes;
    if (s.startedAt <= firstCardAt && s.startedAt >= started - 60_000) before += bytes;
  }
  return { totalKb: total / 1024, beforeFirstCardKb: before / 1024, readerPrefetchKb: readerPrefetch / 1024, scripts: scripts.length, firstCardMs };
}

/**
 * Set before any page script: when passage text first appears in the DOM (the server's first screen,
 * `data-first-screen-text`, or the app's own reader, `data-passage-text`), when the app's reader shows it, and the
 * first contentful paint, so the text is counted as seen only once the page has painted.
 */
const TEXT_SEEN_SCRIPT = `(() => {
  const marks = (window.__lecternOpen = { textAt: null, appAt: null, paintAt: null });
  new MutationObserver((_, observer) => {
    if (marks.textAt === null && document.querySelector('[data-first-screen-text], [data-passage-text]')) marks.textAt = performance.now();
    if (document.querySelector('[data-passage-text]')) { marks.appAt = performance.now(); observer.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') marks.paintAt = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
})();`;

export interface ColdOpen {
  /** Navigation start until the passage text is in the DOM and the page has painted: what the reader sees. */
  seenMs: number;
  /** Until the app's own reader shows the passage (the controls work from here). */
  appMs: number;
}

export async function coldOpens(browser: Browser, baseUrl: string, readerPath: string): Promise<ColdOpen[]> {
  // Warm the server (its caches and JIT) once; every measured run is a fresh context with an empty cache.
  const warm = await browser.newContext();
  await (await warm.newPage()).goto(baseUrl + readerPath);
  await warm.close();
  const runs: ColdOpen[] = [];
  for (let i = 0; i < COLD_OPEN_RUNS; i++) {
    const context = await browser.newContext();
    await context.addInitScript(TEXT_SEEN_SCRIPT);
    const page = await context.newPage();
    await page.goto(baseUrl + readerPath, { waitUntil: 'commit' });
    await page.waitForSelector('[data-passage-text]', { state: 'attached', timeout: 15_000 });
    await page.waitForFunction('window.__lecternOpen.paintAt !== null', null, { timeout: 15_000 });
    // performance.now() counts from the navigation's start.
    const marks = await page.evaluate<{ textAt: number; appAt: number; paintAt: number }>('window.__lecternOpen');
    runs.push({ seenMs: Math.max(marks.textAt, marks.paintAt), appMs: marks.appAt });
    await context.close();
  }
  return runs;
}

/**
 * In the page: at the start of a frame, press the key; note when the passage in the DOM changes (a mutation
 * observer); resolve at the first frame whose requestAnimationFrame runs after it, with the time between the two
 * frames' starts and the time the work took. A string: tsx's `__name` helper does not exist in the page.
 */
const PAGE_TURN_SCRIPT = (key: string, markers = false) => `new Promise((resolve, reject) => {
  // The key's handling and the frame that ends the turn run in functions of their own names, which a CPU profile of
  // the turn finds (bench/turnProfile.ts): the samples between them are the turn's work. With markers, the last one
  // spins half a millisecond (after the turn is measured) so that the profile has a sample of it, and the two ends
  // are user-timing marks for a trace.
  const spin = () => { const end = performance.now() + 0.5; while (performance.now() < end); };
  const lecternTurnKey = (press) => press();
  const lecternTurnFrame = () => { ${markers ? "spin(); performance.mark('lectern-turn-frame');" : ''} };
  const shown = () => document.querySelector('[data-passage-text]')?.getAttribute('data-position');
  const counts = () => window.__lecternTurnCounts ? { ...window.__lecternTurnCounts } : { commits: 0, rendered: 0 };
  requestAnimationFrame((frame0) => {
    const before = shown();
    const t0 = performance.now();
    const counted = counts();
    window.__lecternTurnOpen = counted.commits;
    let changedAt = null;
    const observer = new MutationObserver(() => { if (changedAt === null && shown() !== before) changedAt = performance.now(); });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    ${markers ? "performance.mark('lectern-turn-key');" : ''}
    lecternTurnKey(() => document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ${JSON.stringify(key)}, bubbles: true })));
    if (changedAt === null && shown() !== before) changedAt = performance.now();
    const deadline = t0 + 5000;
    const check = (frame) => {
      if (changedAt === null && shown() !== before) changedAt = performance.now();
      if (changedAt !== null) {
        lecternTurnFrame();
        window.__lecternTurnOpen = undefined;
        observer.disconnect();
        const now = counts();
        const longTasks = (window.__lecternLongTasks ?? []).filter((t) => t.startTime + t.duration > t0 && t.startTime < performance.now()).length;
        resolve({ frame: frame - frame0, work: changedAt - t0, commits: now.commits - counted.commits, rendered: now.rendered - counted.rendered, longTasks });
      }
      else if (performance.now() > deadline) { observer.disconnect(); reject(new Error('the passage did not change')); }
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
})`;

/**
 * Set before any page script: counts React's commits and the components each one rendered (a devtools hook, which
 * React calls at each commit), and keeps the main thread's long tasks. What a turn did, counted rather than timed.
 */
const TURN_COUNTS_SCRIPT = `(() => {
  const counts = (window.__lecternTurnCounts = { commits: 0, rendered: 0 });
  const tasks = (window.__lecternLongTasks = []);
  try { new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push({ startTime: e.startTime, duration: e.duration }); }).observe({ type: 'longtask' }); } catch {}
  // Function, class, forwardRef, memo and simple memo components. A fiber rendered in this commit carries React's
  // PerformedWork flag (1); a subtree whose children are the very fibers of the last commit was not rendered at all.
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const PERFORMED_WORK = 1;
  const visit = (fiber) => {
    for (let f = fiber; f; f = f.sibling) {
      const fresh = !f.alternate;
      if (COMPONENT_TAGS.has(f.tag) && (fresh || f.flags & PERFORMED_WORK)) {
        counts.rendered++;
        // By name within a turn, when asked for (bench/turnProfile.ts; readable in a build without minification).
        const names = window.__lecternTurnNames;
        if (names && window.__lecternTurnOpen !== undefined) {
          const t = f.type?.type ?? f.type?.render ?? f.type;
          const key = 'commit ' + (counts.commits - window.__lecternTurnOpen) + ': ' + (t?.displayName ?? t?.name ?? '?');
          names[key] = (names[key] ?? 0) + 1;
        }
      }
      if (f.child && (fresh || f.child !== f.alternate.child)) visit(f.child);
    }
  };
  let id = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) { this.renderers.set(++id, renderer); return id; },
    onCommitFiberRoot(_id, root) { counts.commits++; visit(root.current.child); },
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
})();`;

/** What one turn measured and counted: React commits, components rendered and long tasks until its frame. */
export interface TurnSample {
  frame: number;
  work: number;
  commits: number;
  rendered: number;
  longTasks: number;
}

export interface TurnHooks {
  /** Mark the key's handling and the turn's last frame for a CPU profile (half a millisecond each, after the measure). */
  markers?: boolean;
  ready?: (page: Page) => Promise<void>;
  beforeTurn?: () => Promise<void>;
  afterTurn?: (turn: TurnSample) => Promise<void>;
  done?: (page: Page) => Promise<void>;
}

/** One page-turn case: one or two columns, and the reading mode's highlight on (player open, paused) or off. */
export interface TurnCase {
  columns: 1 | 2;
  highlight: boolean;
}

/** The four cases the page-turn row measures. */
export const TURN_CASES: readonly TurnCase[] = [
  { columns: 1, highlight: false },
  { columns: 1, highlight: true },
  { columns: 2, highlight: false },
  { columns: 2, highlight: true },
];

export const turnCaseName = (c: TurnCase) => `${c.columns === 1 ? 'one column' : 'two columns'}, highlight ${c.highlight ? 'on' : 'off'}`;

/**
 * The page-turn address of a case, and the second column's language: in two columns, the title's first other
 * language with an original edition.
 */
export async function turnAddress(baseUrl: string, readerPath: string, c: TurnCase): Promise<{ path: string; second: string | null }> {
  if (c.columns === 1) return { path: readerPath, second: null };
  const [, slug, version, choice] = readerPath.split('/');
  const primary = choice!.split(':')[0];
  const detail = await (await fetch(`${baseUrl}/api/v1/publications/${slug}?publicationVersion=${version}`)).json();
  const other = (detail.editions as { language: { code: string }; level: string }[]).find((e) => e.language.code !== primary && e.level === 'ORIGINAL');
  if (!other) throw new Error(`${slug} has no original edition in another language for a second column`);
  const code = other.language.code;
  return { path: readerPath.replace(/\/(\d+)$/, `/${code}:original/$1`), second: code };
}

/**
 * Narrate every passage of the primary edition (the first request of each jumps the queue), so that highlight mode
 * has speech marks to light and opening the player does not wait for narration.
 */
export async function narrateEdition(baseUrl: string, readerPath: string, passageCount: number): Promise<void> {
  const [, slug, version, choice] = readerPath.split('/');
  const [language, level] = choice!.split(':');
  const detail = await (await fetch(`${baseUrl}/api/v1/publications/${slug}?publicationVersion=${version}`)).json();
  const edition = detail.editions.find((e: { id: number; language: { code: string }; level: string }) => e.language.code === language && e.level === level!.toUpperCase());
  if (!edition) throw new Error(`No ${choice} edition of ${slug}`);
  for (let position = 1; position <= passageCount; position++) {
    const passage = await (await fetch(`${baseUrl}/api/v1/passages?editionId=${edition.id}&position=${position}`)).json();
    let ready = false;
    for (let i = 0; i < 60 && !ready; i++) {
      const answer = await (await fetch(`${baseUrl}/api/v1/passages/${passage.id}/audio?editionId=${edition.id}`)).json();
      ready = answer.status === 'ready';
      if (!ready) await new Promise((r) => setTimeout(r, 500));
    }
    if (!ready) throw new Error(`Passage ${position} of ${slug} was not narrated`);
  }
}

/**
 * `turns` prefetched turns of one case, back and forth over the title. With highlight on, the primary column's
 * Listen opens the player (highlight is the reading mode it opens in) and the player is paused, so every turn
 * renders a lit passage without the audio's ticks in between. `hooks` run once the page is ready and around each
 * turn (bench/turnProfile.ts takes a CPU profile of each turn with them).
 */
export async function pageTurns(
  browser: Browser,
  baseUrl: string,
  readerPath: string,
  passageCount: number,
  turns: number,
  turnCase: TurnCase = { columns: 1, highlight: false },
  hooks: TurnHooks = {},
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(TURN_COUNTS_SCRIPT);
  const page = await context.newPage();
  const address = await turnAddress(baseUrl, readerPath, turnCase);
  await page.goto(baseUrl + address.path);
  await page.waitForSelector('[data-passage-text]');
  if (address.second) await page.waitForSelector(`[lang="${address.second}"] [data-passage-text]`);
  if (turnCase.highlight) {
    await page.getByRole('region', { name: /^(Passage|Left) column$/ }).getByRole('button', { name: 'Listen' }).click();
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    await pause.click({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor({ timeout: 10_000 });
  }
  await hooks.ready?.(page);
  const frames: number[] = [];
  const work: number[] = [];
  const commits: number[] = [];
  const rendered: number[] = [];
  const longTasks: number[] = [];
  let position = Number(readerPath.split('/').pop());
  let step = 1;
  for (let i = 0; i < turns; i++) {
    // Back and forth over the title, so a short title still gives enough turns.
    if (position + step < 1 || position + step > passageCount) step = -step;
    await page.waitForTimeout(PREFETCH_SETTLE_MS);
    await hooks.beforeTurn?.();
    const turn = await page.evaluate<TurnSample>(PAGE_TURN_SCRIPT(step > 0 ? 'ArrowRight' : 'ArrowLeft', hooks.markers));
    await hooks.afterTurn?.(turn);
    position += step;
    frames.push(turn.frame);
    work.push(turn.work);
    commits.push(turn.commits);
    rendered.push(turn.rendered);
    longTasks.push(turn.longTasks);
  }
  await hooks.done?.(page);
  await context.close();
  return { frames, work, commits, rendered, longTasks };
}

/** One case's page-turn figures. */
export interface TurnFigures {
  turnCase: TurnCase;
  turns: number;
  p50: number;
  p95: number;
  p99: number;
  workP50: number;
  workP95: number;
  workP99: number;
  /** Components rendered per turn, median and most. */
  renderedP50: number;
  renderedMax: number;
  commitsP50: number;
  /** Turns with a long task (50 ms or more) before their frame. */
  longTaskTurns: number;
}

export function turnFigures(turnCase: TurnCase, t: Awaited<ReturnType<typeof pageTurns>>): TurnFigures {
  return {
    turnCase,
    turns: t.frames.length,
    p50: percentile(t.frames, 50),
    p95: percentile(t.frames, 95),
    p99: percentile(t.frames, 99),
    workP50: percentile(t.work, 50),
    workP95: percentile(t.work, 95),
    workP99: percentile(t.work, 99),
    renderedP50: percentile(t.rendered, 50),
    renderedMax: Math.max(...t.rendered),
    commitsP50: percentile(t.commits, 50),
    longTaskTurns: t.longTasks.filter((n) => n > 0).length,
  };
}

export interface BrowserBenchResult {
  catalog: CatalogJsResult;
  coldOpenMs: number;
  coldOpenAll: number[];
  /** Median of the runs' time to the app's own reader. */
  coldOpenAppMs: number;
  coldOpenAppAll: number[];
  /** The page turns of each case (TURN_CASES). */
  pageTurns: TurnFigures[];
}

/** `readerPath` is the cold open's address; the page turns run on `turnPath` (position 1 of an edition of `turnPassages`). */
export async function browserBench(
  baseUrl: string,
  options: { readerPath: string; turnPath: string; turnPassages: number; distDir: string; turns?: number },
): Promise<BrowserBenchResult> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
  try {
    const catalog = await catalogJs(browser, baseUrl, options.distDir);
    const cold = await coldOpens(browser, baseUrl, options.readerPath);
    await narrateEdition(baseUrl, options.turnPath, options.turnPassages);
    const turnRows: TurnFigures[] = [];
    for (const turnCase of TURN_CASES) {
      const turns = await pageTurns(browser, baseUrl, options.turnPath, options.turnPassages, options.turns ?? PAGE_TURNS, turnCase);
      turnRows.push(turnFigures(turnCase, turns));
    }
    return {
      catalog,
      coldOpenMs: percentile(cold.map((r) => r.seenMs), 50),
      coldOpenAll: cold.map((r) => r.seenMs),
      coldOpenAppMs: percentile(cold.map((r) => r.appMs), 50),
      coldOpenAppAll: cold.map((r) => r.appMs),
      pageTurns: turnRows,
    };
  } finally {
    await browser.close();
  }
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function formatBrowserBench(b: BrowserBenchResult): string {
  return [
    `catalog JS until network idle: ${b.catalog.totalKb.toFixed(1)} KB gzip over ${b.catalog.scripts} script(s) (${b.catalog.beforeFirstCardKb.toFixed(1)} KB before the first card, at ${b.catalog.firstCardMs.toFixed(0)} ms; the reader's code prefetched afterwards, apart: ${b.catalog.readerPrefetchKb.toFixed(1)} KB); budget ${ENTRY_JS_BUDGET_KB} KB: ${met(b.catalog.totalKb <= ENTRY_JS_BUDGET_KB)}`,
    `cold open (navigation start to passage text in the DOM and painted), median of ${b.coldOpenAll.length}: ${b.coldOpenMs.toFixed(0)} ms (runs: ${b.coldOpenAll.map((t) => t.toFixed(0)).join(', ')}); target ${COLD_OPEN_TARGET_MS} ms: ${met(b.coldOpenMs <= COLD_OPEN_TARGET_MS)}`,
    `  the app's own reader (controls usable) takes over at: median ${b.coldOpenAppMs.toFixed(0)} ms (runs: ${b.coldOpenAppAll.map((t) => t.toFixed(0)).join(', ')})`,
    ...b.pageTurns.map(
      (t) =>
        `page turn, ${turnCaseName(t.turnCase)} (key at a frame's start to the first frame after the new passage is in the DOM, prefetched), ${t.turns} turns: p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(2)} ms = ${wholeFrames(t.p95)} frame(s), p99 ${t.p99.toFixed(1)} ms = ${wholeFrames(t.p99)} frame(s) (work, key to DOM: p50 ${t.workP50.toFixed(1)}, p95 ${t.workP95.toFixed(1)}, p99 ${t.workP99.toFixed(1)} ms; components rendered per turn p50 ${t.renderedP50}, most ${t.renderedMax}; turns with a long task ${t.longTaskTurns}); target p95 <= ${PAGE_TURN_TARGET_MS} ms (one frame) and p99 <= ${PAGE_TURN_P99_TARGET_MS} ms (two frames): ${met(wholeFrames(t.p95) <= 1 && wholeFrames(t.p99) <= 2)}`,
    ),
  ].join('\n');
}

