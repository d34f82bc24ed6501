/**
 * `npm run content:import -- [dir]`: validates a library folder and imports or updates it, with a progress
 * bar and a summary. Exits non-zero, having loaded nothing, when any file has a problem.
 */
import path from 'node:path';
import cliProgress from 'cli-progress';
import { exitDataDirLocked, exitIfServerHoldsDatabase, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { readLibrary } from '../content/read';
import { importLibrary } from '../content/import';
import { formatProblems } from '../server';

const config = loadConfig();
const dir = path.resolve(process.argv[2] ?? config.contentDir);

exitIfServerHoldsDatabase(config, 'npm start also imports content/ when it starts');

const tty = process.stdout.isTTY;
const bar = new cliProgress.SingleBar(
  { format: '{phase} [{bar}] {value}/{total} {name}', hideCursor: true, noTTYOutput: !tty, notTTYSchedule: 1000 },
  cliProgress.Presets.shades_classic,
);

console.log(`Reading ${dir}`);
bar.start(1, 0, { phase: 'Checking ', name: '' });
const library = readLibrary(dir, (done, total, name) => {
  bar.setTotal(total);
  bar.update(done, { name });
});
bar.stop();

for (const w of library.warnings) console.warn(`warning: ${w.file}:${w.line}  ${w.reason}`);
if (library.problems.length) {
  console.error(`\n${library.problems.length} problem(s) found; nothing was imported:\n${formatProblems(library.problems)}`);
  process.exit(1);
}

const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, lockPurpose: 'content:import' }).catch((error) =>
  exitDataDirLocked(error, 'npm start also imports content/ when it starts'),
);
try {
  bar.start(library.publications.length, 0, { phase: 'Importing', name: '' });
  const summary = await importLibrary(database, library.publications, (done, _total, slug) => bar.update(done, { name: slug }));
  bar.stop();
  const editionCount = library.publications.reduce((n, p) => n + p.editions.length, 0);
  console.log(
    `\nImported ${library.publications.length} publications, ${editionCount} editions, ${summary.passages} passages into ${database.kind === 'pglite' ? config.dataDir : 'PostgreSQL'}:\n` +
      `  added:     ${summary.added.length}${summary.added.length ? `  (${summary.added.join(', ')})` : ''}\n` +
      `  updated:   ${summary.updated.length}${summary.updated.length ? `  (${summary.updated.join(', ')})` : ''}\n` +
      `  unchanged: ${summary.unchanged.length}`,
  );
} finally {
  await database.close();
}
