/**
 * `npm run admin -- export epub`: through the command table (runAdmin) with the server's database, as the admin
 * socket runs it; narration is made by the command into DATA_DIR/audio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, runAdmin } from '../../server/admin/commands';
import type { RunningServer } from '../../server/server';
import { startFixtureServer, withEnv, writeFixtureLibrary } from './harness';

let server: RunningServer;
let cwd: string;
let dataDir: string;

beforeAll(async () => {
  server = await startFixtureServer({ contentDir: writeFixtureLibrary(0) });
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-epub-cwd-'));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-epub-data-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await withEnv({ DATA_DIR: dataDir }, () =>
    runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), contentDir: '.', cwd, database: server.database }),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run admin -- export epub', () => {
  it("writes the title's first edition to <slug>.<lang>.<LEVEL>.epub in the current folder, narrated", async () => {
    const run = await admin('export', 'epub', 'alpha-owls');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Wrote alpha-owls\.en\.ORIGINAL\.epub \(\d+ bytes\): 2 section\(s\), 3 of 3 passage\(s\) narrated \(0:\d\d of audio\)\.$/);
    const files = unzipSync(fs.readFileSync(path.join(cwd, 'alpha-owls.en.ORIGINAL.epub')));
    expect(Object.keys(files)[0]).toBe('mimetype');
    expect(Object.keys(files).filter((f) => f.endsWith('.smil'))).toEqual(['EPUB/smil/section-001.smil', 'EPUB/smil/section-002.smil']);
    expect(Object.keys(files).filter((f) => f.endsWith('.mp3'))).toHaveLength(3);
    expect(new TextDecoder().decode(files['EPUB/package.opf'])).toContain('<dc:title>Alpha Owls at Night</dc:title>');
  }, 120_000);

  it('writes the edition --edition names to --out, right to left for Arabic', async () => {
    const run = await admin('export', 'epub', 'alpha-owls', '--edition', 'ar:original', '--out', 'owls-ar.epub');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^Wrote owls-ar\.epub \(\d+ bytes\): 2 section\(s\), 3 of 3 passage\(s\) narrated/);
    const files = unzipSync(fs.readFileSync(path.join(cwd, 'owls-ar.epub')));
    const opf = new TextDecoder().decode(files['EPUB/package.opf']);
    expect(opf).toContain('<spine page-progression-direction="rtl">');
    expect(new TextDecoder().decode(files['EPUB/text/section-001.xhtml'])).toContain('xml:lang="ar" lang="ar" dir="rtl"');
  }, 120_000);

  it('reports an unknown title, a malformed or missing edition in one line with exit code 1', async () => {
    expect(await admin('export', 'epub', 'no-such-title')).toEqual({ code: 1, out: '', err: "error: No title 'no-such-title' in the library (npm run content:import loads content/)." });
    expect(await admin('export', 'epub', 'alpha-owls', '--edition', 'english')).toEqual({
      code: 1,
      out: '',
      err: "error: --edition takes <language>:<LEVEL>, such as en:ORIGINAL or es:GOLD, not 'english'.",
    });
    const missing = await admin('export', 'epub', 'alpha-owls', '--edition', 'ru:GOLD');
    expect(missing.code).toBe(1);
    expect(missing.err).toBe("error: 'alpha-owls' has no edition ru:GOLD; it has en:GOLD, en:ORIGINAL, es:ORIGINAL, ar:ORIGINAL.");
  });

  it('prints its usage for a missing slug (exit 2) and for --help', async () => {
    const none = await admin('export', 'epub');
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: npm run admin -- export epub <slug> [--edition en:ORIGINAL] [--out file] [--out-dir dir]');
    const help = await admin('export', 'epub', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--edition L:LEVEL');
  });

  it("sends a running server absolute paths, since the server's folder is not the caller's", () => {
    const command = COMMANDS.export!.epub!;
    expect(command.database).toBe(true);
    expect(command.remoteArgv!(['export', 'epub', 'alpha-owls', '--out', 'b.epub'], { cwd: '/home/ada' } as never)).toEqual([
      'export',
      'epub',
      'alpha-owls',
      '--out',
      '/home/ada/b.epub',
      '--out-dir',
      '/home/ada',
    ]);
    expect(command.remoteArgv!(['export', 'epub', 'alpha-owls', '--edition', 'es:GOLD'], { cwd: '/home/ada' } as never)).toEqual([
      'export',
      'epub',
      'alpha-owls',
      '--edition',
      'es:GOLD',
      '--out-dir',
      '/home/ada',
    ]);
  });
});
