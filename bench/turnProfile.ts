/**
 * What runs in a page turn: a Chromium CPU profile (CDP Profiler, 100 µs samples) of each prefetched turn of one
 * case, mapped back to the sources through the build's source maps, summed over all turns and over the slow ones
 * (more than one frame). `URL=http://127.0.0.1:3111 CASE=1-on TURNS=30 DIST=dist node --import tsx bench/turnProfile.ts`
 * prints the functions with the most self time and the source files with the most total (inclusive) time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { chromium, type CDPSession } from 'playwright-core';
import { percentile } from './stats';
import { BENCH_CHROMIUM_ARGS, narrateEdition, pageTurns, TURN_CASES, turnCaseName, wholeFrames, type TurnSample } from './browser';

const url = process.env.URL;
if (!url) throw new Error('Set URL to the base URL of a running server.');
const distDir = path.resolve(process.env.DIST ?? 'dist');
const turns = Number(process.env.TURNS ?? 30);
const [columns, highlight] = (process.env.CASE ?? '1-off').split('-');
const turnCase = TURN_CASES.find((c) => c.columns === Number(columns) && c.highlight === (highlight === 'on'))!;
const TURN_PATH = '/the-lighthouse-keepers-apprentice/v1/en:original/1';
const TURN_PASSAGES = 10;
const TOP = Number(process.env.TOP ?? 30);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, TraceMap | null>();
function mapOf(scriptUrl: string): TraceMap | null {
  if (!maps.has(scriptUrl)) {
    const file = path.join(distDir, new URL(scriptUrl).pathname + '.map');
    maps.set(scriptUrl, fs.existsSync(file) ? new TraceMap(fs.readFileSync(file, 'utf8')) : null);
  }
  return maps.get(scriptUrl)!;
}

/** A frame as `function (source:line)`, through the source map when there is one. */
function frameName(f: ProfileNode['callFrame']): { name: string; file: string } {
  if (!f.url) return { name: f.functionName || '(anonymous)', file: f.functionName.startsWith('(') ? f.functionName : '(native)' };
  const map = f.url.startsWith('http') ? mapOf(f.url) : null;
  if (map) {
    const o = originalPositionFor(map, { line: f.lineNumber + 1, column: f.columnNumber });
    if (o.source) {
      const file = o.source.replace(/^(\.\.\/)+/, '').replace(/^.*node_modules\//, 'node_modules/');
      return { name: `${o.name ?? f.functionName ?? '(anonymous)'} (${file}:${o.line})`, file };
    }
  }
  return { name: `${f.functionName || '(anonymous)'} (${f.url}:${f.lineNumber + 1})`, file: f.url };
}

/**
 * Self time per function and inclusive time per source file, in ms, of one turn's profile, added to the totals: the
 * samples from the key's handling (`lecternTurnKey`) to the frame that ends the turn (`lecternTurnFrame`).
 */
function addProfile(profile: Profile, self: Map<string, number>, inclusive: Map<string, number>) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const within = (sample: number, name: string) => {
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) if (byId.get(id)!.callFrame.functionName === name) return true;
    return false;
  };
  const first = profile.samples.findIndex((s) => within(s, 'lecternTurnKey'));
  const last = profile.samples.findIndex((s) => within(s, 'lecternTurnFrame'));
  if (first < 0 || last < 0) return;
  for (let i = first; i < last; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const leaf = byId.get(profile.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    const leafName = frameName(leaf.callFrame).name;
    self.set(leafName, (self.get(leafName) ?? 0) + ms);
    // Inclusive: each source file once per sample, and each of the app's own functions (src/) once per sample.
    const keys = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = frameName(byId.get(id)!.callFrame);
      keys.add(frame.file);
      if (/(^|\/)src\//.test(frame.file)) keys.add('  ' + frame.name);
    }
    for (const key of keys) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  }
}

const top = (m: Map<string, number>, turnsCounted: number) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([k, v]) => `  ${(v / Math.max(1, turnsCounted)).toFixed(2).padStart(7)} ms/turn  ${k}`)
    .join('\n');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  cat: string;
}

/**
 * With TRACE=1, a Chromium trace (devtools.timeline) of the turns instead: the main thread's top-level work between
 * each turn's key and its frame (the user-timing marks), summed by kind (script, style, layout, paint, ...).
 */
async function traceTurns() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
  try {
    if (turnCase.highlight) await narrateEdition(url!, TURN_PATH, TURN_PASSAGES);
    let cdp: CDPSession | null = null;
    const events: TraceEvent[] = [];
    const frames: number[] = [];
    await pageTurns(browser, url!, TURN_PATH, TURN_PASSAGES, turns, turnCase, {
      markers: true,
      ready: async (page) => {
        cdp = await page.context().newCDPSession(page);
        cdp.on('Tracing.dataCollected', (data) => void events.push(...(data.value as unknown as TraceEvent[])));
        await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink.user_timing,v8.execute', transferMode: 'ReportEvents' });
      },
      afterTurn: async (turn) => void frames.push(turn.frame),
      done: async () => {
        const complete = new Promise((resolve) => cdp!.once('Tracing.tracingComplete', resolve));
        await cdp!.send('Tracing.end');
        await complete;
      },
    });
    const keys = events.filter((e) => e.name === 'lectern-turn-key').map((e) => e.ts).sort((a, b) => a - b);
    const ends = events.filter((e) => e.name === 'lectern-turn-frame').map((e) => e.ts).sort((a, b) => a - b);
    const mainTid = events.find((e) => e.name === 'lectern-turn-key')?.tid;
    const byKind = new Map<string, number>();
    const slowByKind = new Map<string, number>();
    const perTurn: Map<string, number>[] = [];
    let slowTurns = 0;
    keys.forEach((start, i) => {
      const end = ends.find((t) => t > start);
      if (end === undefined) return;
      const slow = wholeFrames(frames[i] ?? 0) > 1;
      if (slow) slowTurns++;
      // Complete events on the main thread within the window; nested ones are counted apart from their parents.
      const inside = events.filter((e) => e.tid === mainTid && e.ph === 'X' && e.dur !== undefined && e.ts >= start && e.ts < end);
      const turnKinds = new Map<string, number>();
      perTurn.push(turnKinds);
      for (const e of inside) {
        const topLevel = !inside.some((p) => p !== e && p.ts <= e.ts && p.ts + p.dur! >= e.ts + e.dur! && p.dur! > e.dur!);
        if (topLevel) for (const k of [e.name, 'all top-level work']) turnKinds.set(k, (turnKinds.get(k) ?? 0) + e.dur! / 1000);
        const parent = inside.find((p) => p !== e && p.ts <= e.ts && p.ts + p.dur! >= e.ts + e.dur! && p.dur! > e.dur!);
        const name = parent ? `  ${e.name} (in ${parent.name})` : e.name;
        for (const into of slow ? [byKind, slowByKind] : [byKind]) into.set(name, (into.get(name) ?? 0) + e.dur! / 1000);
      }
    });
    console.log(`${turnCaseName(turnCase)}, ${keys.length} turns traced (${slowTurns} slower than one frame), frames: ${frames.map((f) => wholeFrames(f)).join(' ')}`);
    console.log(`main thread between the key and the turn's frame, ms per turn:\n${top(byKind, keys.length)}`);
    const kinds = ['all top-level work', 'EventDispatch', 'RunMicrotasks', 'FireAnimationFrame', 'Layout', 'UpdateLayoutTree', 'PrePaint', 'Paint', 'Layerize'];
    const median = (k: string) => percentile(perTurn.map((m) => m.get(k) ?? 0), 50);
    const p90 = (k: string) => percentile(perTurn.map((m) => m.get(k) ?? 0), 90);
    console.log(`per turn, median / p90 ms: ${kinds.map((k) => `${k} ${median(k).toFixed(2)} / ${p90(k).toFixed(2)}`).join('; ')}`);
    if (slowTurns) console.log(`slow turns:\n${top(slowByKind, slowTurns)}`);
  } finally {
    await browser.close();
  }
}

if (process.env.TRACE) {
  await traceTurns();
  process.exit(0);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
try {
  if (turnCase.highlight) await narrateEdition(url, TURN_PATH, TURN_PASSAGES);
  let cdp: CDPSession | null = null;
  const all = { self: new Map<string, number>(), inclusive: new Map<string, number>(), turns: 0 };
  const slow = { self: new Map<string, number>(), inclusive: new Map<string, number>(), turns: 0 };
  const samples: TurnSample[] = [];
  let pageRef: import('playwright-core').Page | null = null;
  let names: Record<string, number> = {};
  await pageTurns(browser, url, TURN_PATH, TURN_PASSAGES, turns, turnCase, {
    markers: true,
    ready: async (page) => {
      cdp = await page.context().newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await page.evaluate('window.__lecternTurnNames = {}');
      pageRef = page;
    },
    beforeTurn: async () => {
      await cdp!.send('Profiler.start');
    },
    afterTurn: async (turn) => {
      const { profile } = (await cdp!.send('Profiler.stop')) as unknown as { profile: Profile };
      names = await pageRef!.evaluate<Record<string, number>>('window.__lecternTurnNames');
      samples.push(turn);
      for (const into of wholeFrames(turn.frame) > 1 ? [all, slow] : [all]) {
        addProfile(profile, into.self, into.inclusive);
        into.turns++;
      }
    },
  });
  console.log(`${turnCaseName(turnCase)}, ${samples.length} turns (${slow.turns} slower than one frame), frames: ${samples.map((s) => wholeFrames(s.frame)).join(' ')}`);
  console.log(`rendered per turn: ${samples.map((s) => s.rendered).join(' ')}`);
  const byName = Object.entries(names).sort((a, b) => b[1] - a[1]);
  console.log(`components rendered over the turns, per turn, by name:\n${byName.slice(0, TOP * 2).map(([n, c]) => `  ${(c / samples.length).toFixed(1).padStart(6)}  ${n}`).join('\n')}`);
  console.log(`\nall turns, self time:\n${top(all.self, all.turns)}\n\nall turns, inclusive time per source file and per function of src/:\n${top(all.inclusive, all.turns)}`);
  if (slow.turns) console.log(`\nslow turns, self time:\n${top(slow.self, slow.turns)}\n\nslow turns, inclusive per file and per function of src/:\n${top(slow.inclusive, slow.turns)}`);
} finally {
  await browser.close();
}
