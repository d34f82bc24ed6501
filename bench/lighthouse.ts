/**
 * Lighthouse row of `npm run bench`: lighthouse 12.2.3's default config (mobile form factor, simulated
 * throttling: 150 ms RTT, 1.6 Mbps, 4x CPU slowdown), performance category only, in Debian's Chromium launched
 * headless with the e2e suite's flags. Each page is measured `runs` times (3 by default); the run with the median
 * performance score is reported, with the spread of scores next to it.
 *
 * Targets: score >= 95, LCP <= 2.5 s, TBT <= 200 ms, CLS <= 0.1.
 *
 * Standalone: `node --import tsx bench/lighthouse.ts [baseUrl]`. Without a baseUrl it starts the real server the
 * way `npm run bench` does (bench/server.ts: fresh data dir, no background narration). LIGHTHOUSE_RUNS sets the
 * runs per page; LIGHTHOUSE_REPORT_DIR, if set, receives each page's median run as a full Lighthouse JSON report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, { defaultConfig } from 'lighthouse';
import type { Config as LighthouseConfig, Result as LighthouseResult, Trace as LighthouseTrace } from 'lighthouse';
import TraceGatherer from 'lighthouse/core/gather/gatherers/trace.js';
import { CHROMIUM_ARGS } from '../playwright.config';
import { startBenchServer } from './spawnServer';

export const LIGHTHOUSE_TARGETS = { score: 95, lcpMs: 2500, tbtMs: 200, cls: 0.1 } as const;
export const LIGHTHOUSE_PATHS = ['/catalog', '/the-fox-who-counted-stars/v1/en:original/1'];

/** One finding Lighthouse gives for a page: an opportunity (estimated savings) or a failing diagnostic. */
export interface LighthouseFinding {
  id: string;
  title: string;
  /** What Lighthouse shows next to the title (for example "Potential savings of 120 KiB"). */
  displayValue?: string;
  savingsMs?: number;
  savingsBytes?: number;
}

export interface LighthousePage {
  path: string;
  /** Performance score, 0-100, of the median run. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  speedIndexMs: number;
  /** The score of every run, in run order. */
  scores: number[];
  /** The largest contentful paint element of the median run, as Lighthouse names it. */
  lcpElement?: string;
  /** The findings of the median run that cost something, largest estimated savings first. */
  findings: LighthouseFinding[];
  /** Lighthouse's warnings for the median run (for example an interrupted load). */
  warnings: string[];
  /**
   * The median run's main-thread task time: wall clock (what Lighthouse multiplies by 4) and CPU time. Wall well
   * above CPU means other processes took the cores, and TBT and LCP came out pessimistic.
   */
  mainThread?: { wallMs: number; cpuMs: number };
  /**
   * When the main thread got much less CPU than wall time (other processes on the cores), the same trace audited
   * again with the CPU slowdown divided by that ratio: an estimate of the figures on a quiet machine. Not the row's
   * figure; context for it.
   */
  contentionCorrected?: { cpuSlowdownMultiplier: number; score: number; lcpMs: number; tbtMs: number };
  /** Where the full report of the median run was written, when LIGHTHOUSE_REPORT_DIR is set. */
  reportFile?: string;
}

export interface LighthouseBenchResult {
  pages: LighthousePage[];
  runsPerPage: number;
  lighthouseVersion: string;
  chromeVersion: string;
  /** Lighthouse's own CPU benchmark index of the machine (lower means slower; simulated throttling scales by it). */
  benchmarkIndex?: number;
  /** os.loadavg() at the start and at the end of the measurements. */
  loadAverage: { before: number[]; after: number[] };
  durationMs: number;
}

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type TraceEvent = LighthouseTrace['traceEvents'][number] & { tdur?: number; id2?: { local?: string } };

/** Main-thread time of the last trace gathered: wall time of its tasks against the CPU time the thread got. */
let lastMainThread: { wallMs: number; cpuMs: number } | undefined;

function mainThreadTime(events: TraceEvent[]): { wallMs: number; cpuMs: number } | undefined {
  const threads = new Set(events.filter((e) => e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, { wallMs: number; cpuMs: number }>();
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !threads.has(`${e.pid}:${e.tid}`)) continue;
    const t = byThread.get(`${e.pid}:${e.tid}`) ?? { wallMs: 0, cpuMs: 0 };
    t.wallMs += (e.dur ?? 0) / 1000;
    t.cpuMs += (e.tdur ?? 0) / 1000;
    byThread.set(`${e.pid}:${e.tid}`, t);
  }
  return [...byThread.values()].sort((a, b) => b.wallMs - a.wallMs)[0];
}

/**
 * The trace gatherer, with two additions:
 * - Lighthouse 12.2.3's trace engine predates this Chromium: some of Chromium's `PipelineReporter` frame events no
 *   longer carry `args.chrome_frame_reporter`, and the engine's screenshot handler throws on them, which takes down
 *   the LCP-element, layout-shift and render-blocking audits (the metrics themselves are unaffected). Lighthouse only
 *   uses those events to time screenshots, so the incomplete ones are dropped (begin and end, by id).
 * - It records the page's main-thread wall time against its CPU time: simulated throttling multiplies the observed
 *   wall time of tasks by 4, so other processes competing for the cores inflate TBT and LCP. A ratio well above 1
 *   means the figures are pessimistic.
 */
class TraceWithoutIncompleteFrameReports extends TraceGatherer {
  getArtifact(): LighthouseTrace {
    const trace = super.getArtifact();
    const events = trace.traceEvents as TraceEvent[];
    lastMainThread = mainThreadTime(events);
    const idOf = (e: TraceEvent) => `${e.pid}:${e.id ?? e.id2?.local}`;
    const incomplete = new Set(
      events
        .filter((e) => e.name === 'PipelineReporter' && e.ph === 'b' && !(e.args as { chrome_frame_reporter?: unknown })?.chrome_frame_reporter)
        .map(idOf),
    );
    if (process.env.LIGHTHOUSE_TRACE_DUMP) fs.writeFileSync(process.env.LIGHTHOUSE_TRACE_DUMP, JSON.stringify(trace));
    if (incomplete.size === 0) return trace;
    return { ...trace, traceEvents: events.filter((e) => e.name !== 'PipelineReporter' || !incomplete.has(idOf(e))) };
  }
}

/** lighthouse:default (mobile, simulated throttling), performance only, with the trace gatherer above. */
const LIGHTHOUSE_CONFIG: LighthouseConfig = {
  ...defaultConfig,
  settings: { ...defaultConfig.settings, onlyCategories: ['performance'] },
  // Not `extends` with an artifact of the same id: lighthouse cannot merge an object gatherer into the named one.
  artifacts: defaultConfig.artifacts?.map((a) =>
    a.id === 'Trace' ? { ...a, gatherer: { implementation: TraceWithoutIncompleteFrameReports } } : a,
  ),
};

function numeric(lhr: LighthouseResult, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (typeof value !== 'number') throw new Error(`lighthouse gave no value for ${id} (${lhr.audits[id]?.errorMessage ?? 'missing audit'})`);
  return value;
}

function lcpElementOf(lhr: LighthouseResult): string | undefined {
  // 12.x: largest-contentful-paint-element's details are a list whose first table holds the node.
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: Array<{ items?: Array<{ node?: { snippet?: string; selector?: string; nodeLabel?: string } }> }> }
    | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  if (!node) return undefined;
  return [node.nodeLabel, node.selector, node.snippet].filter(Boolean).join(' | ');
}

function findingsOf(lhr: LighthouseResult): LighthouseFinding[] {
  const refs = lhr.categories.performance?.auditRefs ?? [];
  const findings: LighthouseFinding[] = [];
  for (const ref of refs) {
    if (ref.group === 'metrics') continue;
    const audit = lhr.audits[ref.id];
    if (!audit || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'manual') continue;
    const details = audit.details as { overallSavingsMs?: number; overallSavingsBytes?: number } | undefined;
    const savingsMs = audit.metricSavings
      ? Math.max(0, ...Object.entries(audit.metricSavings).filter(([k]) => k !== 'CLS').map(([, v]) => v ?? 0))
      : details?.overallSavingsMs;
    const passed = audit.score !== null && audit.score >= 0.9;
    if (passed && !savingsMs) continue;
    if (audit.scoreDisplayMode === 'informative' && !savingsMs && !audit.displayValue) continue;
    findings.push({
      id: ref.id,
      title: audit.title,
      displayValue: audit.displayValue,
      savingsMs: savingsMs || undefined,
      savingsBytes: details?.overallSavingsBytes || undefined,
    });
  }
  return findings.sort((a, b) => (b.savingsMs ?? 0) - (a.savingsMs ?? 0) || (b.savingsBytes ?? 0) - (a.savingsBytes ?? 0));
}

function correctedFigures(measured: LighthouseResult, corrected: LighthouseResult | undefined): LighthousePage['contentionCorrected'] {
  if (!corrected || corrected === measured) return undefined;
  return {
    cpuSlowdownMultiplier: corrected.configSettings.throttling.cpuSlowdownMultiplier,
    score: Math.round((corrected.categories.performance.score ?? 0) * 100),
    lcpMs: numeric(corrected, 'largest-contentful-paint'),
    tbtMs: numeric(corrected, 'total-blocking-time'),
  };
}

function medianByScore(runs: LighthouseResult[]): LighthouseResult {
  const sorted = [...runs].sort((a, b) => (a.categories.performance.score ?? 0) - (b.categories.performance.score ?? 0));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const DEFAULT_CPU_SLOWDOWN = defaultConfig.settings?.throttling?.cpuSlowdownMultiplier ?? 4;
/** Main-thread wall time above this many times its CPU time counts as contention worth correcting for. */
const CONTENTION_THRESHOLD = 1.5;

/** Audits the artifacts gathered in `dir`, optionally with another CPU slowdown than the mobile preset's 4x. */
async function audit(url: string, dir: string, cpuSlowdownMultiplier?: number): Promise<LighthouseResult> {
  if (cpuSlowdownMultiplier) {
    // Lighthouse refuses to audit with other settings than it gathered with, so the saved settings change too.
    const file = path.join(dir, 'artifacts.json');
    const artifacts = JSON.parse(fs.readFileSync(file, 'utf8'));
    artifacts.settings.throttling.cpuSlowdownMultiplier = cpuSlowdownMultiplier;
    fs.writeFileSync(file, JSON.stringify(artifacts));
  }
  const result = await lighthouse(
    url,
    {
      logLevel: 'error',
      auditMode: dir,
      ...(cpuSlowdownMultiplier ? { throttling: { ...defaultConfig.settings?.throttling, cpuSlowdownMultiplier } } : {}),
    },
    LIGHTHOUSE_CONFIG,
  );
  if (!result) throw new Error(`lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

/** Runs Lighthouse (mobile, simulated throttling, performance only) on each path, `runs` times, in one Chromium. */
export async function lighthouseBench(
  baseUrl: string,
  paths: string[] = LIGHTHOUSE_PATHS,
  options: { runs?: number; reportDir?: string } = {},
): Promise<LighthouseBenchResult> {
  const runsPerPage = options.runs ?? Number(process.env.LIGHTHOUSE_RUNS ?? 3);
  const reportDir = options.reportDir ?? process.env.LIGHTHOUSE_REPORT_DIR;
  const started = performance.now();
  const loadBefore = os.loadavg();
  // chrome-launcher adds its own defaults (no extensions, no default apps, background networking off, ...) to these.
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-lighthouse-'));
  const chrome = await launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_ARGS, logLevel: 'silent', userDataDir });
  const pages: LighthousePage[] = [];
  let lighthouseVersion = '';
  let chromeVersion = '';
  let benchmarkIndex: number | undefined;
  try {
    for (const p of paths) {
      const url = new URL(p, baseUrl).href;
      // A server that is down shows up in Lighthouse as a puzzling CHROME_INTERSTITIAL_ERROR: say so plainly.
      const probe = await fetch(url).catch((error: unknown) => {
        throw new Error(`${url} does not answer (${error instanceof Error ? error.message : String(error)})`);
      });
      if (!probe.ok) throw new Error(`${url} answers ${probe.status}`);
      const runs: LighthouseResult[] = [];
      const mainThreads = new Map<LighthouseResult, { wallMs: number; cpuMs: number } | undefined>();
      const corrected = new Map<LighthouseResult, LighthouseResult>();
      for (let i = 0; i < runsPerPage; i++) {
        // Gather once (to disk), then audit those artifacts: as measured, and with the CPU slowdown scaled down by
        // the contention seen on the main thread.
        const artifactsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-lighthouse-artifacts-'));
        try {
          lastMainThread = undefined;
          await lighthouse(url, { port: chrome.port, logLevel: 'error', gatherMode: artifactsDir }, LIGHTHOUSE_CONFIG);
          const mainThread = lastMainThread as { wallMs: number; cpuMs: number } | undefined;
          const lhr = await audit(url, artifactsDir);
          runs.push(lhr);
          mainThreads.set(lhr, mainThread);
          const contention = mainThread ? mainThread.wallMs / Math.max(1, mainThread.cpuMs) : 1;
          corrected.set(
            lhr,
            contention > CONTENTION_THRESHOLD
              ? await audit(url, artifactsDir, DEFAULT_CPU_SLOWDOWN / contention)
              : lhr,
          );
        } finally {
          fs.rmSync(artifactsDir, { recursive: true, force: true });
        }
      }
      const median = medianByScore(runs);
      lighthouseVersion = median.lighthouseVersion;
      chromeVersion = median.environment.hostUserAgent.match(/(?:Headless)?Chrome\/[\d.]+/)?.[0] ?? median.environment.hostUserAgent;
      benchmarkIndex = median.environment.benchmarkIndex;
      let reportFile: string | undefined;
      if (reportDir) {
        fs.mkdirSync(reportDir, { recursive: true });
        reportFile = path.join(reportDir, `${p.replace(/^\//, '').replace(/[^\w.-]+/g, '_') || 'root'}.json`);
        fs.writeFileSync(reportFile, JSON.stringify(median, null, 1));
      }
      pages.push({
        path: p,
        score: Math.round((median.categories.performance.score ?? 0) * 100),
        lcpMs: numeric(median, 'largest-contentful-paint'),
        tbtMs: numeric(median, 'total-blocking-time'),
        cls: numeric(median, 'cumulative-layout-shift'),
        fcpMs: numeric(median, 'first-contentful-paint'),
        speedIndexMs: numeric(median, 'speed-index'),
        scores: runs.map((r) => Math.round((r.categories.performance.score ?? 0) * 100)),
        lcpElement: lcpElementOf(median),
        findings: findingsOf(median),
        warnings: median.runWarnings,
        mainThread: mainThreads.get(median),
        contentionCorrected: correctedFigures(median, corrected.get(median)),
        reportFile,
      });
    }
  } finally {
    chrome.kill();
    fs.rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
  return {
    pages,
    runsPerPage,
    lighthouseVersion,
    chromeVersion,
    benchmarkIndex,
    loadAverage: { before: loadBefore, after: os.loadavg() },
    durationMs: performance.now() - started,
  };
}

const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The Lighthouse rows of the bench: one line per page and metric, each against its target. */
export function formatLighthouse(result: LighthouseBenchResult, options: { findings?: number } = {}): string {
  const t = LIGHTHOUSE_TARGETS;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const lines = [
    `Lighthouse ${result.lighthouseVersion}, mobile, simulated throttling, performance only, ${result.chromeVersion}; median score of ${result.runsPerPage} run(s) per page; ` +
      `benchmarkIndex ${result.benchmarkIndex?.toFixed(0) ?? '?'}; load average ${load(result.loadAverage.before)} -> ${load(result.loadAverage.after)}; ${(result.durationMs / 1000).toFixed(0)} s`,
  ];
  for (const p of result.pages) {
    lines.push(
      `lighthouse ${p.path}: score ${p.score} (runs: ${p.scores.join(', ')}); target >= ${t.score}: ${mark(p.score >= t.score)}`,
      `  LCP ${(p.lcpMs / 1000).toFixed(2)} s; target <= ${t.lcpMs / 1000} s: ${mark(p.lcpMs <= t.lcpMs)}`,
      `  TBT ${p.tbtMs.toFixed(0)} ms; target <= ${t.tbtMs} ms: ${mark(p.tbtMs <= t.tbtMs)}`,
      `  CLS ${p.cls.toFixed(3)}; target <= ${t.cls}: ${mark(p.cls <= t.cls)}`,
      `  (FCP ${(p.fcpMs / 1000).toFixed(2)} s, Speed Index ${(p.speedIndexMs / 1000).toFixed(2)} s${p.lcpElement ? `; LCP element: ${p.lcpElement.slice(0, 120)}` : ''})`,
    );
    if (p.mainThread) {
      const ratio = p.mainThread.wallMs / Math.max(1, p.mainThread.cpuMs);
      lines.push(
        `  (main thread: ${p.mainThread.wallMs.toFixed(0)} ms of tasks, ${p.mainThread.cpuMs.toFixed(0)} ms of CPU${ratio > CONTENTION_THRESHOLD ? `: the cores were busy (x${ratio.toFixed(1)}), so TBT and LCP are pessimistic` : ''})`,
      );
    }
    if (p.contentionCorrected) {
      const c = p.contentionCorrected;
      lines.push(
        `  (corrected for contention, CPU slowdown ${c.cpuSlowdownMultiplier.toFixed(2)}x instead of ${DEFAULT_CPU_SLOWDOWN}x: score ${c.score}, LCP ${(c.lcpMs / 1000).toFixed(2)} s, TBT ${c.tbtMs.toFixed(0)} ms; an estimate, not the row)`,
      );
    }
    for (const f of p.findings.slice(0, options.findings ?? 0)) {
      lines.push(`    - ${f.title}${f.displayValue ? `: ${f.displayValue}` : ''}${f.savingsMs ? ` (~${f.savingsMs.toFixed(0)} ms)` : ''}`);
    }
    for (const w of p.warnings) lines.push(`    warning: ${w}`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const given = process.argv[2];
  const server = given ? { url: given, stop: () => {} } : await startBenchServer();
  try {
    console.log(formatLighthouse(await lighthouseBench(server.url, LIGHTHOUSE_PATHS), { findings: Number(process.env.LIGHTHOUSE_FINDINGS ?? 8) }));
  } finally {
    server.stop();
  }
}
