/**
 * `npm run machine:metrics`: the shape of every machine in src/machines, as docs/architecture.md states its rule.
 *
 * A machine is its `<name>.machine.ts` with any `<name>.actions.ts` or `<name>.guards.ts` beside it (pure
 * `.rules.ts`, `.connect.ts` and `.types.ts` files do not count). For each it counts
 * - lines;
 * - `target:` transitions;
 * - code branches: `if (`, a conditional `? :`, `&&`, `||` and `??`, with comments and strings left out.
 * The rule: at most MAX_MACHINE_LINES lines, and a machine over SMALL_MACHINE_LINES lines has at least as many
 * targets as branches. Prints a table; exits 1 when a machine breaks the rule.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const MAX_MACHINE_LINES = 250;
export const SMALL_MACHINE_LINES = 80;

export interface MachineMetrics {
  name: string;
  files: string[];
  lines: number;
  targets: number;
  branches: number;
}

/** Targets and branches of one file's code, read with the TypeScript scanner so comments and strings never count. */
export function countShape(source: string): { targets: number; branches: number } {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, /* skipTrivia */ true, ts.LanguageVariant.JSX, source);
  let targets = 0;
  let branches = 0;
  let previous: ts.SyntaxKind | null = null;
  let previousText = '';
  // Open braces inside each `${…}` of the template literals being read: a `}` at depth 0 closes the substitution.
  const templates: number[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const text = scanner.getTokenText();
    if (kind === ts.SyntaxKind.TemplateHead) templates.push(0);
    else if (kind === ts.SyntaxKind.OpenBraceToken && templates.length) templates[templates.length - 1]!++;
    else if (kind === ts.SyntaxKind.CloseBraceToken && templates.length) {
      if (templates[templates.length - 1] === 0) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templates.pop();
      } else templates[templates.length - 1]!--;
    }
    if (kind === ts.SyntaxKind.ColonToken && previous === ts.SyntaxKind.Identifier && previousText === 'target') targets++;
    if (kind === ts.SyntaxKind.OpenParenToken && previous === ts.SyntaxKind.IfKeyword) branches++;
    if (kind === ts.SyntaxKind.QuestionToken) branches++;
    if (kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken || kind === ts.SyntaxKind.QuestionQuestionToken) branches++;
    previous = kind;
    previousText = text;
  }
  return { targets, branches };
}

function machinesIn(root: string): MachineMetrics[] {
  const out: MachineMetrics[] = [];
  for (const dir of fs.readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const folder = path.join(root, dir.name);
    for (const file of fs.readdirSync(folder)) {
      const match = /^(.+)\.machine\.ts$/.exec(file);
      if (!match) continue;
      const name = match[1]!;
      const files = [`${name}.machine.ts`, `${name}.actions.ts`, `${name}.guards.ts`].map((f) => path.join(folder, f)).filter((f) => fs.existsSync(f));
      let lines = 0;
      let targets = 0;
      let branches = 0;
      for (const f of files) {
        const source = fs.readFileSync(f, 'utf8');
        lines += source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
        const shape = countShape(source);
        targets += shape.targets;
        branches += shape.branches;
      }
      out.push({ name, files: files.map((f) => path.relative(path.dirname(root), f)), lines, targets, branches });
    }
  }
  return out.sort((a, b) => b.lines - a.lines);
}

/** What is wrong with a machine's shape, or null. */
export function shapeProblem(m: MachineMetrics): string | null {
  if (m.lines > MAX_MACHINE_LINES) return `${m.lines} lines (at most ${MAX_MACHINE_LINES})`;
  if (m.lines > SMALL_MACHINE_LINES && m.targets < m.branches) return `${m.targets} targets against ${m.branches} branches`;
  return null;
}

export function machineMetrics(repoRoot: string): MachineMetrics[] {
  return machinesIn(path.join(repoRoot, 'src', 'machines'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const all = machineMetrics(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
  let bad = 0;
  for (const m of all) {
    const problem = shapeProblem(m);
    if (problem) bad++;
    console.log(`${m.name.padEnd(22)} ${String(m.lines).padStart(4)} lines ${String(m.targets).padStart(4)} targets ${String(m.branches).padStart(4)} branches${problem ? `   ✗ ${problem}` : ''}`);
  }
  process.exitCode = bad ? 1 : 0;
}
