/** The library's editorial rules (server/content/check.ts) over small libraries built in memory. */
import { describe, expect, it } from 'vitest';
import {
  checkContent,
  checkCoverage,
  checkTitle,
  formatReport,
  LANGUAGE_COVERAGE,
  libraryMarkdown,
  MAX_PASSAGES,
  MIN_ILLUSTRATED,
  MIN_PASSAGES,
  MIN_PREMIUM,
  MIN_TITLES,
  PASSAGE_WORDS_FAIL,
  PASSAGE_WORDS_WARN,
  svgSize,
  type CheckEdition,
  type CheckPassage,
  type CheckPublication,
  type Finding,
} from '../../server/content/check';
import type { LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';

// Sentences that measure far apart on Flesch–Kincaid: long and polysyllabic, middling, short and plain.
const HARD = 'The experienced navigator considered the extraordinary constellations carefully, calculating their positions throughout the evening while everybody else was sleeping peacefully.';
const MIDDLE = 'The sailor looked at the bright stars and counted them all through the long night.';
const EASY = 'The cat sat on a mat. It was a big red cat.';
const SPANISH_HARD = 'La navegante experimentada consideraba cuidadosamente las extraordinarias constelaciones, calculando sus posiciones durante toda la noche mientras los demás dormían tranquilamente.';
const SPANISH_EASY = 'El gato se sentó. Era un gato rojo. Le gusta el sol.';

/** A passage of at least `words` words, repeating a sentence. */
function passage(sentence: string, words = 80, image: string | null = null): CheckPassage {
  const perSentence = sentence.split(/\s+/).length;
  const plain = Array.from({ length: Math.max(1, Math.ceil(words / perSentence)) }, () => sentence).join(' ');
  return { html: `<p>${plain}</p>`, plain, image };
}

function edition(language: LanguageCode, level: Level, sentence: string, count = 8, options: { words?: number; images?: boolean } = {}): CheckEdition {
  return {
    language,
    level,
    passages: Array.from({ length: count }, (_, i) => passage(sentence, options.words ?? 80, options.images ? `images/p${i + 1}.svg` : null)),
  };
}

/** A title that passes every per-title rule: three English levels in order, Spanish, a QR code into passage 1. */
function title(slug: string, overrides: Partial<CheckPublication> = {}): CheckPublication {
  return {
    slug,
    title: slug.replace(/-/g, ' '),
    renderingMode: 'DEFAULT',
    badges: [],
    qr: [{ code: `${slug}-1`, language: 'en', level: 'ORIGINAL', position: 1 }],
    editions: [edition('en', 'ORIGINAL', HARD), edition('en', 'GOLD', MIDDLE), edition('en', 'SILVER', EASY), edition('es', 'ORIGINAL', SPANISH_HARD)],
    sources: [],
    ...overrides,
  };
}

const rules = (findings: Finding[], severity?: Finding['severity']) => findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);

describe('per-title rules', () => {
  it('a complete title passes with no findings, and its grades rise SILVER < GOLD < ORIGINAL', () => {
    const report = checkTitle(title('good-book'));
    expect(report.findings).toEqual([]);
    const { SILVER, GOLD, ORIGINAL } = report.englishGrades;
    expect(SILVER!).toBeLessThan(GOLD!);
    expect(GOLD!).toBeLessThan(ORIGINAL!);
    const es = report.editions.find((e) => e.language === 'es')!;
    expect(es.readability?.formula).toMatch(/Fernández-Huerta/);
    expect(report.editions.find((e) => e.level === 'ORIGINAL' && e.language === 'en')!.words.min).toBeGreaterThanOrEqual(80);
  });

  it('requires en ORIGINAL, GOLD and SILVER as edition files; a source does not count', () => {
    const noSilver = title('no-silver', {
      editions: [edition('en', 'ORIGINAL', HARD), edition('en', 'GOLD', MIDDLE)],
      sources: [edition('en', 'SILVER', EASY)],
    });
    const report = checkTitle(noSilver);
    expect(rules(report.findings, 'error')).toEqual(['levels-present']);
    expect(report.findings[0].message).toContain('en.SILVER.md');
    expect(report.englishGrades.SILVER).toBeUndefined();
  });

  it('fails levels out of order, and levels that measure the same', () => {
    const swapped = checkTitle(title('swapped', { editions: [edition('en', 'ORIGINAL', MIDDLE), edition('en', 'GOLD', HARD), edition('en', 'SILVER', EASY)] }));
    expect(rules(swapped.findings)).toEqual(['levels-order']);
    expect(swapped.findings[0].message).toMatch(/en GOLD reads at grade [\d.]+, not below en ORIGINAL/);

    const same = checkTitle(title('same', { editions: [edition('en', 'ORIGINAL', HARD), edition('en', 'GOLD', MIDDLE), edition('en', 'SILVER', MIDDLE)] }));
    expect(rules(same.findings)).toEqual(['levels-order']);
  });

  it(`needs ${MIN_PASSAGES}–${MAX_PASSAGES} passages in every edition and source`, () => {
    const few = MIN_PASSAGES - 1;
    const short = checkTitle(title('short', { editions: ['ORIGINAL', 'GOLD', 'SILVER'].map((l, i) => edition('en', l as Level, [HARD, MIDDLE, EASY][i], few)) }));
    expect(rules(short.findings)).toEqual(['passage-count', 'passage-count', 'passage-count']);
    expect(short.findings[0].message).toBe(`en.ORIGINAL has ${few} passages (${MIN_PASSAGES}–${MAX_PASSAGES} required)`);

    const many = MAX_PASSAGES + 1;
    const long = checkTitle(title('long', { editions: ['ORIGINAL', 'GOLD', 'SILVER'].map((l, i) => edition('en', l as Level, [HARD, MIDDLE, EASY][i], many)) }));
    expect(rules(long.findings)).toEqual(['passage-count', 'passage-count', 'passage-count']);

    const edges = checkTitle(title('edges', { editions: ['ORIGINAL', 'GOLD', 'SILVER'].map((l, i) => edition('en', l as Level, [HARD, MIDDLE, EASY][i], MAX_PASSAGES)) }));
    expect(edges.findings).toEqual([]);
  });

  it('needs every translation, level and source to have as many passages as en.ORIGINAL', () => {
    const base = title('misaligned');
    const report = checkTitle({ ...base, editions: [...base.editions.slice(0, 3), edition('es', 'ORIGINAL', SPANISH_HARD, 7)], sources: [edition('es', 'GOLD', SPANISH_EASY, 9)] });
    expect(rules(report.findings)).toEqual(['passages-aligned', 'passages-aligned']);
    expect(report.findings.map((f) => f.message)).toEqual([
      'es.ORIGINAL has 7 passages, en.ORIGINAL has 8 (editions line up passage for passage)',
      'es.GOLD (source) has 9 passages, en.ORIGINAL has 8 (editions line up passage for passage)',
    ]);
  });

  it('needs every passage to have as many paragraphs in every edition and source as in en.ORIGINAL (two columns highlight in step)', () => {
    const base = title('paragraphs');
    const split = (e: CheckEdition, positions: number[], parts: number): CheckEdition => ({
      ...e,
      passages: e.passages.map((p, i) => (positions.includes(i + 1) ? { ...p, html: Array.from({ length: parts }, () => `<p>${p.plain}</p>`).join('') } : p)),
    });
    const es = split(base.editions[3], [2, 5], 3);
    const report = checkTitle({ ...base, editions: [...base.editions.slice(0, 3), es], sources: [split(edition('es', 'GOLD', SPANISH_EASY), [1], 2)] });
    expect(report.findings.map((f) => [f.severity, f.rule, f.message])).toEqual([
      ['error', 'paragraphs-aligned', 'es.ORIGINAL has other paragraph counts than en.ORIGINAL in passages 2 (3, not 1), 5 (3, not 1) (two columns highlight in step paragraph for paragraph)'],
      ['error', 'paragraphs-aligned', 'es.GOLD (source) has other paragraph counts than en.ORIGINAL in passage 1 (2, not 1) (two columns highlight in step paragraph for paragraph)'],
    ]);
    // The same split in every edition lines up again.
    const all = checkTitle({ ...base, editions: base.editions.map((e) => split(e, [2, 5], 3)) });
    expect(all.findings).toEqual([]);
  });

  it('reports, per pair of editions in two languages, how many paragraphs align and how many by sentence', () => {
    const base = title('pairs', { sources: [edition('es', 'GOLD', SPANISH_EASY)] });
    const report = checkTitle(base);
    expect(report.pairs.map((p) => `${p.first}/${p.second}`)).toEqual([
      'en.ORIGINAL/es.ORIGINAL',
      'en.ORIGINAL/es.GOLD*',
      'en.GOLD/es.ORIGINAL',
      'en.GOLD/es.GOLD*',
      'en.SILVER/es.ORIGINAL',
      'en.SILVER/es.GOLD*',
    ]);
    // One paragraph per passage, 8 passages. HARD and SPANISH_HARD are one long sentence each, repeated as often as
    // 80 words need: 4 times each, so they pair sentence for sentence; EASY's many short sentences do not.
    const pair = (name: string) => report.pairs.find((p) => `${p.first}/${p.second}` === name)!;
    expect(pair('en.ORIGINAL/es.ORIGINAL')).toMatchObject({ paragraphs: 8, aligned: 8, bySentence: 8 });
    expect(pair('en.SILVER/es.ORIGINAL')).toMatchObject({ paragraphs: 8, aligned: 8, bySentence: 0 });

    const es = base.editions[3];
    const misaligned = checkTitle({ ...base, editions: [...base.editions.slice(0, 3), { ...es, passages: es.passages.map((p, i) => (i === 0 ? { ...p, html: `<p>${p.plain}</p><p>${p.plain}</p>` } : p)) }] });
    expect(misaligned.pairs.find((p) => p.first === 'en.ORIGINAL' && p.second === 'es.ORIGINAL')).toMatchObject({ paragraphs: 8, aligned: 7, bySentence: 7 });
  });

  it('warns about en.ORIGINAL passages a little outside the wanted length and fails ones far outside', () => {
    const words = (n: number) => {
      const p = passage(HARD);
      const plain = Array.from({ length: n }, (_, i) => (i % 10 === 9 ? 'word.' : 'word')).join(' ');
      return { ...p, plain, html: `<p>${plain}</p>` };
    };
    const withPassages = (...lengths: number[]) => {
      const base = title('lengths');
      const original: CheckEdition = { ...base.editions[0], passages: base.editions[0].passages.map((p, i) => (lengths[i] ? words(lengths[i]) : p)) };
      return checkTitle({ ...base, editions: [original, ...base.editions.slice(1)] }).findings.filter((f) => f.rule === 'passage-words');
    };
    expect(withPassages(PASSAGE_WORDS_WARN.min, PASSAGE_WORDS_WARN.max)).toEqual([]);
    const warned = withPassages(PASSAGE_WORDS_WARN.min - 1, PASSAGE_WORDS_WARN.max + 1);
    expect(warned.map((f) => [f.severity, f.message])).toEqual([
      ['warning', `en.ORIGINAL passage 1 has ${PASSAGE_WORDS_WARN.min - 1} words (about 60–150 wanted)`],
      ['warning', `en.ORIGINAL passage 2 has ${PASSAGE_WORDS_WARN.max + 1} words (about 60–150 wanted)`],
    ]);
    const failed = withPassages(PASSAGE_WORDS_FAIL.min - 1, PASSAGE_WORDS_FAIL.max + 1);
    expect(failed.map((f) => f.severity)).toEqual(['error', 'error']);
    expect(failed[1].message).toContain(`${PASSAGE_WORDS_FAIL.max + 1} words (30–250 allowed`);
  });

  it('needs an ILLUSTRATED title to have an illustration on every en.ORIGINAL passage, and warns for other editions', () => {
    const illustrated = (originalImages: boolean, otherImages: boolean) =>
      title('pictures', {
        renderingMode: 'ILLUSTRATED',
        editions: [
          edition('en', 'ORIGINAL', HARD, 8, { images: originalImages }),
          edition('en', 'GOLD', MIDDLE, 8, { images: otherImages }),
          edition('en', 'SILVER', EASY, 8, { images: otherImages }),
        ],
      });
    expect(checkTitle(illustrated(true, true)).findings).toEqual([]);
    const bareTranslations = checkTitle(illustrated(true, false)).findings;
    expect(bareTranslations.map((f) => f.severity)).toEqual(['warning', 'warning']);
    expect(bareTranslations[0].message).toBe('en.GOLD passages 1, 2, 3, 4, 5, 6, 7, 8 without an illustration');

    const base = illustrated(true, true);
    const original = base.editions[0];
    const oneMissing = { ...original, passages: original.passages.map((p, i) => (i === 2 ? { ...p, image: null } : p)) };
    const findings = checkTitle({ ...base, editions: [oneMissing, ...base.editions.slice(1)] }).findings;
    expect(findings).toEqual([expect.objectContaining({ severity: 'error', rule: 'illustrations', message: 'ILLUSTRATED, but en.ORIGINAL passage 3 has no illustration (one per passage)' })]);

    // A DEFAULT title needs none.
    expect(checkTitle(title('plain')).findings).toEqual([]);
  });

  it('fails an illustration larger than 400×400', () => {
    const svg = (w: number, h: number) => new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect/></svg>`);
    const base = title('big-pictures', { renderingMode: 'ILLUSTRATED', editions: [edition('en', 'ORIGINAL', HARD, 8, { images: true }), edition('en', 'GOLD', MIDDLE, 8, { images: true }), edition('en', 'SILVER', EASY, 8, { images: true })] });
    const ok = checkTitle({ ...base, assets: [{ path: 'images/p1.svg', data: svg(400, 400) }, { path: 'images/cover.svg', data: svg(900, 900) }] });
    expect(ok.findings).toEqual([]); // the cover is not an illustration
    const big = checkTitle({ ...base, assets: [{ path: 'images/p2.svg', data: svg(800, 400) }] });
    expect(big.findings.map((f) => f.message)).toEqual(['images/p2.svg is 800×400; illustrations are 400×400 at most']);
  });

  it('reads an SVG’s declared size from width and height, else its viewBox', () => {
    expect(svgSize('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 10 10">')).toEqual({ width: 400, height: 300 });
    expect(svgSize("<svg width='120px' height='80px'>")).toEqual({ width: 120, height: 80 });
    expect(svgSize('<svg viewBox="0 0 800 600" width="100%">')).toEqual({ width: 800, height: 600 });
    expect(svgSize('<svg>')).toBeNull();
    expect(svgSize('not svg')).toBeNull();
  });

  it('needs a QR code pointing at passage 1', () => {
    expect(rules(checkTitle(title('no-qr', { qr: [] })).findings)).toEqual(['qr-first-passage']);
    const later = checkTitle(title('later-qr', { qr: [{ code: 'later-3', language: 'en', level: 'ORIGINAL', position: 3 }] }));
    expect(later.findings.map((f) => f.message)).toEqual(['no QR code points at passage 1']);
    const two = checkTitle(title('two-qr', { qr: [{ code: 'two-3', language: 'en', level: 'ORIGINAL', position: 3 }, { code: 'two-1', language: 'es', level: 'ORIGINAL', position: 1 }] }));
    expect(two.findings).toEqual([]);
  });

  it('warns when a translation’s easier level does not read easier (higher reading ease)', () => {
    const good = checkTitle(title('es-levels', { sources: [edition('es', 'GOLD', SPANISH_EASY)] }));
    expect(good.findings).toEqual([]);
    const bad = checkTitle(title('es-levels-bad', { editions: [...title('x').editions.slice(0, 3), edition('es', 'ORIGINAL', SPANISH_EASY)], sources: [edition('es', 'GOLD', SPANISH_HARD)] }));
    expect(bad.findings.map((f) => [f.severity, f.rule])).toEqual([['warning', 'translation-levels']]);
  });
});

/** A library that meets every total: MIN_TITLES titles covering the languages, illustrated and premium titles. */
function fullLibrary(): CheckPublication[] {
  const needs = Object.entries(LANGUAGE_COVERAGE) as [LanguageCode, number][];
  return Array.from({ length: MIN_TITLES }, (_, i) => {
    const base = title(`book-${i + 1}`);
    const translations = needs.filter(([, n]) => i < n).map(([language]) => edition(language, 'ORIGINAL', language === 'es' ? SPANISH_HARD : HARD));
    return {
      ...base,
      renderingMode: i < MIN_ILLUSTRATED ? 'ILLUSTRATED' : 'DEFAULT',
      badges: i < MIN_PREMIUM ? ['premium'] : [],
      editions: [...base.editions.slice(0, 3), ...translations].map((e) =>
        i < MIN_ILLUSTRATED ? { ...e, passages: e.passages.map((p, k) => ({ ...p, image: `images/p${k + 1}.svg` })) } : e,
      ),
    } satisfies CheckPublication;
  });
}

describe('library totals', () => {
  it('a full library passes every total', () => {
    const library = fullLibrary();
    const coverage = checkCoverage(library);
    expect(coverage.findings).toEqual([]);
    expect(coverage).toMatchObject({ titles: MIN_TITLES, illustrated: MIN_ILLUSTRATED, premium: MIN_PREMIUM });
    expect(coverage.languages).toMatchObject({ en: MIN_TITLES, ...LANGUAGE_COVERAGE });
    const report = checkContent(library);
    expect(report.findings).toEqual([]);
    expect(report.errors).toBe(0);
  });

  it('fails too few titles, languages, illustrated and premium titles, each by name', () => {
    const library = fullLibrary().slice(1).map((p) => ({ ...p, badges: [] }));
    // Dropping book-1 loses a title, one of each language, an illustrated title; the badges go too.
    const coverage = checkCoverage(library);
    expect(coverage.findings.map((f) => f.rule)).toEqual([
      'title-count',
      ...Object.keys(LANGUAGE_COVERAGE).map(() => 'language-coverage'),
      'illustrated-count',
      'premium-count',
    ]);
    expect(coverage.findings[0].message).toBe(`${MIN_TITLES - 1} titles; at least ${MIN_TITLES} required`);
    expect(coverage.findings.find((f) => f.message.includes(' in ur'))!.message).toBe('1 title in ur; at least 2 required');
    expect(coverage.findings.find((f) => f.message.includes(' in ha'))!.message).toBe('0 titles in ha; at least 1 required');
    expect(coverage.findings.every((f) => f.severity === 'error' && f.slug === null)).toBe(true);
  });

  it('a source does not count towards a language, and premium is a badge', () => {
    const library = fullLibrary();
    library[0] = { ...library[0], editions: library[0].editions.filter((e) => e.language !== 'ha'), sources: [edition('ha', 'ORIGINAL', HARD)] };
    expect(checkCoverage(library).findings.map((f) => f.message)).toEqual(['0 titles in ha; at least 1 required']);
  });

  it('coverage: false checks the titles only', () => {
    const report = checkContent([title('only-one'), title('broken', { qr: [] })], { coverage: false });
    expect(report.coverage).toBeNull();
    expect(report.findings.map((f) => [f.slug, f.rule])).toEqual([['broken', 'qr-first-passage']]);
    expect(report.errors).toBe(1);
    expect(report.titles.map((t) => t.slug)).toEqual(['broken', 'only-one']);
  });
});

describe('the report', () => {
  it('prints a table, the findings, the totals and a summary line', () => {
    const report = checkContent([title('good-book'), title('no-qr', { qr: [] })]);
    const text = formatReport(report);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^title\s+mode\s+badges\s+passages\s+words\/passage\s+en SILVER\s+en GOLD\s+en ORIGINAL\s+translations/);
    expect(lines.find((l) => l.startsWith('good-book'))).toMatch(/\s8\s+\d+–\d+\s+-?[\d.]+\s+[\d.]+\s+[\d.]+\s+es -?[\d.]+\s+ok$/);
    expect(lines.find((l) => l.startsWith('no-qr'))).toMatch(/FAIL \(1\)$/);
    expect(text).toContain('error    no-qr  [qr-first-passage]');
    expect(text).toContain(`titles       2/${MIN_TITLES}  ✗`);
    expect(text).toContain('Two columns, per title and language pair');
    expect(lines.find((l) => /^\s+good-book\s+en–es\s/.test(l))).toMatch(/en\.ORIGINAL\/es\.ORIGINAL 8\/8, 8 by sentence; en\.GOLD\/es\.ORIGINAL 8\/8, \d+ by sentence; en\.SILVER\/es\.ORIGINAL 8\/8, \d+ by sentence$/);
    expect(lines.at(-1)).toMatch(/^2 titles checked: 1 pass, 1 fail; library totals fail \(\d+\); \d+ errors, 0 warnings\.$/);
  });

  it('writes docs/library.md: the formulas, the Lexile note, a row per title and per edition; the same every time', () => {
    const report = checkContent([title('good-book'), title('pictures', { renderingMode: 'ILLUSTRATED', badges: ['premium'], sources: [edition('es', 'GOLD', SPANISH_EASY)] })], { coverage: false });
    const md = libraryMarkdown(report);
    expect(md).toContain('Flesch–Kincaid grade level');
    expect(md).toContain('Lexile is never invented');
    expect(md).toMatch(/\| good book \(`good-book`\) \| text \| — \| 8 \| \d+–\d+ \| -?[\d.]+ \| [\d.]+ \| [\d.]+ \| ok \|/);
    expect(md).toContain('| pictures (`pictures`) | illustrated | premium |');
    expect(md).toMatch(/\| `pictures` \| es GOLD \(on-demand source\) \| 8 \| \d+ \| ease [\d.]+ \| Fernández-Huerta reading ease \|/);
    expect(md).not.toContain('## Coverage');
    expect(md).toContain('## Two columns');
    expect(md).toMatch(/\| `pictures` \| en–es \| en\.ORIGINAL\/es\.ORIGINAL 8\/8, 8 by sentence<br>en\.ORIGINAL\/es\.GOLD\\\* 8\/8, \d+ by sentence<br>/);
    expect(libraryMarkdown(report)).toBe(md);
    expect(libraryMarkdown(checkContent(fullLibrary()))).toContain('None: every rule holds.');
  });
});
