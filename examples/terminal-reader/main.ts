/**
 * `npm run read -- <slug> [--api URL] [--language es] [--level GOLD] [--position 3] [--no-save]`
 *
 * The terminal reader: the same reader engine as the web app, with Node adapters at its ports and a plain-text
 * view. Exit codes: 0 after quitting, 1 when the API cannot be reached or the publication cannot be opened,
 * 2 for bad arguments.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { parseArgs } from 'node:util';
import { createApiClient } from '../../src/api/client';
import { createEngineApi } from '../../src/api/engineApi';
import { createReaderEngine, type ReaderEngine } from '../../src/engine/createReaderEngine';
import { createMemoryStorage, createSettingsStore } from '../../src/engine/settings';
import type { AnalyticsPort, LoggerPort, NavigationPort, StoragePort } from '../../src/engine/ports';
import { createSilentAudio, systemClock } from '../../src/adapters/common';
import { isLanguageCode, LANGUAGES } from '../../src/domain/languages';
import { isLevel, LEVELS, type Level } from '../../src/domain/levels';
import type { SessionRequest } from '../../src/machines/readingSession';
import { connectReadingSession } from '../../src/machines/readingSession';
import { createTerminalReader } from './reader';

const DEFAULT_API = 'http://127.0.0.1:3000';

const USAGE = `Usage: npm run read -- <slug> [options]

Read a Lectern publication in the terminal.

Options:
  --api <url>          Lectern server (default $LECTERN_API or ${DEFAULT_API})
  --language <code>    Start in this language (${LANGUAGES.map((l) => l.code).join(', ')})
  --level <level>      Start at this level (${LEVELS.join(', ')})
  --position <n>       Start at passage n
  --no-save            Do not read or write ~/.lectern-terminal.json (the last position per book)
  -h, --help           Show this help

Keys: ←/→ or p/n page · l language · v level · q quit`;

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** A StoragePort kept in one JSON file; unreadable or unwritable files degrade to memory. */
function createFileStorage(file: string): StoragePort {
  let data: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object') {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') data[k] = v;
    }
  } catch {
    data = {};
  }
  const save = () => {
    try {
      fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
    } catch {
      /* read-only home: the position lives for this run only */
    }
  };
  return {
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => {
      data[k] = String(v);
      save();
    },
    removeItem: (k) => {
      if (!(k in data)) return;
      delete data[k];
      save();
    },
  };
}

function recordingNavigation(start = '/'): NavigationPort & { history: string[] } {
  const history = [start];
  return {
    history,
    push: (p) => void history.push(p),
    replace: (p) => void (history[history.length - 1] = p),
    current: () => history[history.length - 1],
  };
}

const discardAnalytics: AnalyticsPort = { track: () => {} };

/** Resolves once the session has left 'loading' (reading or unavailable). */
function afterOpen(engine: ReaderEngine): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      const s = engine.getSnapshot().session;
      if (s.matches('loading')) return;
      off();
      resolve();
    };
    const off = engine.subscribe(check);
    check();
  });
}

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        api: { type: 'string' },
        language: { type: 'string' },
        level: { type: 'string' },
        position: { type: 'string' },
        'no-save': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const slug = positionals[0];
  if (!slug || positionals.length > 1) fail(USAGE, 2);

  const language = values.language?.toLowerCase();
  if (language !== undefined && !isLanguageCode(language)) fail(`Unknown language '${values.language}'.\n\n${USAGE}`, 2);
  const level = values.level?.toUpperCase();
  if (level !== undefined && !isLevel(level)) fail(`Unknown level '${values.level}'.\n\n${USAGE}`, 2);
  const position = values.position === undefined ? undefined : Number(values.position);
  if (position !== undefined && !(Number.isInteger(position) && position >= 1)) fail(`--position must be a whole number from 1.\n\n${USAGE}`, 2);

  const origin = (values.api ?? process.env.LECTERN_API ?? DEFAULT_API).replace(/\/+$/, '').replace(/\/api\/v1$/, '');

  // Ports: real HTTP, a settings file (or memory), the system clock, silent audio, no analytics.
  const stateFile = process.env.LECTERN_TERMINAL_STATE ?? path.join(os.homedir(), '.lectern-terminal.json');
  const storage = values['no-save'] ? createMemoryStorage() : createFileStorage(stateFile);
  const settings = createSettingsStore(storage);
  let clientId = settings.get('clientId');
  if (!clientId) {
    clientId = crypto.randomUUID();
    settings.set('clientId', clientId);
  }
  const api = createApiClient({ baseUrl: `${origin}/api/v1`, clientId: () => clientId });

  try {
    await api.ping({ signal: AbortSignal.timeout(5000) });
  } catch {
    fail(`Cannot reach the Lectern API at ${origin}; start it with npm start`, 1);
  }

  const problems: string[] = [];
  const logger: LoggerPort = {
    error: (message, details) => void problems.push(`${message}${details ? `: ${String(details)}` : ''}`),
    warn: () => {},
  };
  const engine = createReaderEngine({
    api: createEngineApi(api),
    storage,
    clock: systemClock,
    analytics: discardAnalytics,
    audio: createSilentAudio(systemClock),
    navigation: recordingNavigation(`/${slug}`),
    logger,
  });
  engine.start();

  const stdin = process.stdin;
  const raw = stdin.isTTY === true;
  if (raw) stdin.setRawMode(true);
  stdin.resume();

  const reader = createTerminalReader({ engine, input: stdin, output: process.stdout, clear: process.stdout.isTTY === true });
  const onSignal = () => reader.quit('interrupt');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const request: SessionRequest = { slug };
  if (language && level) request.primary = { language, level: level as Level };
  if (position !== undefined) request.position = position;
  const explicit = language !== undefined || level !== undefined || position !== undefined;
  engine.send({ type: 'reader.open', request, useStoredPosition: !explicit });

  // Only one of --language/--level: let the engine pick the closest edition once the book is known.
  if ((language && !level) || (level && !language)) {
    void afterOpen(engine).then(() => {
      const s = connectReadingSession(engine.getSnapshot().session, (e) => engine.getChild('session')?.send(e));
      if (!s.isReading || !s.publication) return;
      if (language) {
        if (s.publication.editions.some((e) => e.language.code === language)) s.changeLanguage('primary', language);
        else reader.notify(`This book has no ${LANGUAGES.find((l) => l.code === language)?.name ?? language} edition.`);
      } else if (level) {
        if (s.publication.editions.some((e) => e.level === level)) s.changeLevel('primary', level as Level);
        else reader.notify(`This book has no ${level} edition.`);
      }
    });
  }

  const result = await reader.done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (raw) stdin.setRawMode(false);
  stdin.pause();

  if (result.reason === 'unavailable' && result.error?.status === 0) {
    process.stderr.write(`Cannot reach the Lectern API at ${origin}; start it with npm start\n`);
  }
  if (process.env.LECTERN_DEBUG) for (const p of problems) process.stderr.write(`${p}\n`);
  return result.code;
}

const code = await main();
// Idle keep-alive sockets and prefetches would hold the process open for a while; leave once output is flushed.
process.stdout.write('', () => process.exit(code));
