/**
 * The reader system's generated composed paths: a palette of what a reader does (each action with the words QA
 * reads, done on the engine's public surface as the hand-written paths do), and a breadth-first exploration over
 * composed systems (tests/support/composedSystem.ts: the engine with its real children, fakes at the ports, a
 * simulated clock). Each candidate path is replayed from a fresh system; the state after it is what the reader
 * sees, as a string; a path is kept when it shows something not seen before or takes a root transition no kept
 * path takes. tests/machines/readerSystem.generated.test.ts replays them and checks them; `npm run qa:paths`
 * lists them for QA (scripts/qa/generatedPaths.ts).
 *
 * The exploration is deterministic: the fakes answer the same way each time and time moves only where an action
 * says so.
 */
import type { AnyStateMachine } from 'xstate';
import { parseReaderPath } from '../../src/domain/readerUrl';
import { passagePlainText } from '../../src/domain/sanitize';
import { PortFailure } from '../../src/engine/ports';
import { readerSystemMachine } from '../../src/machines/readerSystem';
import type { EditionChoice, SessionRequest, Slot } from '../../src/machines/readingSession';
import { CLASS_CODE, createComposedSystem, EDITIONS, LICENSED_FEATURES, passageText, type ComposedSystem } from '../support/composedSystem';
import { allTransitions } from './harness';

/** One thing a reader does. */
export interface ReaderAction {
  /** A short stable name, used in the generated paths. */
  id: string;
  /** What the tester does, as a QA script says it. */
  say: string;
  /** Whether the reader can do it now, judged from what they see (a button that shows, a panel that asks). */
  when: (sys: ComposedSystem) => boolean;
  /** The same action on the engine's public surface: sys.send for the root's own events, sys.sendTo for a child's. */
  do: (sys: ComposedSystem) => Promise<void>;
}

const choice = (e: { language: string; level: EditionChoice['level'] }): EditionChoice => ({ language: e.language, level: e.level });
const { english, gold, spanish, classEdition, chinese } = EDITIONS;

/** The root's life cycle, and whether the session shows a title (the reader's page is up). */
const isClosed = (sys: ComposedSystem) => sys.rootState() === 'closed' && !sys.snapshot().listenAudio;
const isReading = (sys: ComposedSystem) => sys.rootState().startsWith('open') && sys.session().isReading;
const isSignedIn = (sys: ComposedSystem) => sys.server.user !== null;

/** Open the title as a reader address does; a visitor's reader page first tells the engine nobody is signed in. */
async function openTitle(sys: ComposedSystem, primary: EditionChoice, extra: Partial<SessionRequest> = {}) {
  if (!isSignedIn(sys)) await sys.sendTo('access', { type: 'user.features', features: null });
  await sys.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary, position: 1, ...extra } });
}

/** The title answers with this failure, once, then the reader opens it. */
async function openFailing(sys: ComposedSystem, failure: PortFailure) {
  sys.server.publicationFailure = failure;
  await openTitle(sys, choice(english));
}

/** How long the server takes to make a missing edition, on the simulated clock. */
const EDITION_MS = 2000;

const listenOn = (slot: Slot) => (sys: ComposedSystem) => sys.sendTo(`column.${slot}`, { type: 'audio.listen', on: true });
const columnShows = (sys: ComposedSystem, slot: Slot) => (slot === 'primary' || sys.snapshot().columns.showSecondary) && sys.column(slot).isLoaded;

/** Every action the exploration tries, in this order (the order decides which of two equally short paths is kept). */
export const PALETTE: ReaderAction[] = [
  // ---- before the reader opens (or after it could not) ----
  { id: 'open-english', say: 'Open Night Owls in English (Original) at passage 1.', when: isClosed, do: (sys) => openTitle(sys, choice(english)) },
  { id: 'open-gold', say: 'Open Night Owls in English Gold at passage 2.', when: isClosed, do: (sys) => openTitle(sys, choice(gold), { position: 2 }) },
  { id: 'open-class', say: "Open Night Owls in English Silver, the class's edition, at passage 1.", when: isClosed, do: (sys) => openTitle(sys, choice(classEdition)) },
  {
    id: 'open-two',
    say: 'Open Night Owls with English (Original) on the left and Spanish (Original) on the right, at passage 1.',
    when: isClosed,
    do: (sys) => openTitle(sys, choice(english), { secondary: choice(spanish) }),
  },
  {
    id: 'open-chinese',
    say: 'Open Night Owls in Chinese (Original), an edition the title does not have yet, at passage 1 (the server takes 2 s to make it).',
    when: isClosed,
    do: (sys) => {
      sys.server.createEditionMs = EDITION_MS;
      return openTitle(sys, choice(chinese));
    },
  },
  {
    id: 'open-failing',
    say: 'Open Night Owls in English (Original) while the server fails the title (503).',
    when: isClosed,
    do: (sys) => openFailing(sys, new PortFailure('unavailable', 503, 'Service unavailable')),
  },
  {
    id: 'open-premium',
    say: 'Open Night Owls in English (Original) while the server refuses the title as premium content (403).',
    when: isClosed,
    do: (sys) => openFailing(sys, new PortFailure('premium_content', 403, 'Premium content')),
  },
  {
    id: 'listen-page',
    say: 'Open the listen page of Night Owls in English (Original) at passage 1.',
    when: isClosed,
    do: (sys) =>
      sys.send({ type: 'listen.start', autoPlay: false, isLastPage: false, editionId: english.id, position: 1, passageCount: 4, audioEnabled: true, basePath: '/listen/fixture/v1/en:original', language: 'en' }),
  },
  { id: 'visit-library', say: 'Visit the library.', when: (sys) => sys.rootState() === 'closed', do: (sys) => sys.send({ type: 'catalog.viewed' }) },
  { id: 'visit-title-page', say: "Visit Night Owls' page.", when: (sys) => sys.rootState() === 'closed', do: (sys) => sys.send({ type: 'publication.viewed', slug: 'fixture' }) },
  { id: 'visit-url', say: 'Visit the address /fixture/v1/read.', when: (sys) => sys.rootState() === 'closed', do: (sys) => sys.send({ type: 'url.visited', url: '/fixture/v1/read' }) },

  // ---- who reads, and the screen ----
  {
    id: 'sign-in',
    say: 'Sign in with a School License (a teacher whose school holds one).',
    when: (sys) => !isSignedIn(sys) && (isClosed(sys) || isReading(sys)),
    do: async (sys) => {
      sys.signIn(LICENSED_FEATURES);
      await sys.send({ type: 'auth.signedIn' });
      await sys.send({ type: 'user.loaded', hasRole: true, features: LICENSED_FEATURES });
    },
  },
  {
    id: 'sign-out',
    say: 'Sign out.',
    when: isSignedIn,
    do: async (sys) => {
      sys.server.user = null;
      await sys.send({ type: 'auth.signedOut' });
    },
  },
  {
    id: 'class-link',
    say: `Follow the class link with the code ${CLASS_CODE} (?groupCode=${CLASS_CODE}).`,
    when: (sys) => isClosed(sys) && !isSignedIn(sys) && sys.classCode().menuLabel === null,
    do: (sys) => sys.sendTo('classCode', { type: 'classCode.fromLink', code: CLASS_CODE }),
  },
  {
    id: 'second-column',
    say: 'Open the second column (wide screen): widen the window until two columns fit, and choose two columns in the settings.',
    when: (sys) => isReading(sys) && !sys.snapshot().columns.showSecondary && !sys.classCode().menuLabel,
    do: async (sys) => {
      await sys.send({ type: 'viewport.changed', wide: true });
      await sys.send({ type: 'settings.reader', patch: { columns: 'two-column' } });
    },
  },
  { id: 'one-column', say: 'Choose one column in the settings.', when: (sys) => isReading(sys) && sys.snapshot().readerSettings.columns === 'two-column', do: (sys) => sys.send({ type: 'settings.reader', patch: { columns: 'one-column' } }) },

  // ---- in the reader ----
  { id: 'next', say: 'Next page.', when: (sys) => isReading(sys) && sys.session().canGoNext, do: async (sys) => sys.session().next() },
  { id: 'previous', say: 'Previous page.', when: (sys) => isReading(sys) && sys.session().canGoPrevious, do: async (sys) => sys.session().previous() },
  { id: 'listen', say: "Turn Listen on (the left column's toggle).", when: (sys) => isReading(sys) && columnShows(sys, 'primary') && !sys.snapshot().primary.listening, do: listenOn('primary') },
  { id: 'listen-right', say: "Turn Listen on (the right column's toggle).", when: (sys) => isReading(sys) && columnShows(sys, 'secondary') && !sys.snapshot().secondary.listening, do: listenOn('secondary') },
  { id: 'pause', say: 'Pause.', when: (sys) => sys.player().label === 'Now Playing', do: async (sys) => sys.player().pause() },
  { id: 'play', say: 'Play.', when: (sys) => sys.player().label === 'Paused', do: async (sys) => sys.player().play() },
  { id: 'listen-3s', say: 'Listen for 3 s.', when: (sys) => sys.player().label === 'Now Playing', do: (sys) => sys.advance(3000) },
  {
    id: 'play-from-word',
    say: "Tap the word 'moon' in the left column and choose 'Play from here'.",
    when: (sys) => isReading(sys) && columnShows(sys, 'primary'),
    do: (sys) => sys.sendTo('column.primary', { type: 'word.playFrom', offset: passagePlainText(sys.column('primary').text ?? '').indexOf('moon') }),
  },
  {
    id: 'class-code',
    say: `Enter the class code ${CLASS_CODE} in the panel and submit it.`,
    when: (sys) => isReading(sys) && sys.column('primary').needsGroupCode,
    do: (sys) => sys.sendTo('classCode', { type: 'classCode.submit', code: CLASS_CODE, source: 'reader' }),
  },
  { id: 'highlight', say: 'Turn highlight on.', when: (sys) => isReading(sys) && sys.reading().canHighlight && !sys.reading().isHighlightOn, do: async (sys) => sys.reading().toggleHighlight() },
  { id: 'decode', say: 'Turn decode on.', when: (sys) => isReading(sys) && sys.reading().canDecode && !sys.reading().isDecodeOn, do: async (sys) => sys.reading().toggleDecode() },
  { id: 'choose-gold', say: 'Choose GOLD in the left column.', when: (sys) => isReading(sys) && sys.session().primary?.level !== 'GOLD', do: async (sys) => sys.session().changeLevel('primary', 'GOLD') },
  {
    id: 'address-chinese',
    say: 'Go to the address of Night Owls in Chinese (Original), passage 1, an edition the title does not have yet (the server takes 2 s to make it).',
    when: (sys) => isReading(sys) && sys.session().primary?.language !== 'zh',
    do: (sys) => {
      sys.server.createEditionMs = EDITION_MS;
      return sys.sendTo('session', { type: 'reader.sync', request: { slug: 'fixture', version: 'v1', primary: choice(chinese), position: 1 } });
    },
  },
  { id: 'wait-edition', say: 'Wait 2 s, until the server has made the edition.', when: (sys) => sys.column('primary').isCreating, do: (sys) => sys.advance(EDITION_MS) },
  {
    id: 'wait-edition-failing',
    say: 'Wait 2 s, until the server has made the edition; the server fails the next title request (503).',
    when: (sys) => sys.column('primary').isCreating,
    do: (sys) => {
      sys.server.publicationFailure = new PortFailure('unavailable', 503, 'Service unavailable');
      return sys.advance(EDITION_MS);
    },
  },
  { id: 'dismiss-dialog', say: 'Close the premium dialog.', when: (sys) => sys.premiumDialog().isOpen, do: async (sys) => sys.premiumDialog().close() },
  { id: 'close', say: 'Leave the reader (back to the library).', when: (sys) => sys.rootState() !== 'closed', do: (sys) => sys.send({ type: 'reader.close' }) },
];

const ACTIONS = new Map(PALETTE.map((a) => [a.id, a]));

const clockOf = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** A column as the reader sees it: its passage, its panel, its loading. */
function columnSees(sys: ComposedSystem, slot: Slot): string {
  const column = sys.column(slot);
  const choice = slot === 'primary' ? sys.session().primary : sys.session().secondary;
  const edition = choice ? `${choice.language} ${choice.level}` : 'no edition';
  const listening = sys.snapshot()[slot].listening ? ', Listen on' : '';
  const display = sys.snapshot()[slot].display;
  const how = display.decoded ? ', decoded' : display.highlight ? ', lit as read' : display.follows ? ', following the other column' : '';
  const shows = column.isLoaded
    ? `passage ${column.position} shows${how}`
    : column.needsLicense
      ? 'the license panel'
      : column.needsGroupCode
        ? 'the class-code panel'
        : column.isCreating
          ? 'the edition is being made'
          : column.error
            ? `the error panel '${column.error.title}'`
            : column.showSkeleton || column.showSpinner
              ? 'loading'
              : 'nothing';
  return `${edition}: ${shows}${listening}`;
}

/**
 * What the reader sees, as one line: the reader's life cycle, the session's state and position, each column, the
 * player's label and passage (and its clock), the reading mode, the dialog, the toasts and the address.
 */
export function readerSees(sys: ComposedSystem): string {
  const snap = sys.snapshot();
  const session = sys.session();
  const parts = [`reader ${sys.rootState()}`];
  if (session.isReading) parts.push(`passage ${session.position} of ${session.maxPosition}`, `left ${columnSees(sys, 'primary')}`);
  else parts.push(`session ${JSON.stringify(snap.session.value)}`);
  if (session.isReading && snap.columns.showSecondary) parts.push(`right ${columnSees(sys, 'secondary')}`);
  const player = sys.player();
  const playing = snap.readerPlayer;
  parts.push(player.label === 'Closed' ? "player 'Closed'" : `player '${player.label}' (${playing.slot}, passage ${playing.passageId ?? 'none'}, ${playing.status}, ${clockOf(playing.currentTime)})`);
  const reading = sys.reading();
  parts.push(`mode ${reading.isDecodeOn ? 'decode' : reading.isHighlightOn ? 'highlight' : 'off'}`);
  if (snap.listenAudio) parts.push(`listen page ${JSON.stringify(snap.listenAudio.value)}`);
  const dialog = sys.premiumDialog();
  if (dialog.isOpen) parts.push(`dialog '${dialog.title}'`);
  const toasts = sys.toasts();
  if (toasts.length) parts.push(`toasts ${toasts.map((t) => `'${t}'`).join(', ')}`);
  const code = sys.classCode().menuLabel;
  if (code) parts.push(`menu '${code}'`);
  parts.push(`${sys.server.user ? 'signed in' : 'nobody signed in'}${snap.readerSettings.columns === 'two-column' ? ', two columns chosen' : ''}${snap.columns.allowed ? ', two columns allowed' : ''}`);
  parts.push(`address ${sys.navigation.current()}`);
  return parts.join('; ');
}

/** The state the exploration keys on: what the reader sees, without the player's clock (time alone is no new state). */
export const stateKeyOf = (sees: string) => sees.replace(/, \d+:\d\d\)/, ')');

/** Invariants that hold after every step of every path: each broken one, in words. */
export function brokenInvariants(sys: ComposedSystem): string[] {
  const broken: string[] = [];
  const snap = sys.snapshot();
  const playing = snap.readerPlayer;
  if (sys.player().label === 'Now Playing') {
    // A player that says 'Now Playing' has a ready narration for the passage its column shows.
    const column = sys.column(playing.slot);
    const pid = playing.passageId;
    if (playing.status !== 'ready') broken.push(`'Now Playing' with narration ${playing.status}`);
    if (pid === null || column.text !== passageText(Math.floor(pid / 100), pid % 100)) broken.push(`'Now Playing' passage ${pid} is not the passage the ${playing.slot} column shows (position ${column.position})`);
  }
  for (const slot of ['primary', 'secondary'] as const) {
    // A locked column never plays.
    const column = sys.column(slot);
    const locked = column.needsLicense || column.needsGroupCode || snap[slot].locks.audioLocked;
    if (locked && sys.player().label === 'Now Playing' && playing.slot === slot) broken.push(`the locked ${slot} column plays`);
    if (locked && snap[slot].listening) broken.push(`the locked ${slot} column is listening`);
  }
  if (sys.rootState() === 'open.reading' && sys.session().isReading) {
    // The address the engine wrote names the session's position and editions.
    const address = parseReaderPath(sys.navigation.current());
    const session = sys.session();
    if (!address) broken.push(`the address ${sys.navigation.current()} is not a reader address`);
    else {
      if (address.position !== session.position) broken.push(`the address names passage ${address.position}, the session shows ${session.position}`);
      if (address.primary?.language !== session.primary?.language || address.primary?.level.toUpperCase() !== session.primary?.level) broken.push(`the address names ${address.primary?.language}:${address.primary?.level}, the session shows ${session.primary?.language}:${session.primary?.level}`);
    }
  }
  return broken;
}

/** One step of a generated path: the action, what the reader then sees, the root transitions it took. */
export interface GeneratedStep {
  action: string;
  say: string;
  sees: string;
  /** The root's transitions the step took (harness keys), each once, in the order first taken. */
  transitions: string[];
}

export interface GeneratedPath {
  steps: GeneratedStep[];
}

export interface Generation {
  /** What the reader sees before any step. */
  start: string;
  paths: GeneratedPath[];
  /** Distinct states reached (keys), and candidate paths replayed. */
  states: number;
  replays: number;
}

/** Play these actions on a fresh composed system; `look` sees it after each step (and may throw). */
export async function replay(actions: readonly string[], look: (sys: ComposedSystem, step: number, taken: string[]) => void | Promise<void> = () => {}): Promise<void> {
  const sys = createComposedSystem();
  try {
    await sys.settle();
    for (const [i, id] of actions.entries()) {
      const action = ACTIONS.get(id);
      if (!action) throw new Error(`No action '${id}' in the palette`);
      const before = sys.rootTransitions.length;
      await action.do(sys);
      await sys.settle();
      await look(sys, i, [...new Set(sys.rootTransitions.slice(before))]);
    }
  } finally {
    sys.stop();
  }
}

export interface GenerateOptions {
  /** The longest path, in steps. */
  maxDepth: number;
  /** The most states kept; the exploration stops expanding when reached. */
  maxStates: number;
}

export const GENERATION: GenerateOptions = { maxDepth: 5, maxStates: 100 };

/** The root's transitions, as harness keys, in the machine's order. */
export const rootTransitionKeys = (machine: AnyStateMachine = readerSystemMachine) => allTransitions(machine).map((t) => t.key);

interface Node {
  actions: string[];
  steps: GeneratedStep[];
}

/**
 * Breadth-first over composed systems: each kept path is extended by each action the reader can do at its end,
 * every candidate replayed from a fresh system. A candidate is kept when what it shows is new (it is then explored
 * further) or when it takes a root transition no kept path takes yet.
 */
export async function generatePaths(options: GenerateOptions = GENERATION): Promise<Generation> {
  const seen = new Set<string>();
  const covered = new Set<string>();
  const kept: Node[] = [];
  let replays = 0;
  let start = '';
  {
    const sys = createComposedSystem();
    await sys.settle();
    start = readerSees(sys);
    sys.stop();
  }
  seen.add(stateKeyOf(start));
  let frontier: Node[] = [{ actions: [], steps: [] }];
  for (let depth = 0; depth < options.maxDepth && frontier.length; depth++) {
    const next: Node[] = [];
    for (const node of frontier) {
      // Which actions the reader can do at the end of this path.
      const doable: string[] = [];
      if (node.actions.length === 0) {
        const sys = createComposedSystem();
        await sys.settle();
        for (const a of PALETTE) if (a.when(sys)) doable.push(a.id);
        sys.stop();
      } else {
        await replay(node.actions, (sys, i) => {
          if (i === node.actions.length - 1) for (const a of PALETTE) if (a.when(sys)) doable.push(a.id);
        });
      }
      for (const id of doable) {
        if (seen.size >= options.maxStates && covered.size === rootTransitionKeys().length) break;
        const actions = [...node.actions, id];
        let step: GeneratedStep | null = null;
        replays++;
        await replay(actions, (sys, i, taken) => {
          if (i === actions.length - 1) step = { action: id, say: ACTIONS.get(id)!.say, sees: readerSees(sys), transitions: taken };
        });
        const last = step as GeneratedStep | null;
        if (!last) continue;
        const key = stateKeyOf(last.sees);
        const isNewState = !seen.has(key) && seen.size < options.maxStates;
        const coversNew = last.transitions.some((t) => !covered.has(t));
        if (!isNewState && !coversNew) continue;
        const candidate = { actions, steps: [...node.steps, last] };
        for (const t of last.transitions) covered.add(t);
        kept.push(candidate);
        if (isNewState) {
          seen.add(key);
          next.push(candidate);
        }
      }
    }
    frontier = next;
  }
  // A kept path that another kept path extends says nothing more: QA follows the longer one.
  const isPrefix = (a: Node, b: Node) => a !== b && b.actions.length > a.actions.length && a.actions.every((id, i) => b.actions[i] === id);
  const paths = kept.filter((node) => !kept.some((other) => isPrefix(node, other))).map((node) => ({ steps: node.steps }));
  return { start, paths, states: seen.size, replays };
}

/** The root transitions a set of paths takes. */
export function coveredBy(paths: readonly GeneratedPath[]): Set<string> {
  return new Set(paths.flatMap((p) => p.steps.flatMap((s) => s.transitions)));
}
