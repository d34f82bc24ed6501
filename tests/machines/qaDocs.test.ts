/** The generated machine docs and QA paths in docs/ must match the machines: run `npm run qa:paths` after changing one. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAll } from '../../scripts/qa/generate';

describe('generated machine docs are current', () => {
  const files = generateAll();
  for (const [file, text] of files) {
    it(`${file} is up to date (npm run qa:paths)`, () => {
      const full = path.resolve(file);
      expect(fs.existsSync(full), `${file} is missing: run npm run qa:paths`).toBe(true);
      expect(fs.readFileSync(full, 'utf8'), `${file} is stale: run npm run qa:paths`).toBe(text);
    });
  }
  it('every QA page reaches every transition', () => {
    for (const [file, text] of files) if (file.startsWith('docs/qa/')) expect(text, file).not.toContain('No path reaches');
  });
});
