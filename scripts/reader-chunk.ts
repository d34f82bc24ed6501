/**
 * The reader's views in two chunks, instead of ~20 small ones that each compress on their own: everything the
 * reader route imports statically under src/ that the entry does not already carry, in one request and one gzip
 * stream ('reader'), and what of it other lazy screens import as well ('readerShared': the listen and teaser
 * pages, the downloads page, the account menu load it with their own, a few KB more than they use).
 *
 * Left out of both, so they keep their own chunks:
 * - what the catalog's or a title's page imports statically: those pages stay as lean as they were;
 * - the engine's steps (the dynamic imports of src/ui/engine/store.ts) and what they import: each is evaluated in a task
 *   of its own so that no single task holds the reader's main thread long;
 * - libraries: a package's index names all its modules, of which the bundle keeps only the used ones, so the
 *   import graph cannot tell which to take; they keep the bundler's own chunks;
 * - anything the reader loads lazily (menus, dialogs, the open player), which is reached only by dynamic imports.
 */
import path from 'node:path';
import { ROUTE_CHUNKS } from './route-chunks.js';

/** Module ids (absolute, as the bundler names them) are compared with this root's files. */
const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src') + path.sep;
const READER_ROUTE = path.join(ROOT, ROUTE_CHUNKS.reader);
/** The module whose dynamic imports are the engine's steps (`ENGINE_STEPS` there, and the engine itself). */
const ENGINE_STORE = path.join(ROOT, 'src/ui/engine/store.ts');

const MAIN = path.join(ROOT, 'src/main.tsx');
/** The lazy screens that load nothing of the reader's. */
const LEAN_SCREENS = [ROUTE_CHUNKS.catalog, 'src/ui/screens/publication/PublicationScreen.tsx'].map((file) => path.join(ROOT, file));
const READER_VIEWS = path.join(ROOT, 'src/ui/screens/reader') + path.sep;

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

/** The modules reached from `roots` through static imports, and through dynamic ones as well when asked. */
function closure(graph: ModuleGraph, roots: readonly string[], { dynamic = false } = {}): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const info = graph.getModuleInfo(id);
    for (const next of info?.importedIds ?? []) stack.push(next);
    if (dynamic) for (const next of info?.dynamicallyImportedIds ?? []) stack.push(next);
  }
  return seen;
}

type ReaderChunk = 'reader' | 'readerShared';

/**
 * The reader's views: the reader route's static imports under src/, less the engine's steps and the lean screens'
 * imports; those another lazy screen imports as well are 'readerShared'.
 */
function readerViews(graph: ModuleGraph): Map<string, ReaderChunk> {
  const lazyRoots = new Set<string>();
  for (const id of closure(graph, [MAIN], { dynamic: true })) {
    for (const target of graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []) {
      // The reader's own lazy parts (menus, dialogs) share its views and load after it.
      if (target !== READER_ROUTE && !target.startsWith(READER_VIEWS)) lazyRoots.add(target);
    }
  }
  const elsewhere = closure(graph, [...lazyRoots]);
  const engine = closure(graph, graph.getModuleInfo(ENGINE_STORE)?.dynamicallyImportedIds ?? []);
  const lean = closure(graph, LEAN_SCREENS);
  const views = new Map<string, ReaderChunk>();
  const isStyle = (id: string) => /\.css($|\?)/.test(id);
  // A style sheet (or a module that imports one) shared with other screens keeps its own chunk: in 'readerShared' it
  // would come with whatever else another screen takes from there (the reading fonts' declarations on the catalog).
  const bringsStyles = (id: string) => isStyle(id) || (graph.getModuleInfo(id)?.importedIds ?? []).some(isStyle);
  for (const m of closure(graph, [READER_ROUTE])) {
    if (m === READER_ROUTE || !m.startsWith(SRC) || engine.has(m) || lean.has(m)) continue;
    if (!elsewhere.has(m)) views.set(m, 'reader');
    else if (!bringsStyles(m)) views.set(m, 'readerShared');
  }
  return views;
}

/** The chunk name for a module of the reader's views, else null (the module is chunked as before). */
export function readerViewsChunk(): (id: string, graph: ModuleGraph) => ReaderChunk | null {
  let views: Map<string, ReaderChunk> | null = null;
  return (id, graph) => {
    views ??= readerViews(graph);
    return views.get(id) ?? null;
  };
}
