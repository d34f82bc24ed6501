/** Nothing in src/machines or src/engine reaches for the browser or the real clock: everything comes through ports. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const FORBIDDEN = [/\bwindow\b/, /\bdocument\b/, /\blocalStorage\b/, /\bsessionStorage\b/, /\bfetch\s*\(/, /\bDate\.now\b/, /\bnew Date\b/, /(?<![.\w])setTimeout\s*\((?!\s*\w+\s*:)/, /(?<![.\w])setInterval\s*\(/, /\bnavigator\b/, /from 'react/];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Code without comments and string contents, so prose may mention window. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`/g, "''");
}

describe('machines and engine are free of globals', () => {
  for (const dir of ['src/machines', 'src/engine']) {
    for (const file of sourceFiles(dir)) {
      it(`${file} uses only ports`, () => {
        const text = code(fs.readFileSync(file, 'utf8'));
        const hits = FORBIDDEN.filter((re) => re.test(text)).map(String);
        expect(hits).toEqual([]);
      });
    }
  }
});

afterAll(() => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
});
