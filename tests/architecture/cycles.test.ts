import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cyclesOf, findCycles, graphFromSources, resolveSpecifier } from '../../scripts/check-cycles';

const root = path.resolve(import.meta.dirname, '../..');

describe('import cycles', () => {
  it('server/ has none', () => {
    expect(findCycles(root, ['server']).map((cycle) => cycle.files)).toEqual([]);
  });

  it('src/ has none', () => {
    expect(findCycles(root, ['src']).map((cycle) => cycle.files)).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('finds a cycle through import, import type, export-from and dynamic import', () => {
    const cycles = cyclesOf(
      graphFromSources(
        new Map([
          ['a/one.ts', "import { two } from './two.js';\nexport const one = two;"],
          ['a/two.ts', "import type { Three } from '../b';\nexport const two = 2;"],
          ['b/index.ts', "export { four } from './four';\nexport type Three = 3;"],
          ['b/four.tsx', "export const four = () => import('../a/one');"],
          ['c/leaf.ts', "import { one } from '../a/one';\nimport zod from 'zod';"],
        ]),
      ),
    );
    expect(cycles).toEqual([
      {
        files: ['a/one.ts', 'a/two.ts', 'b/four.tsx', 'b/index.ts'],
        loop: ['a/one.ts', 'a/two.ts', 'b/index.ts', 'b/four.tsx', 'a/one.ts'],
      },
    ]);
  });

  it('finds a file that imports itself, and a type-level import(...)', () => {
    const graph = graphFromSources(
      new Map([
        ['self.ts', "export type T = import('./self').U;\nexport type U = 1;"],
        ['x.ts', 'export const x = 1;'],
      ]),
    );
    expect(cyclesOf(graph)).toEqual([{ files: ['self.ts'], loop: ['self.ts', 'self.ts'] }]);
  });

  it('finds nothing in a DAG', () => {
    const graph = graphFromSources(
      new Map([
        ['a.ts', "import { b } from './b';\nimport { c } from './c';"],
        ['b.ts', "import { c } from './c';\nexport const b = 1;"],
        ['c.ts', "// import { a } from './a';\nconst s = \"import('./a')\";\nexport const c = 1;"],
      ]),
    );
    expect(graph.get('a.ts')).toEqual(new Set(['b.ts', 'c.ts']));
    expect(cyclesOf(graph)).toEqual([]);
  });

  it('resolves .js to .ts, folders to index files and ignores packages', () => {
    const files = new Set(['s/a.ts', 's/b.tsx', 's/dir/index.ts']);
    expect(resolveSpecifier('s/x.ts', './a.js', files)).toBe('s/a.ts');
    expect(resolveSpecifier('s/x.ts', './b', files)).toBe('s/b.tsx');
    expect(resolveSpecifier('s/x.ts', './dir', files)).toBe('s/dir/index.ts');
    expect(resolveSpecifier('s/dir/y.ts', '..', files)).toBe(null);
    expect(resolveSpecifier('s/x.ts', 'react', files)).toBe(null);
  });

  describe('on files on disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-cycles-'));
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reads every .ts/.tsx file under the folders', () => {
      fs.mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/a.ts'), "import { b } from './deep/b';\nexport const a = 1;");
      fs.writeFileSync(path.join(dir, 'src/deep/b.tsx'), "import { a } from '../a';\nexport const b = a;");
      fs.writeFileSync(path.join(dir, 'src/c.ts'), "import { a } from './a';");
      expect(findCycles(dir, ['src'])).toEqual([
        { files: ['src/a.ts', 'src/deep/b.tsx'], loop: ['src/a.ts', 'src/deep/b.tsx', 'src/a.ts'] },
      ]);
      fs.writeFileSync(path.join(dir, 'src/deep/b.tsx'), 'export const b = 2;');
      expect(findCycles(dir, ['src'])).toEqual([]);
    });
  });
});
