/**
 * The terminal reader: a second front end on the same reader engine, with no React and no DOM. It runs against
 * the real API server (in-process, on PGlite) and is judged by what it prints.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { createEngineApi } from '../../src/api/engineApi';
import { createReaderEngine, type ReaderEngine } from '../../src/engine/createReaderEngine';
import { createMemoryStorage } from '../../src/engine/settings';
import { createMemoryAnalytics, createSilentAudio, systemClock } from '../../src/adapters/common';
import type { SessionRequest } from '../../src/machines/readingSession';
import type { RunningServer } from '../../server/server';
import { startFixtureServer } from '../server/harness';
import { LICENSE_REQUIRED_MESSAGE } from '../../src/domain/access';
import { createTerminalReader, HELP_LINE, parseKeys, wrap } from '../../examples/terminal-reader/reader';

const ROOT = path.resolve(import.meta.dirname, '../..');

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** A Writable that keeps every frame written, and tells waiters about each one. */
function screenOutput() {
  const frames: string[] = [];
  const waiters = new Set<() => void>();
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      frames.push(String(chunk));
      for (const w of [...waiters]) w();
      callback();
    },
  });
  const last = () => frames[frames.length - 1] ?? '';
  /** Resolve once the latest frame passes the check. */
  const until = (check: (frame: string) => boolean, ms = 5000) =>
    new Promise<string>((resolve, reject) => {
      const test = () => {
        if (!check(last())) return;
        waiters.delete(test);
        clearTimeout(timer);
        resolve(last());
      };
      const timer = setTimeout(() => {
        waiters.delete(test);
        reject(new Error(`timed out; the screen shows:\n${last()}`));
      }, ms);
      waiters.add(test);
      test();
    });
  const showing = (...texts: string[]) => until((f) => texts.every((t) => f.includes(t)));
  return { stream, frames, last, until, showing };
}

function startReader(request: SessionRequest, options: { columns?: number } = {}) {
  const api = createApiClient({ baseUrl: `${server.url}/api/v1`, clientId: () => 'terminal-reader-test' });
  const engine: ReaderEngine = createReaderEngine({
    api: createEngineApi(api),
    storage: createMemoryStorage(),
    clock: systemClock,
    analytics: createMemoryAnalytics(),
    audio: createSilentAudio(systemClock),
  });
  engine.start();
  const input = new PassThrough();
  const output = screenOutput();
  const reader = createTerminalReader({ engine, input, output: output.stream, columns: options.columns, clear: false, quitOnInputEnd: false });
  engine.send({ type: 'reader.open', request });
  return { engine, input, output, reader };
}

const tick = () => new Promise((r) => setTimeout(r, 50));

describe('the terminal reader on the reader engine', () => {
  it('shows the book, pages with arrows and p/n, cycles language and level, and quits on q', async () => {
    const { engine, input, output, reader } = startReader({ slug: 'alpha-owls', version: 'v1' });
    expect(output.frames[0]).toContain('Loading…');

    let frame = await output.showing('Owls hunt at night with silent wings.');
    expect(frame).toContain('Alpha Owls at Night — Zora Quill');
    expect(frame).toContain('English · ORIGINAL · passage 1 of 3');
    expect(frame).toContain('Part One // Chapter 1');
    expect(frame).toContain(HELP_LINE);
    expect(frame).not.toContain('<p>');

    input.write('\x1b[C');
    frame = await output.showing('They see well in the dark.');
    expect(frame).toContain('passage 2 of 3');

    input.write('p');
    frame = await output.showing('Owls hunt at night with silent wings.');
    expect(frame).toContain('passage 1 of 3');

    // Nothing changes on screen (already at the first passage): nothing is drawn again.
    const drawn = output.frames.length;
    input.write('\x1b[D');
    await tick();
    expect(output.frames.length).toBe(drawn);

    input.write('l');
    frame = await output.showing('Los búhos cazan de noche.');
    expect(frame).toContain('Spanish · ORIGINAL · passage 1 of 3');
    expect(frame).not.toContain('(RTL)');

    // Spanish has one level only: the reader says so instead of switching language behind the reader's back.
    input.write('v');
    frame = await output.showing('Spanish has only the ORIGINAL level.');
    expect(frame).toContain('Los búhos cazan de noche.');

    input.write('l');
    frame = await output.showing('تصطاد البوم ليلًا.');
    expect(frame).toMatch(/Arabic · ORIGINAL · passage 1 of 3 .*\(RTL\)/);

    input.write('l');
    await output.showing('English · ORIGINAL', 'Owls hunt at night with silent wings.');

    // GOLD is not in the free tier (src/domain/access.ts): the server sends no text, and the reader says why.
    input.write('v');
    frame = await output.showing('English · GOLD · passage 1 of 3', LICENSE_REQUIRED_MESSAGE);
    expect(frame).not.toContain('Owls hunt at night.');
    expect(frame).not.toContain('silent wings');

    input.write('q');
    await expect(reader.done).resolves.toEqual({ code: 0, reason: 'quit' });
    // The engine is stopped with the reader.
    await reader.stopped;
    expect(() => engine.getSnapshot()).toThrow(/engine.start\(\)/);
  });

  it('handles keys typed ahead one at a time, each after the previous screen is shown', async () => {
    const { input, output, reader } = startReader({ slug: 'alpha-owls', version: 'v1' });
    input.write('nnq');
    await expect(reader.done).resolves.toEqual({ code: 0, reason: 'quit' });
    const all = output.frames.join('\n');
    expect(all).toContain('They see well in the dark.');
    expect(output.last()).toContain('Morning comes and owls sleep.');
    expect(output.last()).toContain('passage 3 of 3 · Part One // Chapter 2');
  });

  it('quits on Ctrl-C at once', async () => {
    const { input, reader } = startReader({ slug: 'alpha-owls', version: 'v1' });
    input.write('\x03');
    await expect(reader.done).resolves.toEqual({ code: 0, reason: 'interrupt' });
    // The engine stops once the requests in flight have answered; nothing may throw or warn meanwhile.
    await reader.stopped;
    await tick();
  });

  it('wraps the passage text to the width', async () => {
    const { output, reader } = startReader({ slug: 'alpha-owls', version: 'v1' }, { columns: 16 });
    const frame = await output.showing('Owls hunt at');
    const lines = frame.trimEnd().split('\n');
    const start = lines.indexOf('Owls hunt at');
    expect(lines.slice(start, start + 3)).toEqual(['Owls hunt at', 'night with', 'silent wings.']);
    // Header lines wrap as well; only the fixed help line may be wider.
    for (const line of lines.filter((l) => l !== HELP_LINE)) expect([...line].length).toBeLessThanOrEqual(16);
    reader.quit();
  });

  it("shows 'Publication not found' and ends with code 1 for a book that does not exist", async () => {
    const { output, reader } = startReader({ slug: 'no-such-book' });
    await expect(reader.done).resolves.toEqual({ code: 1, reason: 'unavailable', error: { status: 404, message: 'Publication not found' } });
    expect(output.last()).toContain('Publication not found');
  });

  it("shows 'Passage not found' for an edition that does not exist", async () => {
    const { output, reader } = startReader({ slug: 'alpha-owls', primary: { language: 'ru', level: 'GOLD' } });
    const frame = await output.showing('Passage not found');
    expect(frame).toContain('Russian · GOLD');
    reader.quit();
  });
});

describe('key and text helpers', () => {
  it('reads arrows, letters and Ctrl-C from raw bytes', () => {
    expect(parseKeys('\x1b[Cn\x1b[Dp\x1bOClvq\x03x\x1b[A')).toEqual(['next', 'next', 'previous', 'previous', 'next', 'language', 'level', 'quit', 'interrupt']);
  });

  it('wraps on word boundaries and cuts words longer than the width', () => {
    expect(wrap('a bb ccc dddd', 10)).toEqual(['a bb ccc', 'dddd']);
    expect(wrap('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

// ---- the CLI, as a child process ----

function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const state = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-terminal-')), 'state.json');
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/terminal-reader/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, LECTERN_TERMINAL_STATE: state, LECTERN_API: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d) => {
    stdout += String(d);
    for (const w of [...waiters]) w();
  });
  child.stderr.on('data', (d) => void (stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stdoutShows = (text: string, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const test = () => {
        if (!stdout.includes(text)) return;
        waiters.delete(test);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(test);
        child.kill();
        reject(new Error(`timed out waiting for '${text}'; stdout:\n${stdout}\nstderr:\n${stderr}`));
      }, ms);
      waiters.add(test);
      test();
    });
  return { child, exited, stdoutShows, stdout: () => stdout, stderr: () => stderr, state };
}

describe('npm run read (the CLI)', () => {
  it('reads a book from the API, pages on n and exits 0 on q', async () => {
    const cli = runCli(['alpha-owls', '--api', server.url]);
    await cli.stdoutShows('Owls hunt at night with silent wings.');
    cli.child.stdin.write('n');
    await cli.stdoutShows('They see well in the dark.');
    cli.child.stdin.write('q');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('passage 2 of 3');
    expect(cli.stdout()).not.toContain('\x1b[2J');
    // The position is remembered for the next run.
    expect(JSON.parse(JSON.parse(fs.readFileSync(cli.state, 'utf8'))['lectern.v1.lastPassages'])['alpha-owls']).toMatchObject({ position: 2 });
  }, 30_000);

  it('prints the usage and exits 2 without a slug', async () => {
    const cli = runCli([]);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('Usage: npm run read -- <slug>');
  }, 30_000);

  it('exits 1 with a clear message when the API cannot be reached', async () => {
    const cli = runCli(['alpha-owls', '--api', 'http://127.0.0.1:9']);
    cli.child.stdin.end();
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('Cannot reach the Lectern API at http://127.0.0.1:9; start it with npm start');
  }, 30_000);

  it("exits 1 with 'Publication not found' for a book that does not exist", async () => {
    const cli = runCli(['no-such-book', '--api', server.url]);
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toContain('Publication not found');
  }, 30_000);
});
