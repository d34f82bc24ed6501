/**
 * The server's folders stack (docs/architecture.md, "The server"): no two folders under server/ import each other,
 * the folders form no cycle at all, and nothing under server/ imports a view (src/ui).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildImportGraph, cyclesOf, type ImportGraph } from '../../scripts/check-cycles';

const root = path.resolve(import.meta.dirname, '../..');

/** Folder → the other folders its files import (each file's folder is its path's directory). */
function folderGraph(files: ImportGraph, under: string): ImportGraph {
  const folders: ImportGraph = new Map();
  for (const [file, targets] of files) {
    if (!file.startsWith(`${under}/`)) continue;
    const from = path.posix.dirname(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = path.posix.dirname(target);
      if (target.startsWith(`${under}/`) && to !== from) edges.add(to);
    }
  }
  return folders;
}

/** Every pair of folders that import each other, as 'a <-> b' with a < b, and one import each way. */
function twoWayPairs(files: ImportGraph, under: string): string[] {
  const folders = folderGraph(files, under);
  const example = (from: string, to: string) =>
    [...files].flatMap(([file, targets]) => (path.posix.dirname(file) === from ? [...targets].filter((t) => path.posix.dirname(t) === to).map((t) => `${file} → ${t}`) : []))[0];
  const pairs: string[] = [];
  for (const [a, targets] of folders) {
    for (const b of targets) {
      if (a < b && folders.get(b)?.has(a)) pairs.push(`${a} <-> ${b} (${example(a, b)}; ${example(b, a)})`);
    }
  }
  return pairs.sort();
}

/** Every import of a file under `under` that names a file under `banned`. */
function importsOf(files: ImportGraph, under: string, banned: string): string[] {
  return [...files].flatMap(([file, targets]) => (file.startsWith(`${under}/`) ? [...targets].filter((t) => t.startsWith(`${banned}/`)).map((t) => `${file} → ${t}`) : []));
}

describe('the server folders', () => {
  const files = buildImportGraph(root, ['server', 'src']);

  it('has no two folders that import each other', () => {
    expect(twoWayPairs(files, 'server')).toEqual([]);
  });

  it('stack: the folders form no cycle', () => {
    expect(cyclesOf(folderGraph(files, 'server')).map((cycle) => cycle.loop.join(' → '))).toEqual([]);
  });

  it('import nothing under src/ui', () => {
    expect(importsOf(files, 'server', 'src/ui')).toEqual([]);
  });
});

describe('the folder checks', () => {
  const graph: ImportGraph = new Map([
    ['server/a/one.ts', new Set(['server/b/two.ts', 'server/a/three.ts'])],
    ['server/a/three.ts', new Set<string>()],
    ['server/b/two.ts', new Set(['server/a/three.ts', 'src/ui/view.tsx'])],
    ['server/c/four.ts', new Set(['server/b/two.ts'])],
    ['server/b/five.ts', new Set(['server/c/four.ts'])],
    ['src/ui/view.tsx', new Set<string>()],
  ]);

  it('finds a pair of folders that import each other, whichever files do it', () => {
    expect(twoWayPairs(graph, 'server')).toEqual([
      'server/a <-> server/b (server/a/one.ts → server/b/two.ts; server/b/two.ts → server/a/three.ts)',
      'server/b <-> server/c (server/b/five.ts → server/c/four.ts; server/c/four.ts → server/b/two.ts)',
    ]);
  });

  it('finds a cycle of folders, and none once the back import goes', () => {
    expect(cyclesOf(folderGraph(graph, 'server')).map((cycle) => cycle.files)).toEqual([['server/a', 'server/b', 'server/c']]);
    const stacked: ImportGraph = new Map(graph);
    stacked.set('server/b/two.ts', new Set(['src/ui/view.tsx']));
    stacked.set('server/b/five.ts', new Set());
    expect(twoWayPairs(stacked, 'server')).toEqual([]);
    expect(cyclesOf(folderGraph(stacked, 'server'))).toEqual([]);
  });

  it('finds an import of src/ui', () => {
    expect(importsOf(graph, 'server', 'src/ui')).toEqual(['server/b/two.ts → src/ui/view.tsx']);
  });
});
