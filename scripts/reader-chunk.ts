/**
 * The reader's views in one chunk: everything the reader route imports statically that the entry does not already
 * carry, in one request and one gzip stream, instead of ~20 small chunks that each compress on their own.
 *
 * Left out of it, so they keep their own chunks:
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

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

function staticClosure(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of graph.getModuleInfo(id)?.importedIds ?? []) stack.push(next);
  }
  return seen;
}

/** The chunk name for a module of the reader's views, else null (the module is chunked as before). */
export function readerViewsChunk(): (id: string, graph: ModuleGraph) => string | null {
  let members: Set<string> | null = null;
  return (id, graph) => {
    if (members === null) {
      const engine = staticClosure(graph, ENGINE_STEPS);
      members = new Set([...staticClosure(graph, [READER_ROUTE])].filter((m) => m !== READER_ROUTE && !engine.has(m) && m.startsWith(SRC)));
    }
    return members.has(id) ? 'reader' : null;
  };
}
