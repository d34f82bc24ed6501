/**
 * `npm run bench`: autocannon on loopback against the real server (in its own process). Reports requests/s and
 * p99 for GET /passages and GET /publications?search=, next to a constant-JSON route on the same server as the
 * ceiling, and prints each ratio to that ceiling. Target on a 2-core machine: passages/ceiling >= 0.5.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { browserBench, entryJsReport, ENTRY_JS_BUDGET_KB, PAGE_TURN_TARGET_MS, COLD_OPEN_TARGET_MS } from './browser';
import { formatNarrationBench, narrationBench } from './narration';
import { formatHighlightDrift, highlightDriftBench } from './highlight';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP_S = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const root = path.resolve(import.meta.dirname, '..');

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/server.ts')], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url: string = await new Promise((resolve, reject) => {
  const rl = readline.createInterface({ input: child.stdout! });
  rl.on('line', (line) => {
    try {
      resolve(JSON.parse(line).url);
    } catch {
      /* log line */
    }
  });
  child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
});

async function measure(name: string, target: string) {
  // Warm the cache and the JIT first, so the order of measurement does not matter.
  await autocannon({ url: url + target, connections: CONNECTIONS, duration: WARMUP_S });
  const result = await autocannon({ url: url + target, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx) throw new Error(`${name}: ${result.non2xx} non-2xx responses`);
  return { name, rps: result.requests.average, p99: result.latency.p99 };
}

try {
  const list = await (await fetch(`${url}/api/v1/publications`)).json();
  const detail = await (await fetch(`${url}/api/v1/publications/${list.items[0].slug}`)).json();
  const editionId = detail.editions[0].id;

  const ceiling = await measure('constant JSON (ceiling)', '/bench/constant');
  const rows = [
    ceiling,
    await measure('GET /passages', `/api/v1/passages?editionId=${editionId}&position=1`),
    await measure('GET /publications?search=', '/api/v1/publications?search=the'),
  ];
  console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION_S} s each, loopback, ${url}\n`);
  console.log('route                          req/s     p99 ms   ratio to ceiling');
  for (const r of rows) {
    console.log(`${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(7)}  ${String(r.p99).padStart(7)}   ${(r.rps / ceiling.rps).toFixed(2)}`);
  }
  const ratio = rows[1].rps / ceiling.rps;
  console.log(`\npassages/ceiling = ${ratio.toFixed(2)} (target >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'})`);

  const entry = entryJsReport(path.join(root, 'dist'));
  console.log(
    `\nentry JS of the catalog route: ${entry.gzipKb.toFixed(1)} KB gzip (${entry.rawKb.toFixed(1)} KB raw, ${entry.files.length} file(s)); budget ${ENTRY_JS_BUDGET_KB} KB: ${entry.gzipKb <= ENTRY_JS_BUDGET_KB ? 'met' : 'NOT met'}`,
  );
  if (process.env.BENCH_SKIP_BROWSER) {
    console.log('browser measurements skipped (BENCH_SKIP_BROWSER)');
  } else {
    const b = await browserBench(url, '/the-fox-who-counted-stars/v1/en:original/1');
    console.log(
      `page turn (ArrowRight to the new passage painted, prefetched): p50 ${b.pageTurnP50.toFixed(1)} ms, p95 ${b.pageTurnP95.toFixed(1)} ms; target p95 <= ${PAGE_TURN_TARGET_MS} ms: ${b.pageTurnP95 <= PAGE_TURN_TARGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log(`cold open (navigation to passage text): ${b.coldOpenMs.toFixed(0)} ms (runs: ${b.coldOpenAll.map((t) => t.toFixed(0)).join(', ')}); target ${COLD_OPEN_TARGET_MS} ms: ${b.coldOpenMs <= COLD_OPEN_TARGET_MS ? 'met' : 'NOT met'}`);
    try {
      console.log(formatHighlightDrift(await highlightDriftBench(url)));
    } catch (error) {
      console.log(`highlight drift: not measured (${error instanceof Error ? error.message : String(error)})`);
    }
  }
} finally {
  child.kill('SIGTERM');
}

// Narration runs after the HTTP server has stopped, so the two do not compete for the cores.
if (process.env.BENCH_SKIP_NARRATION) {
  console.log('\nnarration measurements skipped (BENCH_SKIP_NARRATION)');
} else {
  console.log('\n' + formatNarrationBench(await narrationBench({ full: process.env.BENCH_NARRATION_FULL !== '0' })));
}
