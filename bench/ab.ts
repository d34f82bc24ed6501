/**
 * Paired browser measurements of two running servers, alternating A and B so both see the same machine load:
 * `A=http://127.0.0.1:3112 B=http://127.0.0.1:3111 WHAT=turn|cold ROUNDS=3 node --import tsx bench/ab.ts`.
 * Start A from a worktree of the baseline commit and B from the change (each `vite build` first). Prints each
 * round and, over all rounds, the medians and the ratio B/A (docs/performance.md).
 * Page turns: `TURNS` per case and round (30), in the cases `CASES` names (`1-off,1-on,2-off,2-on`: columns and
 * highlight; all four by default); besides the times, what each turn did is counted: components rendered, React
 * commits, and turns with a long task, which the machine's load moves far less than a time.
 */
import { chromium } from 'playwright-core';
import { BENCH_CHROMIUM_ARGS, coldOpens, narrateEdition, pageTurns, TURN_CASES, turnCaseName, turnFigures, type TurnCase } from './browser';
import { percentile } from './stats';

const servers = { A: process.env.A, B: process.env.B };
if (!servers.A || !servers.B) throw new Error('Set A and B to the base URLs of the two servers.');
const what = process.env.WHAT === 'cold' ? 'cold' : 'turn';
const rounds = Number(process.env.ROUNDS ?? 3);
const turnsPerRound = Number(process.env.TURNS ?? 30);
const TURN_PATH = '/the-lighthouse-keepers-apprentice/v1/en:original/1';
const TURN_PASSAGES = 10;
const COLD_PATH = '/how-bees-make-honey/v1/en:original/3';
const caseKey = (c: TurnCase) => `${c.columns}-${c.highlight ? 'on' : 'off'}`;
const cases = process.env.CASES ? TURN_CASES.filter((c) => process.env.CASES!.split(',').includes(caseKey(c))) : TURN_CASES;

type Samples = { frames: number[]; work: number[]; rendered: number[]; commits: number[]; longTasks: number[] };
const empty = (): Samples => ({ frames: [], work: [], rendered: [], commits: [], longTasks: [] });
const turnSamples: Record<'A' | 'B', Map<string, Samples>> = { A: new Map(), B: new Map() };
const coldSamples: Record<'A' | 'B', number[]> = { A: [], B: [] };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
try {
  if (what === 'turn' && cases.some((c) => c.highlight)) {
    for (const url of [servers.A, servers.B]) await narrateEdition(url, TURN_PATH, TURN_PASSAGES);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['A', 'B'] as const) {
      const url = servers[name]!;
      if (what === 'turn') {
        for (const turnCase of cases) {
          const t = await pageTurns(browser, url, TURN_PATH, TURN_PASSAGES, turnsPerRound, turnCase);
          const all = turnSamples[name].get(caseKey(turnCase)) ?? empty();
          for (const k of Object.keys(all) as (keyof Samples)[]) all[k].push(...t[k]);
          turnSamples[name].set(caseKey(turnCase), all);
          const f = turnFigures(turnCase, t);
          console.log(
            `${round} ${name} ${turnCaseName(turnCase)}: frames p50 ${f.p50.toFixed(1)} p95 ${f.p95.toFixed(1)} p99 ${f.p99.toFixed(1)} ms; work p50 ${f.workP50.toFixed(1)} p95 ${f.workP95.toFixed(1)} ms; rendered p50 ${f.renderedP50} max ${f.renderedMax}; commits p50 ${f.commitsP50}; long-task turns ${f.longTaskTurns}/${f.turns}`,
          );
        }
      } else {
        const c = await coldOpens(browser, url, COLD_PATH);
        coldSamples[name].push(...c.map((r) => r.seenMs));
        console.log(`${round} ${name} cold open: text seen ${c.map((r) => r.seenMs.toFixed(0)).join(', ')} ms; app ${c.map((r) => r.appMs.toFixed(0)).join(', ')} ms`);
      }
    }
  }
} finally {
  await browser.close();
}
if (what === 'turn') {
  for (const turnCase of cases) {
    const [a, b] = [turnSamples.A.get(caseKey(turnCase))!, turnSamples.B.get(caseKey(turnCase))!];
    const row = (s: Samples) =>
      `frames p50 ${percentile(s.frames, 50).toFixed(1)} p95 ${percentile(s.frames, 95).toFixed(1)} p99 ${percentile(s.frames, 99).toFixed(1)} ms, work p50 ${percentile(s.work, 50).toFixed(1)} p95 ${percentile(s.work, 95).toFixed(1)} ms, rendered p50 ${percentile(s.rendered, 50)}, commits p50 ${percentile(s.commits, 50)}, long-task turns ${s.longTasks.filter((n) => n > 0).length}/${s.frames.length}`;
    console.log(`${turnCaseName(turnCase)}:\n  A ${row(a)}\n  B ${row(b)}\n  work median B/A ${(percentile(b.work, 50) / percentile(a.work, 50)).toFixed(2)}`);
  }
} else {
  const [a, b] = [percentile(coldSamples.A, 50), percentile(coldSamples.B, 50)];
  console.log(`cold open (text seen) median: A ${a.toFixed(1)} ms, B ${b.toFixed(1)} ms, B/A ${(b / a).toFixed(2)}`);
}
