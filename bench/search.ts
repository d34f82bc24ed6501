/**
 * Catalog search bench (catalog search over 10,000 titles): generates synthetic titles into a
 * temporary database, starts the real server on it, and times `GET /api/v1/publications?search=` for word
 * prefixes (1–3 letters, whole words, two words, other scripts, misses), cold and warm. Target: p95 ≤ 50 ms.
 *
 * - Cold: the first search after the server starts, and the first after each content revision change (the
 *   catalog index is rebuilt from the database then).
 * - Warm: the same prefixes again, several rounds, across sorts and pages.
 * - Index: the catalog build alone (`ContentStore.list` after `invalidate()`), its time and the heap it keeps.
 *
 * `searchBench()` is for the main bench to call; `node --import tsx bench/search.ts` runs it alone. The database
 * is a PGlite data directory under the system's temp folder, removed afterwards (never DATA_DIR), or the
 * throwaway PostgreSQL database given as `databaseUrl` (BENCH_SEARCH_DATABASE_URL): its tables get 10,000 rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../server/db/client';
import { editions, passages, publications } from '../server/db/schema';
import { bumpRevision } from '../server/content/import';
import { startServer } from '../server/server';
import { ContentStore } from '../server/content/store';
import { percentile } from './stats';

/** The row's target: p95 of a search request, ms. */
export const SEARCH_TARGET_MS = 50;

export interface SearchBenchOptions {
  /** Synthetic titles generated. @default 10000 */
  titles?: number;
  /** Seed of the generator: the same seed gives the same library. @default 12 */
  seed?: number;
  /** Rounds over the query list once warm. @default 5 */
  warmRounds?: number;
  /** Cold samples: the first search after start, then one after each content revision change. @default 15 */
  coldSamples?: number;
  /** Timed index builds (the catalog alone, without HTTP). @default 5 */
  buildSamples?: number;
  /** A throwaway PostgreSQL database instead of a temporary PGlite. @default BENCH_SEARCH_DATABASE_URL */
  databaseUrl?: string;
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface SearchBenchResult {
  database: 'pglite' | 'postgres';
  titles: number;
  editions: number;
  passages: number;
  /** Generating and inserting the library, ms. */
  generateMs: number;
  /** The first search after the server started, ms. */
  firstAfterStartMs: number;
  /** First searches after start and after each revision change. */
  cold: Percentiles;
  /** Every warm search. */
  warm: Percentiles;
  /** The search inside the store alone (`ContentStore.list`, no HTTP or JSON), warm, every kind but sort/page. */
  inStore: Percentiles;
  /** Warm searches by kind of query. */
  warmByKind: Record<QueryKind, Percentiles>;
  /** The catalog build alone after a revision change (database read included), ms: median and max over the samples. */
  indexBuildMs: { median: number; max: number };
  /** Heap kept by a built catalog (entries, sort orders, search index), MB; null when the collector could not be reached. */
  indexHeapMb: number | null;
  /** Response body sizes of the warm searches, bytes. */
  responseBytes: { mean: number; max: number };
  /** Matches per query: median and max of `total`. */
  totals: { median: number; max: number };
  /** The load average (1, 5, 15 min) when the measurement started and ended. */
  loadAverage: { before: number[]; after: number[] };
  targetMs: number;
  /** warm.p95 and cold.p95 each within the target. */
  met: { warm: boolean; cold: boolean };
}

type QueryKind = '1 letter' | '2 letters' | '3 letters' | 'word' | 'two words' | 'other script' | 'miss' | 'sort/page';

// ---------------------------------------------------------------------------------------------------------------
// The synthetic library

/** mulberry32: a small seeded generator, so every run times the same library. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES =
  'little big brave quiet hidden golden silver shiny sleepy hungry clever lost secret silent bright dark tiny giant ancient curious busy gentle wild lonely happy restless frozen painted paper broken singing dancing wandering patient stubborn forgotten crooked tall narrow rainy windy sunny cloudy purple crimson emerald'.split(' ');
const NOUNS =
  'fox crow goat moon star river mountain lighthouse keeper apprentice map notebook wave cloud rainbow volcano bee honey paper city garden forest desert island ocean whale turtle owl dragon robot baker teacher sailor pilot farmer pump bicycle kite lantern clock hour shadow ship train bridge castle village market song drum story letter window door key'.split(' ');
const VERBS =
  'counted chased kept wanted found lost built painted carried followed dreamed crossed climbed opened named mended watched fed saved borrowed'.split(' ');
const PLURAL_VERBS = 'make grow travel sleep sing change dance fly swim hide move build'.split(' ');
const FIRST_NAMES =
  'Amani Noor Pip Theo Zora Adrian Beatrix Marguerite Kofi Lina Mateo Sofia Ines Yusuf Mei Arjun Priya Olu Hana Ivan Olga Chidi Rosa Tomas Zoë Élodie Søren Ana Luis Farah Bilal Wen Hoa Rahim Nadia Kwame Esi Jonas Ada Ezra'.split(' ');
const LAST_NAMES =
  "Marchbank Quill Moss Alder Osei-Lind O'Hara Okafor Haddad Nguyen Rahman Petrov Silva Santos García Müller Dubois Kowalski Tanaka Chen Ivanova Mensah Abara Lindqvist Fernández Costa Reyes Boateng Patel Cohen MacLeod Ferreira Novak Achebe Sato Bianchi Jensen".split(' ');
const SPANISH = 'cómo las abejas hacen miel canción del río corazón pequeño ratón estrella luna mañana árbol niña camión'.split(' ');
const RUSSIAN = 'жар-птица волк лиса медведь зима река звезда сказка'.split(' ');
const ARABIC = 'كيف يصنع النحل العسل القمر النجمة البحر الحكاية'.split(' ');
const LANGS = ['es', 'ar', 'zh', 'vi', 'bn', 'fil', 'ur', 'ru', 'ha', 'pt'];

const cap = (w: string) => w.charAt(0).toLocaleUpperCase() + w.slice(1);

function makeTitle(r: () => number, pick: <T>(list: readonly T[]) => T): string {
  const n = r();
  if (n < 0.2) return `The ${cap(pick(ADJECTIVES))} ${cap(pick(NOUNS))}`;
  if (n < 0.35) return `${pick(FIRST_NAMES)} and the ${cap(pick(ADJECTIVES))} ${cap(pick(NOUNS))}`;
  if (n < 0.5) return `The ${cap(pick(NOUNS))} Who ${cap(pick(VERBS))} the ${cap(pick(NOUNS))}s`;
  if (n < 0.6) return `How ${cap(pick(NOUNS))}s ${cap(pick(PLURAL_VERBS))}`;
  if (n < 0.68) return `Why the ${cap(pick(NOUNS))} ${cap(pick(PLURAL_VERBS))}s at Night`;
  if (n < 0.76) return `A ${cap(pick(NOUNS))} Under the ${cap(pick(NOUNS))}s`;
  if (n < 0.82) return `${cap(pick(NOUNS))} ${1 + Math.floor(r() * 40)}: ${cap(pick(ADJECTIVES))} ${cap(pick(NOUNS))}s`;
  if (n < 0.9) return `${cap(pick(SPANISH))} ${pick(SPANISH)} ${pick(SPANISH)}`;
  if (n < 0.95) return `${cap(pick(RUSSIAN))} и ${cap(pick(RUSSIAN))}`;
  return `${pick(ARABIC)} ${pick(ARABIC)} ${pick(ARABIC)}`;
}

export interface SyntheticTitle {
  slug: string;
  version: number;
  title: string;
  author: string;
  createdAt: Date;
  badges: string[];
  editions: { language: string; level: string }[];
}

/**
 * The synthetic library: `count` titles (about 3% also at a second version, with a changed title), each with 1–6
 * editions in English at one to three levels and some other languages. Dates are whole days, so some tie.
 */
export function syntheticTitles(count: number, seed = 12): SyntheticTitle[] {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
  const out: SyntheticTitle[] = [];
  const day = 86_400_000;
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < count; i++) {
    const title = makeTitle(r, pick);
    const author = `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`;
    const eds = [{ language: 'en', level: 'ORIGINAL' }];
    if (r() < 0.5) eds.push({ language: 'en', level: 'GOLD' });
    if (r() < 0.4) eds.push({ language: 'en', level: 'SILVER' });
    for (const lang of LANGS) if (r() < 0.12) eds.push({ language: lang, level: r() < 0.2 ? 'GOLD' : 'ORIGINAL' });
    const base: SyntheticTitle = {
      slug: `t${i}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'title'}`,
      version: 1,
      title,
      author,
      createdAt: new Date(start + Math.floor(r() * 2300) * day),
      badges: r() < 0.1 ? ['premium'] : [],
      editions: eds,
    };
    out.push(base);
    if (r() < 0.03) out.push({ ...base, version: 2, title: `${title} (${cap(pick(ADJECTIVES))} Edition)`, createdAt: new Date(base.createdAt.getTime() + day) });
  }
  return out;
}

/**
 * Insert the titles, their editions and two short passages per edition, in bulk: each table in one statement
 * (rows as one JSON parameter, passages made by the database), which is what keeps 10,000 titles quick.
 */
export async function insertSyntheticTitles(database: Database, titles: readonly SyntheticTitle[]): Promise<{ editions: number; passages: number }> {
  const { db } = database;
  const pubRows = titles.map((t) => ({
    slug: t.slug,
    version: t.version,
    title: t.title,
    author: t.author,
    thumbnail_image_url: `/media/${t.slug}/v${t.version}/images/cover.svg`,
    badges: t.badges,
    source_hash: `synthetic-${t.slug}-${t.version}`,
    created_at: t.createdAt.toISOString(),
  }));
  const defaultReader = JSON.stringify({ left: { language: 'en', level: 'ORIGINAL' }, right: { language: 'en', level: 'ORIGINAL' } });
  await db.execute(sql`
    insert into ${publications} (slug, version, title, author, thumbnail_image_url, badges, default_reader, source_hash, created_at)
    select slug, version, title, author, thumbnail_image_url, badges, ${defaultReader}::jsonb, source_hash, created_at
    from jsonb_to_recordset(${JSON.stringify(pubRows)}::jsonb)
      as x(slug text, version int, title text, author text, thumbnail_image_url text, badges jsonb, source_hash text, created_at timestamptz)`);
  const edRows = titles.flatMap((t) =>
    t.editions.map((e) => ({ slug: t.slug, version: t.version, language: e.language, level: e.level, decode: e.language === 'en' })),
  );
  await db.execute(sql`
    insert into ${editions} (publication_id, language, level, passage_count, total_words, unique_words, origin, decode_enabled)
    select p.id, x.language, x.level, 2, 14, 12, 'content', x.decode
    from jsonb_to_recordset(${JSON.stringify(edRows)}::jsonb) as x(slug text, version int, language text, level text, decode boolean)
    join ${publications} p on p.slug = x.slug and p.version = x.version`);
  await db.execute(sql`
    insert into ${passages} (edition_id, position, text)
    select e.id, n, '<p>Passage ' || n || ' of a synthetic ' || e.language || ' ' || lower(e.level) || ' edition. The fox ran to the river.</p>'
    from ${editions} e join ${publications} p on p.id = e.publication_id, generate_series(1, 2) as n
    where p.source_hash like 'synthetic-%'`);
  await bumpRevision(database);
  return { editions: edRows.length, passages: edRows.length * 2 };
}

// ---------------------------------------------------------------------------------------------------------------
// The queries

function queries(): { kind: QueryKind; q: string }[] {
  const list: { kind: QueryKind; q: string }[] = [];
  for (const q of ['a', 't', 's', 'm', 'h', 'w', 'o', 'z']) list.push({ kind: '1 letter', q });
  for (const q of ['th', 'li', 'go', 'fo', 'st', 'ma', 'ca', 'wh']) list.push({ kind: '2 letters', q });
  for (const q of ['the', 'lig', 'gol', 'riv', 'sec', 'dra', 'mou', 'can']) list.push({ kind: '3 letters', q });
  for (const q of ['lighthouse', 'fox', 'moon', 'apprentice', 'Marchbank', 'Zora', 'honey', 'volcano']) list.push({ kind: 'word', q });
  for (const q of ['golden fox', 'the moon', 'zora quill', 'secret map', 'how bees', 'keeper light', 'little dr', 'moss o']) {
    list.push({ kind: 'two words', q });
  }
  for (const q of ['жар', 'волк', 'النحل', 'como', 'canción', 'Zoë', 'garcia', 'o’hara']) list.push({ kind: 'other script', q });
  for (const q of ['xyz', 'qq', 'zebra', 'lighthousez', 'fox qwerty', 'wls', 'house', 'prentice']) list.push({ kind: 'miss', q });
  for (const [q, extra] of [
    ['the', 'sort=author_a_z'],
    ['fox', 'sort=most_recent'],
    ['s', 'page=3'],
    ['t', 'sort=title_z_a&page=20'],
    ['gold', 'pageSize=100'],
    ['m', 'sort=author_z_a&pageSize=50&page=2'],
    ['', 'page=2'],
    ['', 'sort=most_recent&pageSize=100'],
  ] as const) {
    list.push({ kind: 'sort/page', q: q ? `${encodeURIComponent(q)}&${extra}` : extra });
  }
  return list.map((x) => ({ kind: x.kind, q: x.kind === 'sort/page' ? x.q : encodeURIComponent(x.q) }));
}

function percentiles(samples: readonly number[]): Percentiles {
  return { count: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99), max: samples.length ? Math.max(...samples) : NaN };
}

const median = (xs: readonly number[]) => percentiles(xs).p50;

/** The collector, when it can be reached (node --expose-gc, or switched on here). */
function gcFunction(): (() => void) | null {
  if (typeof globalThis.gc === 'function') return globalThis.gc as () => void;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}

export async function searchBench(opts: SearchBenchOptions = {}): Promise<SearchBenchResult> {
  const count = opts.titles ?? 10_000;
  const warmRounds = opts.warmRounds ?? 5;
  const coldSamples = opts.coldSamples ?? 15;
  const buildSamples = opts.buildSamples ?? 5;
  const databaseUrl = opts.databaseUrl ?? process.env.BENCH_SEARCH_DATABASE_URL;
  const loadBefore = os.loadavg();

  const dataDir = databaseUrl ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-search-bench-'));
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: dataDir! });
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const t0 = performance.now();
    const titles = syntheticTitles(count, opts.seed ?? 12);
    const inserted = await insertSyntheticTitles(database, titles);
    const generateMs = performance.now() - t0;

    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      database,
      contentDir: null,
      // Background narration would compete with the measurements for the cores.
      narration: { concurrency: 0 },
      adminSocket: false,
      logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }),
    });
    const running = server;
    const base = `${running.url}/api/v1/publications?search=`;
    const timed = async (q: string) => {
      const start = performance.now();
      const res = await fetch(base + q);
      const body = await res.text();
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`search ${q}: HTTP ${res.status} ${body.slice(0, 200)}`);
      return { ms, bytes: Buffer.byteLength(body), total: (JSON.parse(body) as { total: number }).total };
    };
    const list = queries();

    // Cold: the first search after start, then the first after each revision change.
    const cold: number[] = [];
    const firstAfterStartMs = (await timed(list[Math.floor(list.length / 2)].q)).ms;
    cold.push(firstAfterStartMs);
    for (let i = 1; i < coldSamples; i++) {
      await bumpRevision(database);
      if (!(await running.store.refreshRevision())) throw new Error('the content revision did not change');
      cold.push((await timed(list[(i * 7) % list.length].q)).ms);
    }

    // Warm: one round to warm up, then the measured rounds.
    for (const { q } of list) await timed(q);
    const warm: number[] = [];
    const byKind = new Map<QueryKind, number[]>();
    const bytes: number[] = [];
    const totals: number[] = [];
    for (let round = 0; round < warmRounds; round++) {
      for (const { kind, q } of list) {
        const r = await timed(q);
        warm.push(r.ms);
        bytes.push(r.bytes);
        if (round === 0) totals.push(r.total);
        const k = byKind.get(kind) ?? [];
        k.push(r.ms);
        byKind.set(kind, k);
      }
    }

    // The search in the store alone (no HTTP, no JSON): the index lookup, the filter in sort order and the page.
    const inStore: number[] = [];
    for (let round = 0; round < warmRounds; round++) {
      for (const { kind, q } of list) {
        if (kind === 'sort/page') continue;
        const search = decodeURIComponent(q);
        const start = performance.now();
        await running.store.list({ search, sort: 'title_a_z', page: 1, pageSize: 16 });
        inStore.push(performance.now() - start);
      }
    }

    // The index build alone (database read included), after a revision change.
    const builds: number[] = [];
    for (let i = 0; i < buildSamples; i++) {
      running.store.invalidate();
      const start = performance.now();
      await running.store.list({ sort: 'title_a_z', page: 1, pageSize: 16 });
      builds.push(performance.now() - start);
    }
    // The heap a catalog keeps: a new store over the same database, before and after its first list.
    const gc = gcFunction();
    let indexHeapMb: number | null = null;
    if (gc) {
      const fresh = new ContentStore(database);
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      await fresh.list({ sort: 'title_a_z', page: 1, pageSize: 16 });
      gc();
      indexHeapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
      await fresh.list({ sort: 'title_a_z', page: 1, pageSize: 16 }); // keep `fresh` alive until measured
    }

    const coldP = percentiles(cold);
    const warmP = percentiles(warm);
    return {
      database: database.kind,
      titles: titles.length,
      editions: inserted.editions,
      passages: inserted.passages,
      generateMs,
      firstAfterStartMs,
      cold: coldP,
      warm: warmP,
      inStore: percentiles(inStore),
      warmByKind: Object.fromEntries([...byKind].map(([k, v]) => [k, percentiles(v)])) as Record<QueryKind, Percentiles>,
      indexBuildMs: { median: median(builds), max: Math.max(...builds) },
      indexHeapMb,
      responseBytes: { mean: bytes.reduce((a, b) => a + b, 0) / bytes.length, max: Math.max(...bytes) },
      totals: { median: median(totals), max: Math.max(...totals) },
      loadAverage: { before: loadBefore, after: os.loadavg() },
      targetMs: SEARCH_TARGET_MS,
      met: { warm: warmP.p95 <= SEARCH_TARGET_MS, cold: coldP.p95 <= SEARCH_TARGET_MS },
    };
  } finally {
    await server?.stop();
    await database.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatSearchBench(r: SearchBenchResult): string {
  const f = (x: number) => x.toFixed(1);
  const row = (p: Percentiles) => `p50 ${f(p.p50)} ms, p95 ${f(p.p95)} ms, p99 ${f(p.p99)} ms, max ${f(p.max)} ms (n=${p.count})`;
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    `catalog search over ${r.titles.toLocaleString('en')} titles (${r.editions.toLocaleString('en')} editions, ${r.passages.toLocaleString('en')} passages, ${r.database}; generated in ${(r.generateMs / 1000).toFixed(1)} s):`,
    `  warm: ${row(r.warm)}`,
    ...Object.entries(r.warmByKind).map(([k, p]) => `    ${k.padEnd(13)} p50 ${f(p.p50)} ms, p95 ${f(p.p95)} ms`),
    `  in the store alone (no HTTP): ${row(r.inStore)}`,
    `  cold (first search after start, ${f(r.firstAfterStartMs)} ms, and after each revision change): ${row(r.cold)}`,
    `  index build ${f(r.indexBuildMs.median)} ms median (max ${f(r.indexBuildMs.max)}), heap ${r.indexHeapMb === null ? 'not measured' : `${f(r.indexHeapMb)} MB`}; ` +
      `response ${Math.round(r.responseBytes.mean)} B mean, ${r.responseBytes.max} B max; matches per query median ${r.totals.median}, max ${r.totals.max}`,
    `  load average ${load(r.loadAverage.before)} before, ${load(r.loadAverage.after)} after`,
    `  target p95 <= ${r.targetMs} ms: warm ${r.met.warm ? 'met' : 'NOT met'}, cold ${r.met.cold ? 'met' : 'NOT met'}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatSearchBench(await searchBench()));
}
