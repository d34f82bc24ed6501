/**
 * Paired browser measurements of two running servers, alternating A and B so both see the same machine load:
 * `A=http://127.0.0.1:3112 B=http://127.0.0.1:3111 WHAT=turn|cold ROUNDS=3 node --import tsx bench/ab.ts`.
 * Start A from a worktree of the baseline commit and B from the change (each `vite build` first). Prints each
 * round and the ratio B/A of the medians over all rounds (docs/performance.md).
 */
import { chromium } from 'playwright-core';
import { BENCH_CHROMIUM_ARGS, coldOpens, pageTurns } from './browser';
import { percentile } from './stats';

const servers = { A: process.env.A, B: process.env.B };
if (!servers.A || !servers.B) throw new Error('Set A and B to the base URLs of the two servers.');
const what = process.env.WHAT === 'cold' ? 'cold' : 'turn';
const rounds = Number(process.env.ROUNDS ?? 3);
const TURN_PATH = '/the-lighthouse-keepers-apprentice/v1/en:original/1';
const TURN_PASSAGES = 10;
const COLD_PATH = '/how-bees-make-honey/v1/en:original/3';

const samples: Record<'A' | 'B', number[]> = { A: [], B: [] };
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: BENCH_CHROMIUM_ARGS });
try {
  for (let round = 1; round <= rounds; round++) {
    for (const name of ['A', 'B'] as const) {
      const url = servers[name]!;
      if (what === 'turn') {
        const t = await pageTurns(browser, url, TURN_PATH, TURN_PASSAGES, 20);
        samples[name].push(...t.work);
        console.log(`${round} ${name} page turn: frames p50 ${percentile(t.frames, 50).toFixed(1)} p95 ${percentile(t.frames, 95).toFixed(1)} ms; work p50 ${percentile(t.work, 50).toFixed(1)} p95 ${percentile(t.work, 95).toFixed(1)} ms`);
      } else {
        const c = await coldOpens(browser, url, COLD_PATH);
        samples[name].push(...c.map((r) => r.seenMs));
        console.log(`${round} ${name} cold open: text seen ${c.map((r) => r.seenMs.toFixed(0)).join(', ')} ms; app ${c.map((r) => r.appMs.toFixed(0)).join(', ')} ms`);
      }
    }
  }
} finally {
  await browser.close();
}
const [a, b] = [percentile(samples.A, 50), percentile(samples.B, 50)];
console.log(`${what === 'turn' ? 'page-turn work' : 'cold open (text seen)'} median: A ${a.toFixed(1)} ms, B ${b.toFixed(1)} ms, B/A ${(b / a).toFixed(2)}`);
