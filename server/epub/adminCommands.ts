/**
 * `npm run admin -- export epub <slug> [--edition en:ORIGINAL] [--out file] [--out-dir dir]`: write an edition as
 * the EPUB the API serves (./build.ts), narrating what is missing on the way. An admin's command: no reader gate
 * applies. It opens the database (or runs on the server that holds it, through the admin socket), reads the
 * library from it, and narrates with a narration service of its own over the same queue and audio store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { isLanguageCode } from '../../src/domain/languages';
import { LEVELS, type Level } from '../../src/domain/levels';
import { AdminError, type AdminCommand, type AdminIo } from '../cli/command';
import { loadConfig } from '../config';
import { ContentStore } from '../content/store';
import { audioStoreFromEnv } from '../narration/audioStore';
import { NarrationService, narrationSettings } from '../narration/queue';
import { withDatabase } from '../users/adminCommands';
import { buildEpub } from './build';
import { epubFileName, epubSource, findEdition, NarrationPendingError } from './source';

const OPTIONS = { edition: { type: 'string' }, out: { type: 'string' }, 'out-dir': { type: 'string' } } as const;

/** How long the command waits for narration it makes. @default 30 minutes */
const NARRATION_DEADLINE_MS = 30 * 60_000;

/** `en:ORIGINAL` (any case of level) → its parts, or an AdminError. */
function editionOption(value: string): { language: string; level: Level } {
  const [language = '', level = ''] = value.split(':');
  const upper = level.toUpperCase() as Level;
  if (!isLanguageCode(language) || !LEVELS.includes(upper)) {
    throw new AdminError(`--edition takes <language>:<LEVEL>, such as en:ORIGINAL or es:GOLD, not '${value}'.`);
  }
  return { language, level: upper };
}

/** On a running server the files are written by its process, whose folder differs: paths go as absolute ones. */
function remoteArgv(argv: string[], io: AdminIo): string[] {
  const [group, name, ...rest] = argv;
  const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: false });
  const out: string[] = [...positionals];
  if (typeof values.edition === 'string') out.push('--edition', values.edition);
  if (typeof values.out === 'string') out.push('--out', path.resolve(io.cwd, values.out));
  out.push('--out-dir', path.resolve(io.cwd, typeof values['out-dir'] === 'string' ? values['out-dir'] : '.'));
  return [group!, name!, ...out];
}

const exportEpub: AdminCommand = {
  summary: 'write an edition as an EPUB 3 with media overlays, narrating any passage not narrated yet',
  usage: '<slug> [--edition en:ORIGINAL] [--out file] [--out-dir dir]',
  details: [
    "<slug>             the title's folder name in content/",
    "--edition L:LEVEL  the edition (default: the title's first, the left edition of its default reader)",
    '--out file         where to write (default: <slug>.<lang>.<LEVEL>.epub in --out-dir)',
    '--out-dir dir      the folder of the default file name (default: the current folder)',
    'Passages without narration are narrated first (as a reader asking for them would), which takes a while. See docs/epub.md.',
  ],
  options: OPTIONS,
  database: true,
  remoteArgv,
  async run({ positionals, values }, io) {
    const slug = positionals[0]!;
    const wanted = typeof values.edition === 'string' ? editionOption(values.edition) : null;
    return withDatabase(io, async (database) => {
      const store = new ContentStore(database);
      const narration = new NarrationService({
        database,
        store,
        audio: await audioStoreFromEnv(process.env, path.join(loadConfig().dataDir, 'audio')),
        logger: pino({ level: 'warn' }),
        settings: narrationSettings(process.env, true, { concurrency: 0 }),
      });
      try {
        // The editions' audio flags, as a starting server sets them (a database just imported has none yet).
        await narration.prepare();
        const publication = await store.publication(slug);
        if (!publication) throw new AdminError(`No title '${slug}' in the library (npm run content:import loads content/).`);
        const ref = wanted ?? publication.value.defaultReader.left;
        const found = isLanguageCode(ref.language) ? await findEdition(store, { slug, language: ref.language, level: ref.level }) : ({ kind: 'no-edition' } as const);
        if (found.kind !== 'found') {
          const have = publication.value.editions.map((e) => `${e.language.code}:${e.level}`).join(', ');
          throw new AdminError(`'${slug}' has no edition ${ref.language}:${ref.level}; it has ${have}.`);
        }
        const source = await epubSource(found, { store, narration, mode: 'make', deadline: Date.now() + NARRATION_DEADLINE_MS }).catch((error: unknown) => {
          if (error instanceof NarrationPendingError) throw new AdminError(error.message);
          throw error;
        });
        const book = buildEpub(source);
        const dir = path.resolve(io.cwd, typeof values['out-dir'] === 'string' ? values['out-dir'] : '.');
        const file = typeof values.out === 'string' ? path.resolve(io.cwd, values.out) : path.join(dir, epubFileName(slug, ref.language, ref.level));
        fs.writeFileSync(file, book.bytes);
        const minutes = Math.floor(book.durationMs / 60_000);
        const seconds = String(Math.floor((book.durationMs % 60_000) / 1000)).padStart(2, '0');
        io.out(
          `Wrote ${path.relative(io.cwd, file) || file} (${book.bytes.length} bytes): ${book.sections} section(s), ` +
            `${book.narratedPassages} of ${source.passages.length} passage(s) narrated (${minutes}:${seconds} of audio).`,
        );
        return 0;
      } finally {
        await narration.stop();
      }
    });
  },
};

/** `export epub`. */
export const EXPORT_COMMANDS: Record<string, Record<string, AdminCommand>> = { export: { epub: exportEpub } };
