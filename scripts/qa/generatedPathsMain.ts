/**
 * Runs the reader system's composed-path generation (tests/machines/readerSystem.generated.ts) and prints it as
 * JSON on its last line of output: the docs generator, which is synchronous, runs this in a child process
 * (generatedPaths.ts `runGeneration`).
 */
import { generatePaths } from '../../tests/machines/readerSystem.generated';

const generation = await generatePaths();
process.stdout.write(`\n${JSON.stringify(generation)}\n`);
