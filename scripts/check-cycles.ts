/**
 * `npm run check:cycles`: finds import cycles between the files of src/ and server/.
 *
 * Every .ts/.tsx file is parsed with the TypeScript compiler (no type checking). Its relative module specifiers
 * count as edges: `import` (also `import type`), `export … from`, `import x = require(…)`, dynamic `import('…')`
 * and type-level `import('…').T`. A specifier resolves to the file itself, its `.ts`/`.tsx` form (`./a.js` →
 * `./a.ts`), or a folder's `index.ts`/`index.tsx`. Package imports and files outside the scanned folders are
 * ignored. Every strongly connected component of more than one file, or a file that imports itself, is a cycle.
 * Prints each cycle's files and one loop through them; exits 1 when there is any.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** File → the files it imports, every path relative to the root with forward slashes. */
export type ImportGraph = Map<string, Set<string>>;

export interface Cycle {
  /** The files of the strongly connected component, sorted. */
  files: string[];
  /** One loop through the component, starting and ending at its first file. */
  loop: string[];
}

const SOURCE = /\.tsx?$/;

function listSources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...listSources(full));
    } else if (entry.isFile() && SOURCE.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** The module specifiers a file names, in the order they appear. */
export function moduleSpecifiers(fileName: string, text: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const take = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      take(node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      take(node.moduleReference.expression);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      take(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      take(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The scanned file a relative specifier names, or null (a package, or a file outside the scan). */
export function resolveSpecifier(fromFile: string, specifier: string, files: Set<string>): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..') {
    return null;
  }
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${base}.ts`,
    `${base}.tsx`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((candidate) => files.has(candidate)) ?? null;
}

/** The import graph of every .ts/.tsx file under the given folders (relative to root). */
export function buildImportGraph(root: string, dirs: string[]): ImportGraph {
  const absolute = dirs.flatMap((dir) => listSources(path.join(root, dir)));
  const relative = absolute.map((file) => path.relative(root, file).split(path.sep).join('/'));
  return graphFromSources(new Map(relative.map((file, i) => [file, fs.readFileSync(absolute[i], 'utf8')])));
}

/** The import graph of in-memory sources: file path (forward slashes) → text. */
export function graphFromSources(sources: Map<string, string>): ImportGraph {
  const files = new Set(sources.keys());
  const graph: ImportGraph = new Map();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const specifier of moduleSpecifiers(file, text)) {
      const target = resolveSpecifier(file, specifier, files);
      if (target) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components, without recursion. */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; targets: string[]; at: number }> = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(graph.get(node) ?? [])].sort(), at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++];
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** A shortest loop from the component's first file back to it, through the component only. */
function loopThrough(graph: ImportGraph, files: string[]): string[] {
  const inside = new Set(files);
  const first = files[0];
  const previous = new Map<string, string>();
  const queue = [first];
  for (let i = 0; i < queue.length; i += 1) {
    const node = queue[i];
    for (const target of [...(graph.get(node) ?? [])].sort()) {
      if (!inside.has(target)) continue;
      if (target === first) {
        const loop = [first];
        for (let at: string | undefined = node; at !== undefined && at !== first; at = previous.get(at)) {
          loop.unshift(at);
        }
        loop.unshift(first);
        return loop;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first];
}

/** Every cycle of a graph, sorted by its first file. */
export function cyclesOf(graph: ImportGraph): Cycle[] {
  return stronglyConnected(graph)
    .filter((files) => files.length > 1 || graph.get(files[0])?.has(files[0]))
    .map((files) => ({ files, loop: loopThrough(graph, files) }))
    .sort((a, b) => a.files[0].localeCompare(b.files[0]));
}

/** Every import cycle among the .ts/.tsx files under the given folders (relative to root). */
export function findCycles(root: string, dirs: string[]): Cycle[] {
  return cyclesOf(buildImportGraph(root, dirs));
}

function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const dirs = ['src', 'server'];
  const cycles = findCycles(root, dirs);
  if (cycles.length === 0) {
    console.log(`No import cycles in ${dirs.join(', ')}.`);
    return;
  }
  console.log(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} in ${dirs.join(', ')}:`);
  cycles.forEach((cycle, i) => {
    console.log(`\n${i + 1}. ${cycle.files.length} file${cycle.files.length === 1 ? '' : 's'}:`);
    for (const file of cycle.files) console.log(`   ${file}`);
    console.log(`   loop: ${cycle.loop.join(' → ')}`);
  });
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
