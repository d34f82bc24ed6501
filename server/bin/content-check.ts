/**
 * `npm run content:check -- [dir] [--titles-only] [--markdown | --write <path>]`: checks the library against the
 * editorial rules (server/content/check.ts) and prints a table of titles, the findings and a summary.
 * Exits 1 when a hard rule fails or a file does not parse, 2 on a usage error.
 *
 *   --titles-only   check each title only, not the library totals (titles, languages, illustrated, premium)
 *   --markdown      also write docs/library.md
 *   --write <path>  also write the Markdown to <path>
 */
import fs from 'node:fs';
import path from 'node:path';
import { readLibrary } from '../content/read';
import { checkContent, formatReport, libraryMarkdown } from '../content/check';

const ROOT = path.resolve(import.meta.dirname, '../..');
const USAGE = 'Usage: npm run content:check -- [content-dir] [--titles-only] [--markdown | --write <path>]';

let dir = path.join(ROOT, 'content');
let titlesOnly = false;
let writeTo: string | null = null;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--titles-only') titlesOnly = true;
  else if (arg === '--markdown') writeTo = path.join(ROOT, 'docs/library.md');
  else if (arg === '--write') {
    const next = args[++i];
    if (!next || next.startsWith('--')) {
      console.error(`--write needs a path\n${USAGE}`);
      process.exit(2);
    }
    writeTo = path.resolve(next);
  } else if (arg === '--help' || arg === '-h') {
    console.log(USAGE);
    process.exit(0);
  } else if (arg.startsWith('--')) {
    console.error(`Unknown option ${arg}\n${USAGE}`);
    process.exit(2);
  } else dir = path.resolve(arg);
}

const library = readLibrary(dir);
const report = checkContent(library.publications, { coverage: !titlesOnly });
console.log(`Checking ${dir}\n`);
console.log(formatReport(report));
if (library.problems.length) {
  console.error(`\n${library.problems.length} file problem(s); those titles were not checked:`);
  for (const p of library.problems) console.error(`  ${p.file}:${p.line}  ${p.reason}`);
}
if (writeTo) {
  fs.writeFileSync(writeTo, libraryMarkdown(report));
  console.log(`\nWrote ${path.relative(process.cwd(), writeTo) || writeTo}`);
}
process.exit(report.errors > 0 || library.problems.length > 0 ? 1 : 0);
