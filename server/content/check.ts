/**
 * The library's editorial rules, checked over parsed publications: `npm run content:check`
 * (server/bin/content-check.ts) prints the report and writes docs/library.md. Pure: it takes the reader's
 * in-memory form (server/content/read.ts → readLibrary), so the tests feed it small libraries built in memory.
 *
 * Two kinds of rule:
 * - **per title** (`checkTitle`): levels present and in order, passage counts, paragraph counts (two columns
 *   highlight in step paragraph for paragraph: src/domain/alignment.ts), passage lengths, illustrations, the QR
 *   code into passage 1. These hold for every title at any time.
 * - **library totals** (`checkCoverage`): number of titles, languages, illustrated and premium titles. These hold
 *   only once the whole library is written; `--titles-only` leaves them out.
 */
import { LANGUAGE_CODES, type LanguageCode } from '../../src/domain/languages';
import { LEVEL_ORDER, type Level } from '../../src/domain/levels';
import { PREMIUM_BADGE } from '../../src/domain/access';
import { alignmentSummary, alignPassages } from '../../src/domain/alignment';
import { passagePlainText } from '../../src/domain/sanitize';
import { editionReadability, FORMULAS, type Readability } from '../readability';
import { segmentWords } from './text';

// ---------------------------------------------------------------------------------------------------------------
// Named constants (docs/decisions.md, "Library rules").

/** Fewest passages an edition may have (6 to 20 passages). */
export const MIN_PASSAGES = 6;
/** Most passages an edition may have. */
export const MAX_PASSAGES = 20;
/** The words a passage of en.ORIGINAL aims at ("about 60–150 words"); reported, not enforced. */
export const PASSAGE_WORDS_TARGET = { min: 60, max: 150 } as const;
/** Outside this range an en.ORIGINAL passage gets a warning. */
export const PASSAGE_WORDS_WARN = { min: 50, max: 170 } as const;
/** Outside this range an en.ORIGINAL passage fails the check. */
export const PASSAGE_WORDS_FAIL = { min: 30, max: 250 } as const;
/** Largest illustration (our own SVG art, 400×400 at most), by its declared width and height. */
export const MAX_ILLUSTRATION_PX = 400;
/** Fewest titles in the library. */
export const MIN_TITLES = 20;
/** Fewest titles with an edition in each language. English is every title's. */
export const LANGUAGE_COVERAGE: Readonly<Record<Exclude<LanguageCode, 'en'>, number>> = {
  es: 8,
  ar: 4,
  ur: 2,
  zh: 3,
  vi: 1,
  bn: 1,
  fil: 1,
  ru: 1,
  ha: 1,
  pt: 1,
};
/** Fewest ILLUSTRATED titles. */
export const MIN_ILLUSTRATED = 3;
/** The fewest titles that carry the premium badge (PREMIUM_BADGE, src/domain/access.ts: the license gates). */
export const MIN_PREMIUM = 2;
/** English levels every title must have, easiest first; their Flesch–Kincaid grades must rise in this order. */
export const REQUIRED_ENGLISH_LEVELS: readonly Level[] = LEVEL_ORDER;

// ---------------------------------------------------------------------------------------------------------------
// Input: the parts of ParsedPublication (server/content/parse.ts) the rules read.

export interface CheckPassage {
  html: string;
  plain: string;
  image: string | null;
}

export interface CheckEdition {
  language: LanguageCode;
  level: Level;
  passages: readonly CheckPassage[];
}

export interface CheckPublication {
  slug: string;
  title: string;
  renderingMode: 'DEFAULT' | 'ILLUSTRATED';
  badges: readonly string[];
  qr: readonly { code: string; language: LanguageCode; level: Level; position: number }[];
  editions: readonly CheckEdition[];
  /** On-demand sources (sources/<language>.<LEVEL>.md): checked like editions, but they do not count as present. */
  sources: readonly CheckEdition[];
  assets?: readonly { path: string; data: Uint8Array }[];
}

// ---------------------------------------------------------------------------------------------------------------
// Output.

export type Severity = 'error' | 'warning';

export type Rule =
  | 'levels-present'
  | 'levels-order'
  | 'passage-count'
  | 'passages-aligned'
  | 'paragraphs-aligned'
  | 'passage-words'
  | 'illustrations'
  | 'qr-first-passage'
  | 'translation-levels'
  | 'title-count'
  | 'language-coverage'
  | 'illustrated-count'
  | 'premium-count';

export interface Finding {
  severity: Severity;
  /** The title it is about; null for library totals. */
  slug: string | null;
  rule: Rule;
  message: string;
}

export interface EditionReport {
  language: LanguageCode;
  level: Level;
  /** True for an on-demand source. */
  source: boolean;
  passages: number;
  /** Words per passage (Intl.Segmenter, as the importer counts them). */
  words: { min: number; max: number; total: number };
  readability: Readability | null;
}

/**
 * Two editions in different languages side by side: over the passages both have, how many
 * paragraphs align (their passage has as many paragraphs in both) and how many of those align sentence for sentence.
 */
export interface PairReport {
  /** The editions, as 'en.ORIGINAL' (a source gets a '*'). */
  first: string;
  second: string;
  /** Paragraphs of the first edition, over the passages both have. */
  paragraphs: number;
  /** Paragraphs in passages whose paragraph counts agree: each highlights its partner. */
  aligned: number;
  /** Aligned paragraphs whose sentences pair one for one: the other column highlights the very sentence. */
  bySentence: number;
}

export interface TitleReport {
  slug: string;
  title: string;
  renderingMode: 'DEFAULT' | 'ILLUSTRATED';
  badges: string[];
  editions: EditionReport[];
  /** The Flesch–Kincaid grade of each English edition file (not sources). */
  englishGrades: Partial<Record<Level, number>>;
  /** Every pair of editions (and sources) in two different languages, English first. */
  pairs: PairReport[];
  findings: Finding[];
}

export interface CoverageReport {
  titles: number;
  /** Titles with at least one edition file in each language. */
  languages: Record<LanguageCode, number>;
  illustrated: number;
  premium: number;
  findings: Finding[];
}

export interface LibraryReport {
  titles: TitleReport[];
  /** Null when the library totals were not checked (`--titles-only`). */
  coverage: CoverageReport | null;
  findings: Finding[];
  errors: number;
  warnings: number;
}

// ---------------------------------------------------------------------------------------------------------------

const editionName = (e: { language: string; level: string }) => `${e.language}.${e.level}`;

function passageWords(passage: CheckPassage, language: string): number {
  return segmentWords(passage.plain, language).length;
}

/** The declared size of an SVG (width and height, else the viewBox), or null when it declares none or is not SVG. */
export function svgSize(source: string): { width: number; height: number } | null {
  const open = /<svg\b[^>]*>/i.exec(source)?.[0];
  if (!open) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(open)?.[1];
  const px = (v: string | undefined) => (v && /^\s*[\d.]+\s*(px)?\s*$/.test(v) ? Number.parseFloat(v) : null);
  const width = px(attr('width'));
  const height = px(attr('height'));
  if (width !== null && height !== null) return { width, height };
  const box = attr('viewBox')?.trim().split(/[\s,]+/).map(Number);
  if (box && box.length === 4 && box.every((n) => Number.isFinite(n))) return { width: box[2], height: box[3] };
  return null;
}

function reportEdition(edition: CheckEdition, source: boolean): EditionReport {
  const counts = edition.passages.map((p) => passageWords(p, edition.language));
  return {
    language: edition.language,
    level: edition.level,
    source,
    passages: edition.passages.length,
    words: {
      min: counts.length ? Math.min(...counts) : 0,
      max: counts.length ? Math.max(...counts) : 0,
      total: counts.reduce((a, b) => a + b, 0),
    },
    readability: editionReadability(
      edition.language,
      edition.passages.map((p) => p.html),
    ),
  };
}

/** The per-title rules. */
export function checkTitle(pub: CheckPublication): TitleReport {
  const findings: Finding[] = [];
  const add = (severity: Severity, rule: Rule, message: string) => findings.push({ severity, slug: pub.slug, rule, message });
  const all = [...pub.editions.map((e) => ({ e, source: false })), ...pub.sources.map((e) => ({ e, source: true }))];
  const editions = all.map(({ e, source }) => reportEdition(e, source));
  const label = (r: { language: string; level: string; source: boolean }) => `${editionName(r)}${r.source ? ' (source)' : ''}`;

  // English levels: present, and easier in the order SILVER < GOLD < ORIGINAL.
  const englishGrades: Partial<Record<Level, number>> = {};
  for (const r of editions) if (r.language === 'en' && !r.source && r.readability) englishGrades[r.level] = r.readability.grade;
  const missing = REQUIRED_ENGLISH_LEVELS.filter((level) => !pub.editions.some((e) => e.language === 'en' && e.level === level));
  if (missing.length) {
    add('error', 'levels-present', `missing English level${missing.length > 1 ? 's' : ''} ${missing.map((l) => `en.${l}.md`).join(', ')} (every title has en ORIGINAL, GOLD and SILVER edition files)`);
  }
  const graded = REQUIRED_ENGLISH_LEVELS.filter((l) => englishGrades[l] !== undefined);
  for (let i = 1; i < graded.length; i++) {
    const easier = graded[i - 1];
    const harder = graded[i];
    if (!(englishGrades[easier]! < englishGrades[harder]!)) {
      add('error', 'levels-order', `en ${easier} reads at grade ${englishGrades[easier]!.toFixed(1)}, not below en ${harder} at ${englishGrades[harder]!.toFixed(1)} (SILVER < GOLD < ORIGINAL)`);
    }
  }

  // Other languages with a reading-ease formula and more than one level: ease should fall as the level rises.
  const byLanguage = new Map<string, EditionReport[]>();
  for (const r of editions) if (r.language !== 'en' && r.readability) byLanguage.set(r.language, [...(byLanguage.get(r.language) ?? []), r]);
  for (const [language, reports] of byLanguage) {
    const ordered = REQUIRED_ENGLISH_LEVELS.flatMap((level) => reports.filter((r) => r.level === level));
    for (let i = 1; i < ordered.length; i++) {
      if (!(ordered[i - 1].readability!.grade > ordered[i].readability!.grade)) {
        add('warning', 'translation-levels', `${language} ${ordered[i - 1].level} has reading ease ${ordered[i - 1].readability!.grade.toFixed(1)}, not above ${language} ${ordered[i].level} at ${ordered[i].readability!.grade.toFixed(1)} (higher ease is easier)`);
      }
    }
  }

  // Passage counts.
  for (const r of editions) {
    if (r.passages < MIN_PASSAGES || r.passages > MAX_PASSAGES) {
      add('error', 'passage-count', `${label(r)} has ${r.passages} passages (${MIN_PASSAGES}–${MAX_PASSAGES} required)`);
    }
  }
  const original = editions.find((r) => r.language === 'en' && r.level === 'ORIGINAL' && !r.source);
  if (original) {
    for (const r of editions) {
      if (r !== original && r.passages !== original.passages) {
        add('error', 'passages-aligned', `${label(r)} has ${r.passages} passages, en.ORIGINAL has ${original.passages} (editions line up passage for passage)`);
      }
    }
  }

  // Paragraph counts: two columns highlight in step paragraph for paragraph (src/domain/alignment.ts), so every
  // edition and source gives each passage as many paragraphs as en.ORIGINAL does (else as the first edition).
  const reference = all.find(({ e, source }) => !source && e.language === 'en' && e.level === 'ORIGINAL') ?? all[0];
  if (reference) {
    const paragraphCounts = (e: CheckEdition) => e.passages.map((p) => plainParagraphs(p).length);
    const expected = paragraphCounts(reference.e);
    for (const { e, source } of all) {
      if (e === reference.e) continue;
      const differ = paragraphCounts(e).flatMap((n, i) => (i < expected.length && n !== expected[i] ? [`${i + 1} (${n}, not ${expected[i]})`] : []));
      if (differ.length) {
        add('error', 'paragraphs-aligned', `${editionName(e)}${source ? ' (source)' : ''} has other paragraph counts than ${editionName(reference.e)} in passage${differ.length > 1 ? 's' : ''} ${differ.join(', ')} (two columns highlight in step paragraph for paragraph)`);
      }
    }
  }
  const pairs = alignmentPairs(all);

  // Passage lengths of en.ORIGINAL.
  const originalEdition = pub.editions.find((e) => e.language === 'en' && e.level === 'ORIGINAL');
  if (originalEdition) {
    originalEdition.passages.forEach((p, i) => {
      const n = passageWords(p, 'en');
      if (n < PASSAGE_WORDS_FAIL.min || n > PASSAGE_WORDS_FAIL.max) {
        add('error', 'passage-words', `en.ORIGINAL passage ${i + 1} has ${n} words (${PASSAGE_WORDS_FAIL.min}–${PASSAGE_WORDS_FAIL.max} allowed, about ${PASSAGE_WORDS_TARGET.min}–${PASSAGE_WORDS_TARGET.max} wanted)`);
      } else if (n < PASSAGE_WORDS_WARN.min || n > PASSAGE_WORDS_WARN.max) {
        add('warning', 'passage-words', `en.ORIGINAL passage ${i + 1} has ${n} words (about ${PASSAGE_WORDS_TARGET.min}–${PASSAGE_WORDS_TARGET.max} wanted)`);
      }
    });
  }

  // Illustrations.
  if (pub.renderingMode === 'ILLUSTRATED') {
    if (originalEdition) {
      const bare = originalEdition.passages.flatMap((p, i) => (p.image ? [] : [i + 1]));
      if (bare.length) add('error', 'illustrations', `ILLUSTRATED, but en.ORIGINAL passage${bare.length > 1 ? 's' : ''} ${bare.join(', ')} ha${bare.length > 1 ? 've' : 's'} no illustration (one per passage)`);
    }
    for (const { e, source } of all) {
      if (e === originalEdition) continue;
      const bare = e.passages.flatMap((p, i) => (p.image ? [] : [i + 1]));
      if (bare.length) add('warning', 'illustrations', `${editionName(e)}${source ? ' (source)' : ''} passage${bare.length > 1 ? 's' : ''} ${bare.join(', ')} without an illustration`);
    }
  }
  const used = new Set(all.flatMap(({ e }) => e.passages.flatMap((p) => (p.image ? [p.image] : []))));
  for (const asset of pub.assets ?? []) {
    if (!used.has(asset.path) || !asset.path.toLowerCase().endsWith('.svg')) continue;
    const size = svgSize(new TextDecoder().decode(asset.data));
    if (size && (size.width > MAX_ILLUSTRATION_PX || size.height > MAX_ILLUSTRATION_PX)) {
      add('error', 'illustrations', `${asset.path} is ${size.width}×${size.height}; illustrations are ${MAX_ILLUSTRATION_PX}×${MAX_ILLUSTRATION_PX} at most`);
    }
  }

  // A QR code into passage 1.
  if (!pub.qr.some((q) => q.position === 1)) {
    add('error', 'qr-first-passage', pub.qr.length ? 'no QR code points at passage 1' : 'no QR code (every title has one pointing at passage 1)');
  }

  return {
    slug: pub.slug,
    title: pub.title,
    renderingMode: pub.renderingMode,
    badges: [...pub.badges],
    editions,
    englishGrades,
    pairs,
    findings,
  };
}

/** A passage's plain text as the reader has it, split into paragraphs. */
function plainParagraphs(passage: CheckPassage): string[] {
  const plain = passagePlainText(passage.html);
  return plain ? plain.split('\n') : [];
}

function alignmentPairs(all: readonly { e: CheckEdition; source: boolean }[]): PairReport[] {
  const ordered = [...all].sort((a, b) => (a.e.language === 'en' ? 0 : 1) - (b.e.language === 'en' ? 0 : 1) || a.e.language.localeCompare(b.e.language) || LEVEL_ORDER.indexOf(b.e.level) - LEVEL_ORDER.indexOf(a.e.level) || Number(a.source) - Number(b.source));
  const pairs: PairReport[] = [];
  ordered.forEach((a, i) => {
    for (const b of ordered.slice(i + 1)) {
      if (a.e.language === b.e.language) continue;
      const pair: PairReport = { first: `${editionName(a.e)}${a.source ? '*' : ''}`, second: `${editionName(b.e)}${b.source ? '*' : ''}`, paragraphs: 0, aligned: 0, bySentence: 0 };
      const common = Math.min(a.e.passages.length, b.e.passages.length);
      for (let k = 0; k < common; k++) {
        const summary = alignmentSummary(
          alignPassages({ text: passagePlainText(a.e.passages[k].html), locale: a.e.language }, { text: passagePlainText(b.e.passages[k].html), locale: b.e.language }),
        );
        pair.paragraphs += summary.paragraphs;
        if (summary.aligned) pair.aligned += summary.paragraphs;
        pair.bySentence += summary.bySentence;
      }
      pairs.push(pair);
    }
  });
  return pairs;
}

/** The title's pairs grouped by language pair, e.g. 'en–es', in the order they come. */
export function pairsByLanguages(t: Pick<TitleReport, 'pairs'>): { languages: string; pairs: PairReport[] }[] {
  const groups = new Map<string, PairReport[]>();
  for (const p of t.pairs) {
    const key = `${p.first.split('.')[0]}–${p.second.split('.')[0]}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups].map(([languages, pairs]) => ({ languages, pairs }));
}

/** One pair as the report shows it: 'en.ORIGINAL/es.ORIGINAL 8/8, 3 by sentence'. */
export function pairCell(p: PairReport): string {
  return `${p.first}/${p.second} ${p.aligned}/${p.paragraphs}, ${p.bySentence} by sentence`;
}

/** The library totals. */
export function checkCoverage(pubs: readonly CheckPublication[]): CoverageReport {
  const findings: Finding[] = [];
  const add = (rule: Rule, message: string) => findings.push({ severity: 'error', slug: null, rule, message });
  const languages = Object.fromEntries(LANGUAGE_CODES.map((l) => [l, pubs.filter((p) => p.editions.some((e) => e.language === l)).length])) as Record<LanguageCode, number>;
  const illustrated = pubs.filter((p) => p.renderingMode === 'ILLUSTRATED').length;
  const premium = pubs.filter((p) => p.badges.includes(PREMIUM_BADGE)).length;
  if (pubs.length < MIN_TITLES) add('title-count', `${pubs.length} titles; at least ${MIN_TITLES} required`);
  for (const [language, need] of Object.entries(LANGUAGE_COVERAGE) as [LanguageCode, number][]) {
    if (languages[language] < need) add('language-coverage', `${languages[language]} title${languages[language] === 1 ? '' : 's'} in ${language}; at least ${need} required`);
  }
  if (illustrated < MIN_ILLUSTRATED) add('illustrated-count', `${illustrated} ILLUSTRATED title${illustrated === 1 ? '' : 's'}; at least ${MIN_ILLUSTRATED} required`);
  if (premium < MIN_PREMIUM) add('premium-count', `${premium} title${premium === 1 ? '' : 's'} with the badge '${PREMIUM_BADGE}'; at least ${MIN_PREMIUM} required`);
  return { titles: pubs.length, languages, illustrated, premium, findings };
}

/** Every rule over a library. `coverage: false` checks each title only. */
export function checkContent(pubs: readonly CheckPublication[], options: { coverage?: boolean } = {}): LibraryReport {
  const titles = [...pubs].sort((a, b) => a.slug.localeCompare(b.slug)).map(checkTitle);
  const coverage = options.coverage === false ? null : checkCoverage(pubs);
  const findings = [...titles.flatMap((t) => t.findings), ...(coverage?.findings ?? [])];
  return {
    titles,
    coverage,
    findings,
    errors: findings.filter((f) => f.severity === 'error').length,
    warnings: findings.filter((f) => f.severity === 'warning').length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Presentation.

const fmt = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(1));
const isGrade = (r: Readability | null) => r?.formula === FORMULAS.en;

function translationsCell(t: TitleReport): string {
  return t.editions
    .filter((e) => e.language !== 'en')
    .map((e) => `${e.language}${e.level === 'ORIGINAL' ? '' : `.${e.level}`}${e.source ? '*' : ''}${e.readability ? ` ${fmt(e.readability.grade)}` : ''}`)
    .join(', ');
}

function status(t: TitleReport): string {
  const errors = t.findings.filter((f) => f.severity === 'error').length;
  const warnings = t.findings.length - errors;
  return errors ? `FAIL (${errors})` : warnings ? `ok, ${warnings} warning${warnings > 1 ? 's' : ''}` : 'ok';
}

function passagesCell(t: TitleReport): string {
  const counts = new Set(t.editions.map((e) => e.passages));
  return counts.size <= 1 ? String([...counts][0] ?? 0) : t.editions.map((e) => `${editionName(e)}${e.source ? '*' : ''}:${e.passages}`).join(' ');
}

function wordsCell(t: TitleReport): string {
  const o = t.editions.find((e) => e.language === 'en' && e.level === 'ORIGINAL' && !e.source);
  return o ? `${o.words.min}–${o.words.max}` : '—';
}

/** The terminal report: a table of titles, the findings, the library totals and a summary line. */
export function formatReport(report: LibraryReport): string {
  const head = ['title', 'mode', 'badges', 'passages', 'words/passage', 'en SILVER', 'en GOLD', 'en ORIGINAL', 'translations (* = on-demand source)', 'status'];
  const rows = report.titles.map((t) => [
    t.slug,
    t.renderingMode === 'ILLUSTRATED' ? 'illus.' : '',
    t.badges.join(','),
    passagesCell(t),
    wordsCell(t),
    fmt(t.englishGrades.SILVER),
    fmt(t.englishGrades.GOLD),
    fmt(t.englishGrades.ORIGINAL),
    translationsCell(t),
    status(t),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const out: string[] = [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  out.push(
    '',
    'Grades: Flesch–Kincaid grade level (English). Translations: reading ease (es Fernández-Huerta, ru Oborneva, pt Martins; higher is easier); none for ar, zh, vi, bn, fil, ur, ha.',
    `Words per passage: en.ORIGINAL, min–max (about ${PASSAGE_WORDS_TARGET.min}–${PASSAGE_WORDS_TARGET.max} wanted; warning outside ${PASSAGE_WORDS_WARN.min}–${PASSAGE_WORDS_WARN.max}, error outside ${PASSAGE_WORDS_FAIL.min}–${PASSAGE_WORDS_FAIL.max}).`,
  );
  const languagePairs = report.titles.flatMap((t) => pairsByLanguages(t).map((g) => ({ slug: t.slug, ...g })));
  if (languagePairs.length) {
    out.push('', 'Two columns, per title and language pair: paragraphs that align / paragraphs, and how many align by sentence (* = on-demand source):');
    const slugWidth = Math.max(...languagePairs.map((g) => g.slug.length));
    for (const g of languagePairs) out.push(`  ${g.slug.padEnd(slugWidth)}  ${g.languages.padEnd(6)}  ${g.pairs.map(pairCell).join('; ')}`);
  }
  const byTitle = report.findings.filter((f) => f.slug);
  if (byTitle.length) {
    out.push('', 'Findings:');
    for (const f of byTitle) out.push(`  ${f.severity === 'error' ? 'error  ' : 'warning'}  ${f.slug}  [${f.rule}]  ${f.message}`);
  }
  if (report.coverage) {
    const c = report.coverage;
    const need = (have: number, min: number) => `${have}/${min}${have >= min ? '' : '  ✗'}`;
    out.push(
      '',
      'Library totals:',
      `  titles       ${need(c.titles, MIN_TITLES)}`,
      ...Object.entries(LANGUAGE_COVERAGE).map(([l, min]) => `  ${l.padEnd(12)} ${need(c.languages[l as LanguageCode], min)}`),
      `  illustrated  ${need(c.illustrated, MIN_ILLUSTRATED)}`,
      `  premium      ${need(c.premium, MIN_PREMIUM)}`,
    );
  } else {
    out.push('', 'Library totals not checked (--titles-only).');
  }
  const failedTitles = report.titles.filter((t) => t.findings.some((f) => f.severity === 'error')).length;
  out.push(
    '',
    `${report.titles.length} titles checked: ${report.titles.length - failedTitles} pass, ${failedTitles} fail; ` +
      `${report.coverage ? `library totals ${report.coverage.findings.length ? `fail (${report.coverage.findings.length})` : 'pass'}; ` : ''}` +
      `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}.`,
  );
  return out.join('\n');
}

/** Breaks a paragraph into lines of at most `width` characters, at spaces. */
function wrap(text: string, width = 112): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const mdEscape = (s: string) => s.replace(/\|/g, '\\|');

/** docs/library.md: what the library holds and how its levels measure. Deterministic (no dates), so it diffs cleanly. */
export function libraryMarkdown(report: LibraryReport): string {
  const out: string[] = [
    '# The library',
    '',
    '<!-- Generated by `npm run content:check -- --markdown`; do not edit by hand. -->',
    '',
    'Every title in `content/` with its levels, passage counts and computed readability, as measured by',
    '`npm run content:check` (`server/content/check.ts`). The format of the files is in',
    '[content-format.md](content-format.md); the formulas are in [readability.md](readability.md).',
    '',
    '- **English** figures are the **Flesch–Kincaid grade level** (0.39·words per sentence + 11.8·syllables per',
    '  word − 15.59): a US school grade, higher is harder, below 1 (even below 0) for very easy text. Every title',
    '  must read SILVER < GOLD < ORIGINAL.',
    '- **Spanish, Russian and Portuguese** figures are **reading-ease** scores (Fernández-Huerta, Oborneva, and',
    '  Martins et al.\'s Flesch for Portuguese): roughly 0–100, **higher is easier**. They are not grades, and not',
    '  comparable with the English figures.',
    '- Arabic, Chinese, Vietnamese, Bengali, Filipino, Urdu and Haitian Creole have no formula here: their figure is',
    '  "—".',
    '- **Lexile is never invented.** Lexile is MetaMetrics\' proprietary scale; the app shows a Lexile figure only when',
    '  a title\'s `publication.yaml` supplies a measured one, and these computed figures are not Lexile measures.',
    '',
    ...wrap(
      `Rules: ${MIN_PASSAGES}–${MAX_PASSAGES} passages in every edition, every edition as many passages as en.ORIGINAL, ` +
        'every passage as many paragraphs in every edition (two columns highlight in step, paragraph for paragraph), ' +
        `en.ORIGINAL passages of about ${PASSAGE_WORDS_TARGET.min}–${PASSAGE_WORDS_TARGET.max} words (warning outside ` +
        `${PASSAGE_WORDS_WARN.min}–${PASSAGE_WORDS_WARN.max}, error outside ${PASSAGE_WORDS_FAIL.min}–${PASSAGE_WORDS_FAIL.max}), ` +
        'an illustration on every en.ORIGINAL passage of an ILLUSTRATED title, and a QR code into passage 1. Words are ' +
        'counted as the importer counts them (`Intl.Segmenter`).',
    ),
    '',
    '## Titles',
    '',
    '| title | mode | badges | passages | words per passage (en ORIGINAL) | en SILVER | en GOLD | en ORIGINAL | check |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const t of report.titles) {
    out.push(
      `| ${mdEscape(t.title)} (\`${t.slug}\`) | ${t.renderingMode === 'ILLUSTRATED' ? 'illustrated' : 'text'} | ${t.badges.join(', ') || '—'} | ${passagesCell(t)} | ${wordsCell(t)} | ${fmt(t.englishGrades.SILVER)} | ${fmt(t.englishGrades.GOLD)} | ${fmt(t.englishGrades.ORIGINAL)} | ${status(t)} |`,
    );
  }
  out.push('', '## Every edition', '', '| title | edition | passages | words (total) | figure | formula |', '|---|---|---|---|---|---|');
  for (const t of report.titles) {
    for (const e of [...t.editions].sort((a, b) => (a.language === 'en' ? 0 : 1) - (b.language === 'en' ? 0 : 1) || a.language.localeCompare(b.language) || LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level))) {
      const figure = e.readability ? `${isGrade(e.readability) ? 'grade' : 'ease'} ${fmt(e.readability.grade)}` : '—';
      out.push(`| \`${t.slug}\` | ${e.language} ${e.level}${e.source ? ' (on-demand source)' : ''} | ${e.passages} | ${e.words.total} | ${figure} | ${e.readability?.formula ?? '—'} |`);
    }
  }
  out.push(
    '',
    '## Two columns',
    '',
    ...wrap(
      'Two editions side by side highlight in step (docs/reading-aids.md): while one column plays, the other lights the ' +
        'matching sentence when both paragraphs have as many sentences, else the whole matching paragraph. Per title ' +
        'and language pair, over the passages both editions have: paragraphs that align / paragraphs, and how many of ' +
        'them align sentence for sentence (* = on-demand source).',
    ),
    '',
    '| title | languages | editions: paragraphs aligned, by sentence |',
    '|---|---|---|',
  );
  for (const t of report.titles) {
    for (const g of pairsByLanguages(t)) out.push(`| \`${t.slug}\` | ${g.languages} | ${g.pairs.map((p) => mdEscape(pairCell(p)).replace(/\*/g, '\\*')).join('<br>')} |`);
  }
  if (report.coverage) {
    const c = report.coverage;
    out.push('', '## Coverage', '', '| what | titles | required |', '|---|---|---|', `| titles | ${c.titles} | ${MIN_TITLES} |`);
    for (const [l, min] of Object.entries(LANGUAGE_COVERAGE)) out.push(`| ${l} | ${c.languages[l as LanguageCode]} | ${min} |`);
    out.push(`| ILLUSTRATED | ${c.illustrated} | ${MIN_ILLUSTRATED} |`, `| badge \`${PREMIUM_BADGE}\` | ${c.premium} | ${MIN_PREMIUM} |`);
  }
  const open = report.findings;
  out.push('', '## Findings', '');
  if (open.length === 0) out.push('None: every rule holds.');
  else for (const f of open) out.push(`- ${f.severity}: ${f.slug ? `\`${f.slug}\` ` : ''}[${f.rule}] ${mdEscape(f.message)}`);
  return `${out.join('\n')}\n`;
}
