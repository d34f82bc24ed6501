/**
 * The real library in content/ passes every rule of `npm run content:check`: per title (English levels present
 * and reading SILVER < GOLD < ORIGINAL, 6–20 passages in every edition, every edition lined up with en.ORIGINAL
 * passage for passage and paragraph for paragraph, passage lengths, illustrations, a QR code into passage 1) and the
 * library totals of the library issue (20 titles, language coverage, illustrated and premium titles).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent, MIN_TITLES } from '../../server/content/check';
import { readLibrary } from '../../server/content/read';

describe('the library in content/', () => {
  const library = readLibrary(path.resolve(import.meta.dirname, '../../content'));
  const report = checkContent(library.publications);

  it('parses without problems', () => {
    expect(library.problems.map((p) => `${p.file}:${p.line} ${p.reason}`)).toEqual([]);
  });

  it(`has at least ${MIN_TITLES} titles`, () => {
    expect(report.titles.length).toBeGreaterThanOrEqual(MIN_TITLES);
  });

  for (const title of report.titles) {
    it(`${title.slug}: every per-title rule holds`, () => {
      const broken = title.findings.filter((f) => f.severity === 'error');
      expect(broken.map((f) => `[${f.rule}] ${f.message}`)).toEqual([]);
    });
  }

  it('covers every language, illustrated and premium title the library issue asks for', () => {
    expect(report.coverage?.findings.map((f) => `[${f.rule}] ${f.message}`)).toEqual([]);
  });
});
