/**
 * `npm run bench` (each row measured in the same run as its baseline or target):
 * - HTTP: autocannon on loopback against the real server (in its own process), GET /passages and
 *   GET /publications?search= next to a constant-JSON route as the ceiling, with each ratio to it;
 * - browser (bench/browser.ts): catalog JS until network idle, cold reader open, page turn;
 * - the reader's start-up (bench/readerStartup.ts): the JS requested before the reader is interactive and the time
 *   to interactive, unthrottled and with the CPU slowed 6x;
 * - highlight drift (bench/highlight.ts);
 * - Lighthouse, mobile, for /catalog and a reader address (bench/lighthouse.ts);
 * - load: N simulated readers against `npm start` for N = 50 and 200 (bench/load.ts);
 * - capacity: 500 readers (catalog, title, passages, narration answers, MP3 ranges) against one server with /ping
 *   probed in the same run, GET /passages per server CPU-second, then two servers on one PostgreSQL behind HAProxy
 *   with one killed mid-run (bench/capacity.ts; the second half is skipped without haproxy or PostgreSQL);
 * - catalog search over 10,000 synthetic titles (bench/search.ts);
 * - narration CPU per audio minute and kbps (bench/narration.ts);
 * - the English voices compared, Flite slt and eSpeak en-us: CPU per audio minute, kbps and mark drift against the
 *   MP3 as Chromium decodes it (bench/voices.ts);
 * - Listen pressed → first audio playing in Chromium, on English passages never narrated, with the narration queue
 *   idle and busy (bench/listenStart.ts).
 * The servers are stopped between parts, so no two parts compete for the cores. BENCH_SKIP_<PART> (BROWSER,
 * READER_STARTUP, LIGHTHOUSE, LOAD, CAPACITY, SEARCH, NARRATION, VOICES, LISTEN) leaves a part out.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchServer } from './spawnServer';
import { browserBench, entryJsReport, formatBrowserBench, ENTRY_JS_BUDGET_KB } from './browser';
import { formatLighthouse, lighthouseBench } from './lighthouse';
import { formatReaderStartup, readerStartupBench } from './readerStartup';
import { formatLoadBench, loadBench } from './load';
import { capacityBench, formatCapacity } from './capacity';
import { formatSearchBench, searchBench } from './search';
import { formatNarrationBench, narrationBench } from './narration';
import { formatVoiceComparison, voiceComparisonBench } from './voices';
import { formatHighlightDrift, highlightDriftBench } from './highlight';
import { formatListenStart, listenStartBench } from './listenStart';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP_S = 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const root = path.resolve(import.meta.dirname, '..');

const server = await startBenchServer();
const url = server.url;

/** The title whose English ORIGINAL edition has the most passages: the page turns' walk. */
async function longestEdition(base: string): Promise<{ slug: string; version: string; passageCount: number }> {
  const list = (await (await fetch(`${base}/api/v1/publications?pageSize=100`)).json()) as { items: { slug: string }[] };
  let best = { slug: '', version: 'v1', passageCount: 0 };
  for (const { slug } of list.items) {
    const detail = (await (await fetch(`${base}/api/v1/publications/${slug}`)).json()) as {
      version: string;
      editions?: { language: { code: string }; level: string; passageCount: number }[];
    };
    const edition = detail.editions?.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL');
    if (edition && edition.passageCount > best.passageCount) best = { slug, version: detail.version, passageCount: edition.passageCount };
  }
  return best;
}

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
    // The cold open on the address docs/performance.md measures; the page turns on the longest English edition.
    const turn = await longestEdition(url);
    const b = await browserBench(url, {
      readerPath: '/how-bees-make-honey/v1/en:original/3',
      turnPath: `/${turn.slug}/${turn.version}/en:original/1`,
      turnPassages: turn.passageCount,
      distDir: path.join(root, 'dist'),
    });
    console.log('\n' + formatBrowserBench(b));
    if (process.env.BENCH_SKIP_READER_STARTUP) console.log('\nreader start-up skipped (BENCH_SKIP_READER_STARTUP)');
    else console.log('\n' + formatReaderStartup(await readerStartupBench(url)));
    if (process.env.BENCH_SKIP_LIGHTHOUSE) console.log('\nLighthouse skipped (BENCH_SKIP_LIGHTHOUSE)');
    else console.log('\n' + formatLighthouse(await lighthouseBench(url)));
    try {
      console.log(formatHighlightDrift(await highlightDriftBench(url)));
    } catch (error) {
      console.log(`highlight drift: not measured (${error instanceof Error ? error.message : String(error)})`);
    }
  }
} finally {
  server.stop();
}

/**
 * The parts after the HTTP and browser rows, in order, each skipped by its BENCH_SKIP_<PART>: load and capacity start
 * their own servers; narration runs after the HTTP servers have stopped, so they do not compete for the cores; Listen
 * start has its own servers (an empty data dir each), after the others have stopped.
 */
const LATER_PARTS: { part: string; name: string; run: () => Promise<string> }[] = [
  { part: 'LOAD', name: 'load', run: async () => formatLoadBench(await loadBench()) },
  { part: 'CAPACITY', name: 'capacity', run: async () => formatCapacity(await capacityBench()) },
  { part: 'SEARCH', name: 'catalog search', run: async () => formatSearchBench(await searchBench()) },
  { part: 'NARRATION', name: 'narration measurements', run: async () => formatNarrationBench(await narrationBench({ full: process.env.BENCH_NARRATION_FULL !== '0' })) },
  { part: 'VOICES', name: 'voice comparison', run: async () => formatVoiceComparison(await voiceComparisonBench()) },
  { part: 'LISTEN', name: 'Listen start', run: async () => formatListenStart(await listenStartBench()) },
];
for (const { part, name, run } of LATER_PARTS) {
  if (process.env[`BENCH_SKIP_${part}`]) console.log(`\n${name} skipped (BENCH_SKIP_${part})`);
  else console.log('\n' + (await run()));
}
