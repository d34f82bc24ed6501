/** Reads a library folder from disk into the parser's in-memory form. */
import fs from 'node:fs';
import path from 'node:path';
import { checkLibrary, parsePublication, type ParsedPublication, type Problem } from './parse';

export interface LibraryReadResult {
  publications: ParsedPublication[];
  problems: Problem[];
  warnings: Problem[];
}

function listFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, relPath));
    else if (entry.isFile()) out.push(relPath);
  }
  return out;
}

/**
 * Folders of the content directory that are not titles: `legal` holds the Terms of Service and Privacy Policy
 * (Markdown the app bundles, src/ui/screens/misc/LegalScreen.tsx).
 */
export const NOT_TITLES: ReadonlySet<string> = new Set(['legal']);

export function readLibrary(contentDir: string, onProgress?: (done: number, total: number, dir: string) => void): LibraryReadResult {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const publications: ParsedPublication[] = [];
  if (!fs.existsSync(contentDir) || !fs.statSync(contentDir).isDirectory()) {
    return { publications, problems: [{ file: contentDir, line: 1, reason: 'The content folder does not exist' }], warnings };
  }
  const dirs = fs
    .readdirSync(contentDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !NOT_TITLES.has(d.name))
    .map((d) => d.name)
    .sort();
  dirs.forEach((dir, i) => {
    const files = new Map<string, Uint8Array>();
    for (const rel of listFiles(path.join(contentDir, dir))) files.set(rel, fs.readFileSync(path.join(contentDir, dir, rel)));
    const result = parsePublication(dir, files);
    problems.push(...result.problems);
    warnings.push(...result.warnings);
    if (result.value) publications.push(result.value);
    onProgress?.(i + 1, dirs.length, dir);
  });
  problems.push(...checkLibrary(publications));
  return { publications, problems, warnings };
}
