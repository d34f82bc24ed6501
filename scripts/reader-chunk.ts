/**
 * The reader's views in one chunk: everything the reader route imports statically that the entry does not already
 * carry, in one request and one gzip stream, instead of ~20 small chunks that each compress on their own.
 *
 * Left out of it, so they keep their own chunks:
 * - what another lazy screen imports statically, so that screen does not load the reader's chunk;
 * - the engine's steps (`ENGINE_STEPS`, src/ui/engine/store.ts) and what they import: each is evaluated in a task
 *   of its own so that no single task holds the reader's main thread long;
 * - libraries: a package's index names all its modules, of which the bundle keeps only the used ones, so the
 *   import graph cannot tell which to take; they keep the bundler's own chunks;
 * - anything the reader loads lazily (menus, dialogs, the open player), which is reached only by dynamic imports.
 */
import path from 'node:path';

/** Module ids (absolute, as the bundler names them) are compared with this root's files. */
const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src') + path.sep;
const READER_ROUTE = path.join(ROOT, 'src/ui/screens/reader/ReaderRoute.tsx');
const ENGINE_STEPS = [
  'src/domain/levelSchema.ts',
  'src/domain/settings.ts',
  'src/machines/readerSystem/readerSystem.children.ts',
  'src/ui/engine/engine.ts',
].map((file) => path.join(ROOT, file));

const MAIN = path.join(ROOT, 'src/main.tsx');
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

/**
 * The reader's views: the reader route's static imports under src/, less the engine's steps and what any other
 * lazy screen imports statically (the catalog, the listen page…), which would otherwise load the reader's chunk.
 */
function readerViews(graph: ModuleGraph): Set<string> {
  const lazyRoots = new Set<string>();
  for (const id of closure(graph, [MAIN], { dynamic: true })) {
    for (const target of graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []) {
      // The reader's own lazy parts (menus, dialogs) share its views and load after it.
      if (target !== READER_ROUTE && !target.startsWith(READER_VIEWS)) lazyRoots.add(target);
    }
  }
  const elsewhere = closure(graph, [...lazyRoots]);
  const engine = closure(graph, ENGINE_STEPS);
  return new Set([...closure(graph, [READER_ROUTE])].filter((m) => m !== READER_ROUTE && m.startsWith(SRC) && !engine.has(m) && !elsewhere.has(m)));
}

/** The chunk name for a module of the reader's views, else null (the module is chunked as before). */
export function readerViewsChunk(): (id: string, graph: ModuleGraph) => string | null {
  let members: Set<string> | null = null;
  return (id, graph) => {
    members ??= readerViews(graph);
    return members.has(id) ? 'reader' : null;
  };
}
