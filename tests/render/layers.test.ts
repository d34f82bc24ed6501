/**
 * The Render layer (src/render; ../shared/architecture.json "Render"): framework-free markup that the server and
 * the views import. It may import only the shared domain and itself, and no package; the server imports nothing
 * of the views.
 */
import path from 'node:path';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildImportGraph, moduleSpecifiers } from '../../scripts/check-cycles';

const root = path.resolve(import.meta.dirname, '../..');
const graph = buildImportGraph(root, ['src', 'server']);
const renderFiles = [...graph.keys()].filter((file) => file.startsWith('src/render/'));

describe('src/render', () => {
  it('holds the first screen, its classes and the first-paint loader', () => {
    expect(renderFiles).toEqual(expect.arrayContaining(['src/render/firstScreenHtml.ts', 'src/render/readerClasses.ts', 'src/render/firstPaintLoader.ts']));
  });

  it('imports only src/domain and itself', () => {
    const outside = renderFiles.flatMap((file) =>
      [...graph.get(file)!].filter((target) => !target.startsWith('src/render/') && !target.startsWith('src/domain/')).map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('names no package (no React, no DOM library): only relative modules', () => {
    const packages = renderFiles.flatMap((file) =>
      moduleSpecifiers(file, fs.readFileSync(path.join(root, file), 'utf8'))
        .filter((specifier) => !specifier.startsWith('.'))
        .map((specifier) => `${file} -> ${specifier}`),
    );
    expect(packages).toEqual([]);
  });

  it('loads where there is no DOM', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const modules = await Promise.all([import('../../src/render/firstScreenHtml'), import('../../src/render/firstPaintLoader'), import('../../src/render/readerClasses')]);
    expect(modules.every((m) => Object.keys(m).length > 0)).toBe(true);
  });
});

describe('server/', () => {
  it('imports nothing under src/ui', () => {
    const views = [...graph].flatMap(([file, targets]) =>
      file.startsWith('server/') ? [...targets].filter((target) => target.startsWith('src/ui/')).map((target) => `${file} -> ${target}`) : [],
    );
    expect(views).toEqual([]);
  });
});
