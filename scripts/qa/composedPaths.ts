/**
 * docs/qa/readerSystem.composed.md: the reader system's composed paths as a QA script. First the hand-written ones
 * (tests/machines/readerSystem.paths.ts), one section per path with its numbered steps and what each should show,
 * run on the engine by tests/machines/readerSystem.composed.test.ts; then the generated ones (generatedPaths.ts),
 * replayed by tests/machines/readerSystem.generated.test.ts. What this page says is what the tests check.
 */
import { COMPOSED_PATHS, type ComposedPath } from '../../tests/machines/readerSystem.paths';
import type { Generation } from '../../tests/machines/readerSystem.generated';
import { generatedPathsSection } from './generatedPaths';

/** Where `npm run qa:paths` writes the page. */
export const COMPOSED_PATHS_FILE = 'docs/qa/readerSystem.composed.md';

/** The machine whose composed paths the page lists. */
const COMPOSED_MACHINE = 'readerSystem';

/** The link to the page from the machines' index (docs/machines/README.md), on the reader system's line only. */
export const composedPathsLink = (machine: string) => (machine === COMPOSED_MACHINE ? `, composed paths: [../qa/readerSystem.composed.md](../qa/readerSystem.composed.md)` : '');

export function composedPathsDoc(generation: Generation, paths: readonly ComposedPath[] = COMPOSED_PATHS): string {
  const lines = [
    '# QA paths: readerSystem, composed',
    '',
    'Generated from `tests/machines/readerSystem.paths.ts` and `tests/machines/readerSystem.generated.ts` by `npm run qa:paths`. Do not edit by hand.',
    '',
    'What a reader does across the reader system and its children (the reading session, the columns, the player,',
    'highlight and decode, access and the class code, the toasts, the word audio), step by step, with what each step',
    'should show. `tests/machines/readerSystem.composed.test.ts` runs every path on the engine with its real',
    'children, fakes only at the ports (`tests/support/composedSystem.ts`) and a simulated clock, and checks every step.',
    '',
    'The title is *Night Owls*: English Original (free, narrated, highlight and decode), English Gold (a School',
    'License opens it), Spanish Original (free to read, its narration needs a license), English Silver (the',
    "class's edition: a class code opens it), and no Chinese edition until one is asked for. Each passage's",
    'narration says one word a second. Time passes only where a step says so.',
    '',
    `Hand-written paths: ${paths.length}. Generated paths: ${generation.paths.length} (below, under 'Generated paths').`,
    '',
    '## Hand-written paths',
    '',
  ];
  paths.forEach((path, p) => {
    lines.push(`### ${p + 1}. ${path.name}`, '', `Start: ${path.given}`, '');
    path.steps.forEach((step, s) => lines.push(`${s + 1}. ${step.say}`, `   - Expect: ${step.expectSay}`));
    lines.push('');
  });
  lines.push(...generatedPathsSection(generation));
  return lines.join('\n');
}
