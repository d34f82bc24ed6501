/**
 * The real library in content/, per title: the structural rules of `npm run content:check` (English levels present
 * and reading SILVER < GOLD < ORIGINAL, 6–20 passages in every edition, every edition lined up with en.ORIGINAL).
 *
 * The library totals (20 titles, languages, illustrated and premium titles) are not asserted here while titles are
 * still being written; tests/content/contentCheck.test.ts covers that logic, and `npm run content:check` reports it.
 * Folders that do not parse yet are the importer's concern (tests/server/import.test.ts), not this test's.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent, type Rule } from '../../server/content/check';
import { readLibrary } from '../../server/content/read';

const STRUCTURAL: readonly Rule[] = ['levels-present', 'levels-order', 'passage-count', 'passages-aligned'];

describe('every title in content/', () => {
  const library = readLibrary(path.resolve(import.meta.dirname, '../../content'));
  const report = checkContent(library.publications, { coverage: false });

  it('has titles to check', () => {
    expect(report.titles.length).toBeGreaterThanOrEqual(4);
  });

  for (const title of report.titles) {
    it(`${title.slug}: en SILVER < GOLD < ORIGINAL, 6–20 passages, editions lined up`, () => {
      const broken = title.findings.filter((f) => f.severity === 'error' && STRUCTURAL.includes(f.rule));
      expect(broken.map((f) => `[${f.rule}] ${f.message}`)).toEqual([]);
    });
  }
});
