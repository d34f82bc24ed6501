/**
 * The client's floors (docs/architecture.md, top): each folder of src/ imports only the folders below it.
 * 4 ui · 3 adapters · 2 engine · 1 machines, api, render · 0 domain. src/main.tsx and src/sw.ts are entry points.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildImportGraph } from '../../scripts/check-cycles';

const root = path.resolve(import.meta.dirname, '../..');

/** Each folder and the folders of src/ it may import (besides itself). */
const MAY_IMPORT: Record<string, string[]> = {
  ui: ['adapters', 'engine', 'machines', 'api', 'render', 'domain'],
  adapters: ['engine', 'domain'],
  engine: ['machines', 'domain'],
  machines: ['domain'],
  api: ['domain'],
  render: ['domain'],
  domain: [],
};

/** `from` folder → imports of a folder it may not import, as 'file -> file'. */
function wrongImports(): string[] {
  const graph = buildImportGraph(root, ['src']);
  const folderOf = (file: string) => file.split('/')[1]!;
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const allowed = MAY_IMPORT[from];
    if (!allowed) continue;
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from && target.startsWith('src/') && !allowed.includes(to)) wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong;
}

describe("the client's floors", () => {
  it('every folder of src/ is on a floor', () => {
    const folders = new Set([...buildImportGraph(root, ['src']).keys()].map((f) => f.split('/')).filter((p) => p.length > 2).map((p) => p[1]!));
    expect([...folders].filter((f) => !(f in MAY_IMPORT))).toEqual([]);
  });

  it('no folder imports one on its own floor or above', () => {
    expect(wrongImports()).toEqual([]);
  });
});
