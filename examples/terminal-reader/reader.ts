/**
 * A terminal front end for the reader engine: no React, no DOM. It draws the engine's snapshot as plain text
 * on a Writable and turns key bytes from a Readable into engine events. Everything it knows about reading
 * (positions, editions, loading and error states) comes from the engine and the machines' connect functions.
 */
import type { Readable, Writable } from 'node:stream';
import type { ReaderEngine, ReaderEngineSnapshot } from '../../src/engine/createReaderEngine';
import { connectReadingSession } from '../../src/machines/readingSession';
import { connectReaderColumn } from '../../src/machines/readerColumn';
import { stripTags } from '../../src/domain/sanitize';
import { LANGUAGES } from '../../src/domain/languages';
import { LEVEL_ORDER, type Level } from '../../src/domain/levels';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE } from '../../src/domain/access';

export const CLEAR_SCREEN = '\x1b[2J\x1b[H';
export const HELP_LINE = '←/→ or p/n page · l language · v level · q quit';
export const LOADING_TEXT = 'Loading…';

export type Key = 'next' | 'previous' | 'language' | 'level' | 'refresh' | 'quit' | 'interrupt';

export interface TerminalReaderOptions {
  engine: ReaderEngine;
  /** Raw key bytes (stdin in raw mode, or any stream in tests). */
  input: Readable;
  output: Writable;
  /** Wrap width. Defaults to the output's `columns` (a TTY) or 80. */
  columns?: number;
  /** Clear the screen before each render (default true). Tests and piped output turn it off. */
  clear?: boolean;
  /** Quit with code 1 when the publication cannot be opened (default true). */
  exitOnUnavailable?: boolean;
  /** When the input ends, quit once the keys already read are handled (default true: piped scripts end). */
  quitOnInputEnd?: boolean;
}

export interface TerminalReaderResult {
  /** 0 after q, Ctrl-C or the end of input; 1 when the publication could not be opened. */
  code: number;
  reason: 'quit' | 'interrupt' | 'input-ended' | 'unavailable';
  /** The session's error when reason is 'unavailable' (status 0 means the API could not be reached). */
  error?: { status: number; message: string };
}

export interface TerminalReader {
  /** Resolves as soon as the reader quits (the CLI exits on it). */
  readonly done: Promise<TerminalReaderResult>;
  /** Resolves once the engine is stopped: after quitting, as soon as no request it waits on is in flight. */
  readonly stopped: Promise<void>;
  /** The text of the current screen (without the clear sequence). */
  screen(): string;
  /** Show a one-line notice under the passage until the next key. */
  notify(message: string): void;
  /** Handle one key, as if typed. */
  press(key: Key): void;
  quit(reason?: TerminalReaderResult['reason'], code?: number): void;
}

/** Split raw input into keys. Unknown bytes and escape sequences are ignored. */
export function parseKeys(chunk: string): Key[] {
  const keys: Key[] = [];
  for (let i = 0; i < chunk.length; ) {
    if (chunk[i] === '\x1b') {
      // CSI sequences: ESC [ params final-byte; arrows are ESC [ C / ESC [ D (also ESC O C / ESC O D).
      const m = /^\x1b[[O][0-9;]*([A-Za-z~])/.exec(chunk.slice(i));
      if (m) {
        if (m[1] === 'C') keys.push('next');
        if (m[1] === 'D') keys.push('previous');
        i += m[0].length;
      } else {
        i += 1;
      }
      continue;
    }
    const ch = chunk[i++];
    if (ch === '\x03') keys.push('interrupt');
    else if (ch === 'n' || ch === ' ') keys.push('next');
    else if (ch === 'p') keys.push('previous');
    else if (ch === 'l') keys.push('language');
    else if (ch === 'v') keys.push('level');
    else if (ch === 'r') keys.push('refresh');
    else if (ch === 'q' || ch === 'Q') keys.push('quit');
  }
  return keys;
}

/** Greedy word wrap; words longer than the width are cut. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let rest = [...word];
    while (rest.length > w) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(rest.slice(0, w).join(''));
      rest = rest.slice(w);
    }
    const piece = rest.join('');
    const length = [...line].length;
    if (!line) line = piece;
    else if (length + 1 + rest.length <= w) line += ` ${piece}`;
    else {
      lines.push(line);
      line = piece;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** A passage's HTML as paragraphs of plain text. */
export function paragraphsOf(html: string): string[] {
  return html
    .split(/<\/(?:p|li|h\d|blockquote)>|<br\s*\/?>/i)
    .map((part) => stripTags(part))
    .filter(Boolean);
}

interface View {
  lines: string[];
  /** No load is pending: the screen shows the outcome of the last key. */
  settled: boolean;
  unavailable: { status: number; message: string } | null;
}

/** What the terminal shows for a snapshot. Pure. */
export function viewOf(snapshot: ReaderEngineSnapshot, width: number, notice: string | null = null): View {
  const noop = () => {};
  const session = connectReadingSession(snapshot.session, noop);
  const body: string[] = [];
  const header: string[] = [];
  let settled = true;

  if (session.isUnavailable) {
    const error = session.error ?? { status: 0, message: 'Publication not found' };
    return { lines: wrap(error.message, width), settled: true, unavailable: error };
  }
  if (!session.publication || session.isLoading) {
    return { lines: [LOADING_TEXT], settled: false, unavailable: null };
  }

  const { publication, primaryEdition } = session;
  header.push(...wrap(`${publication.title} — ${publication.author}`, width));

  const passage = snapshot.primary.passage;
  if (session.primaryMissing || !primaryEdition) {
    const missing = connectReaderColumn(snapshot.primary.column, noop);
    const choice = session.primary;
    const language = LANGUAGES.find((l) => l.code === choice?.language)?.name ?? choice?.language ?? '';
    header.push(`${language} · ${choice?.level ?? ''} · passage ${session.position} of ${session.maxPosition}`);
    if (missing.missingError) body.push(missing.missingError.message);
    else {
      body.push(LOADING_TEXT);
      settled = false;
    }
  } else {
    const loading = connectReaderColumn(snapshot.primary.column, noop);
    const expected = Math.min(session.position, primaryEdition.passageCount);
    const current = passage && passage.editionId === primaryEdition.id && passage.position === expected ? passage : null;

    const parts = [`${primaryEdition.language.name} · ${primaryEdition.level} · passage ${session.position} of ${session.maxPosition}`];
    const place = [current?.partName, current?.sectionName].filter(Boolean).join(' // ');
    const chapter = session.currentShortcut?.name;
    if (chapter && chapter !== current?.sectionName) parts.push(chapter);
    if (place) parts.push(place);
    let editionLine = parts.join(' · ');
    if (primaryEdition.language.rightToLeft) editionLine += ' (RTL)';
    header.push(...wrap(editionLine, width));

    if (loading.isLoaded && current) {
      for (const [i, paragraph] of paragraphsOf(current.text).entries()) {
        if (i > 0) body.push('');
        body.push(...wrap(paragraph, width));
      }
    } else if (loading.error) {
      body.push(loading.error.title, ...wrap(loading.error.message, width));
    } else if (loading.needsGroupCode) {
      body.push(...wrap(`${GROUP_CODE_REQUIRED_MESSAGE}: open this passage in the Lectern app.`, width));
    } else if (loading.needsLicense) {
      body.push(...wrap(`${LICENSE_REQUIRED_MESSAGE}. Open it in the Lectern app, signed in with a school license.`, width));
    } else {
      settled = false;
      body.push(LOADING_TEXT);
      if (loading.showRefresh) body.push(`${loading.message} (r to ${loading.refreshLabel.toLowerCase()})`);
    }
  }

  const lines = [...header, '', ...body, ''];
  if (notice) lines.push(...wrap(notice, width), '');
  lines.push(HELP_LINE);
  return { lines, settled, unavailable: null };
}

export function createTerminalReader(options: TerminalReaderOptions): TerminalReader {
  const { engine, input, output } = options;
  const clear = options.clear ?? true;
  const exitOnUnavailable = options.exitOnUnavailable ?? true;
  const quitOnInputEnd = options.quitOnInputEnd ?? true;
  const width = () => options.columns ?? ((output as Writable & { columns?: number }).columns || 80);

  let lastScreen: string | null = null;
  let notice: string | null = null;
  let finished = false;
  let inputEnded = false;
  /** Keys wait here while the screen still shows the outcome of an earlier key (a load is pending). */
  const queue: Key[] = [];
  /** A key was just sent; its effects (queued microtasks) may not have reached the snapshot yet. */
  let justSent = false;

  let resolveDone!: (r: TerminalReaderResult) => void;
  const done = new Promise<TerminalReaderResult>((resolve) => (resolveDone = resolve));
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));

  // Paging, a language or a level go to the session, which may offer the upgrade instead.
  const session = () => connectReadingSession(engine.getSnapshot().session, (e) => engine.getChild('session')?.send(e));
  const current = () => viewOf(engine.getSnapshot(), width(), notice);

  function render() {
    if (finished) return;
    const view = current();
    const text = view.lines.join('\n');
    if (text !== lastScreen) {
      output.write(clear ? `${CLEAR_SCREEN}${text}\n` : `${lastScreen === null ? '' : '\n'}${text}\n`);
      lastScreen = text;
    }
    if (view.unavailable && exitOnUnavailable) {
      quit('unavailable', 1, view.unavailable);
      return;
    }
    drain();
  }

  function cycleLanguage() {
    const s = session();
    if (!s.publication || !s.primary) return;
    const codes = s.publication.languages.length
      ? s.publication.languages.map((l) => l.code as string)
      : [...new Set(s.publication.editions.map((e) => e.language.code as string))];
    if (codes.length < 2) {
      notice = `${s.primaryEdition?.language.name ?? s.primary.language} is the only language of this book.`;
      return;
    }
    const next = codes[(codes.indexOf(s.primary.language) + 1) % codes.length];
    s.changeLanguage('primary', next);
  }

  function cycleLevel() {
    const s = session();
    if (!s.publication || !s.primary) return;
    const language = s.primary.language;
    const levels = LEVEL_ORDER.filter((level) => s.publication!.editions.some((e) => e.language.code === language && e.level === level));
    if (levels.length < 2) {
      notice = `${s.primaryEdition?.language.name ?? language} has only the ${levels[0] ?? s.primary.level} level.`;
      return;
    }
    const next: Level = levels[(levels.indexOf(s.primary.level) + 1) % levels.length];
    s.changeLevel('primary', next);
  }

  function apply(key: Key) {
    notice = null;
    switch (key) {
      case 'next':
        session().next();
        break;
      case 'previous':
        session().previous();
        break;
      case 'language':
        cycleLanguage();
        break;
      case 'level':
        cycleLevel();
        break;
      case 'refresh':
        engine.getChild('column.primary')?.send({ type: 'passage.refresh' });
        break;
      default:
        break;
    }
  }

  /** Handle queued keys one by one, each once the previous one's screen has settled. */
  function drain() {
    while (!finished && !justSent && queue.length > 0) {
      if (!current().settled) return;
      const key = queue.shift()!;
      if (key === 'quit') {
        queue.length = 0;
        quit('quit');
        return;
      }
      justSent = true;
      apply(key);
      // The engine loads passages in a microtask; look again after those have run.
      setImmediate(() => {
        justSent = false;
        render();
      });
    }
    if (!finished && inputEnded && quitOnInputEnd && queue.length === 0 && !justSent && current().settled) quit('input-ended');
  }

  function press(key: Key) {
    if (finished) return;
    if (key === 'interrupt') {
      quit('interrupt');
      return;
    }
    // q quits at once, unless keys typed before it still wait for their screens (a piped 'nnq').
    if (key === 'quit' && queue.length === 0 && !justSent) {
      quit('quit');
      return;
    }
    queue.push(key);
    drain();
    render();
  }

  const onData = (chunk: Buffer | string) => {
    for (const key of parseKeys(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))) press(key);
  };
  const onEnd = () => {
    inputEnded = true;
    if (!finished) render();
    drain();
  };
  const onResize = () => {
    lastScreen = null;
    render();
  };

  const unsubscribe = engine.subscribe(render);
  input.on('data', onData);
  input.on('end', onEnd);
  output.on('resize', onResize);

  function stopEngine() {
    // The engine does not guard answers that arrive after stop(): a late publication answer throws inside it
    // (an unhandled rejection) and a late passage is sent to stopped actors (README: 'Known engine issue').
    // So stop only once no request the engine waits on is in flight, checked after its queued microtasks ran.
    const pending = () => {
      try {
        const s = engine.getSnapshot();
        const loading = (slot: ReaderEngineSnapshot['primary']) =>
          slot.column.matches('loading') || slot.column.matches({ missing: 'creating' });
        return s.session.matches('loading') || s.session.matches('refreshing') || loading(s.primary) || loading(s.secondary);
      } catch {
        return false;
      }
    };
    let isStopped = false;
    const stopNow = () => {
      if (isStopped) return;
      isStopped = true;
      off();
      clearTimeout(timer);
      engine.stop();
      resolveStopped();
    };
    const attempt = () => setImmediate(() => !isStopped && !pending() && stopNow());
    const off = engine.subscribe(attempt);
    // A request that never answers still ends with the API client's 30 s timeout; this is the last resort.
    const timer = setTimeout(stopNow, 35_000);
    timer.unref?.();
    attempt();
  }

  function quit(reason: TerminalReaderResult['reason'] = 'quit', code = 0, error?: { status: number; message: string }) {
    if (finished) return;
    finished = true;
    unsubscribe();
    input.off('data', onData);
    input.off('end', onEnd);
    output.off('resize', onResize);
    stopEngine();
    resolveDone(error ? { code, reason, error } : { code, reason });
  }

  render();

  return {
    done,
    stopped,
    screen: () => current().lines.join('\n'),
    notify(message) {
      notice = message;
      render();
    },
    press,
    quit: (reason = 'quit', code = 0) => quit(reason, code),
  };
}
