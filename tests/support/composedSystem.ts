/**
 * The reader system as the engine runs it, with every real child, for the composed paths
 * (tests/machines/readerSystem.paths.ts): fakes only at the ports, and xstate's SimulatedClock as the clock port,
 * so time moves only when a path advances it. It is built on the engine's public surface alone (createReaderEngine,
 * send, getChild, getSnapshot, getAudioTime), and reads what a reader sees through the machines' connect APIs.
 *
 * The fake server answers like ours (src/domain/access.ts decides every gate from who asks):
 * - "Night Owls" (slug `fixture`): English Original (free, narrated with speech marks, highlight and decode),
 *   English Gold (a graded level: a School License opens it), Spanish Original (free to read, its narration needs
 *   AUDIO), and English Silver, the class's edition: its passages ask for a class code
 *   (groupCodeRequired) until the request carries one the server knows, or a reader is signed in;
 * - who asks: the signed-in reader (`signIn`), else the class code stored on the storage port (the web client sends
 *   it as X-Group-Code), else a visitor;
 * - a missing edition asked for on demand is created and is in the title from then on;
 * - a passage can be scripted to fail, or to answer late (on the simulated clock).
 */
import { SimulatedClock, type AnyActorRef, type AnyTransitionDefinition } from 'xstate';
import { createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import { audioAccess, decodeAccess, passageAccess, type AccessDecision, type AccessActor } from '../../src/domain/access';
import { languageInfo, type LanguageCode } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import { connectPremiumDialog } from '../../src/domain/locks';
import { passagePlainText } from '../../src/domain/sanitize';
import type { Edition, Passage, PassageAudio, Publication } from '../../src/domain/schemas';
import { createReaderEngine, type ReaderEngine, type ReaderEngineChildEvent, type ReaderEngineChildren, type ReaderEngineEvent, type ReaderEngineSnapshot } from '../../src/engine/createReaderEngine';
import { PortFailure, type ApiPort, type AudioPort, type ClockPort, type NavigationPort, type VisitorAnswer } from '../../src/engine/ports';
import { createMemoryStorage, createSettingsStore, type SettingName, type SettingValue } from '../../src/engine/settings';
import { connectClassCode } from '../../src/machines/classCode';
import { connectHighlightDecode } from '../../src/machines/highlightDecode';
import { connectPlayer } from '../../src/machines/player';
import { connectReaderColumn } from '../../src/machines/readerColumn';
import { connectReadingSession, type Slot } from '../../src/machines/readingSession';
import { edition, fixturePassage } from '../fixtures/publication';
import { transitionKey } from '../machines/harness';

/** The title's editions by name, for the paths to open. */
export const EDITIONS = {
  /** English Original: free, narrated with speech marks, highlight and decode. */
  english: { id: 2, language: 'en', level: 'ORIGINAL' },
  /** English Gold: a graded level, opened by a School License (LEVELS). */
  gold: { id: 1, language: 'en', level: 'GOLD' },
  /** Spanish Original: free to read; its narration needs AUDIO. */
  spanish: { id: 3, language: 'es', level: 'ORIGINAL' },
  /** English Silver: the class's edition, opened by a class code the server knows. */
  classEdition: { id: 4, language: 'en', level: 'SILVER' },
  /** Chinese Original: not in the title until it is asked for and created on demand. */
  chinese: { id: 5, language: 'zh', level: 'ORIGINAL' },
} as const satisfies Record<string, { id: number; language: LanguageCode; level: Level }>;

/** Every feature of a School License, as a licensed teacher's plan has them. */
export const LICENSED_FEATURES = ['AUDIO', 'DECODE', 'GROUP_CODES', 'LANGUAGES', 'LEVELS', 'USER_UPLOAD'];

/** The class code the fake server knows, and what GET /visitors/me answers for it. */
export const CLASS_CODE = 'OWLS2024';
const CLASS_VISITOR: VisitorAnswer = { groupCodeValid: true, features: ['LEVELS'], titleIds: [1] };

/** Seconds of narration per word: each word of a passage has a speech mark, one second after the last. */
export const SECONDS_PER_WORD = 1;

/** A passage's text: its edition and position, then a sentence long enough to listen to for a while. */
export function passageText(editionId: number, position: number): string {
  return `<p>Edition ${editionId}, passage ${position}: the owl flies over the dark wood and calls to the moon.</p>`;
}

/** The speech marks of a passage: one per word of its plain text, SECONDS_PER_WORD apart. */
export function speechMarksOf(editionId: number, position: number): { offset: number; time: number }[] {
  const plain = passagePlainText(passageText(editionId, position));
  return [...plain.matchAll(/\S+/g)].map((m, i) => ({ offset: m.index!, time: i * SECONDS_PER_WORD * 1000 }));
}

/** The offset of a word's first occurrence in a passage's plain text: where a reader taps it. */
export function wordOffset(editionId: number, position: number, word: string): number {
  const offset = passagePlainText(passageText(editionId, position)).indexOf(word);
  if (offset < 0) throw new Error(`No '${word}' in passage ${editionId}:${position}`);
  return offset;
}

/** The narration's length of a passage, in seconds. */
export const narrationSeconds = (editionId: number, position: number) => speechMarksOf(editionId, position).length * SECONDS_PER_WORD;

function nightOwls(extra: Edition[] = []): Publication {
  const narrated = (e: Edition): Edition => ({ ...e, audioEnabled: true, highlightModeEnabled: true, audioTotalLength: e.passageCount * 17 });
  const editions = [edition(1, 'en', 'GOLD', 3), edition(2, 'en', 'ORIGINAL', 4), edition(3, 'es', 'ORIGINAL', 4), edition(4, 'en', 'SILVER', 4), ...extra].map(narrated);
  return {
    id: 1,
    slug: 'fixture',
    version: 'v1',
    title: 'Night Owls',
    author: 'Tester',
    thumbnailImageUrl: '/media/fixture/v1/images/cover.svg',
    badges: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    renderingMode: 'DEFAULT',
    levels: [...new Set(editions.map((e) => e.level))],
    languages: [...new Set(editions.map((e) => e.language.code))].map((code) => languageInfo(code as LanguageCode)),
    editions,
    englishEditions: editions.filter((e) => e.language.code === 'en'),
    shortcuts: editions[1].shortcuts,
    infoData: [],
    defaultReader: { left: { language: 'en', level: 'ORIGINAL' }, right: { language: 'es', level: 'ORIGINAL' } },
  };
}

/**
 * What a passage request is scripted to do instead of answering at once: fail, every time it is asked for
 * (prefetches too), or answer late, the next time only.
 */
export type PassageScript = { fail: PortFailure } | { answerAfterMs: number };

/** The fake server: who asks, what it knows, what was asked of it. */
export interface FakeServer {
  publication: Publication;
  /** The signed-in reader's features, or null for nobody signed in. */
  user: { features: string[] } | null;
  /** The class codes the server knows. */
  classCodes: Record<string, VisitorAnswer>;
  /** Scripted passages, by `editionId:position`. */
  passageScripts: Map<string, PassageScript>;
  /** How long making a missing edition takes, on the simulated clock. */
  createEditionMs: number;
  /** Every call, as `passage 2:1`, `narration 201`, `decoded 201`, `visitor OWLS2024`, `create zh:ORIGINAL`, `publication`. */
  calls: string[];
  /** The next title request (GET /publications/{slug}) fails with this, once; null: it answers. */
  publicationFailure: PortFailure | null;
}

/** The audio port a recording wraps: a silent audio whose time moves with the clock, and the calls made of it. */
export interface RecordingAudio {
  port: AudioPort;
  calls: string[];
  /** The urls loaded, in order (null for an unload). */
  loads(): (string | null)[];
}

function recordingAudio(clock: ClockPort, secondsOf: (url: string) => number): RecordingAudio {
  const audio = createSilentAudio(clock, secondsOf);
  const calls: string[] = [];
  const record =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      calls.push(args.length ? `${name}(${args.map(String).join(',')})` : name);
      return fn(...args);
    };
  const port: AudioPort = {
    ...audio,
    load: record('load', audio.load),
    play: record('play', audio.play),
    pause: record('pause', audio.pause),
    seek: record('seek', audio.seek),
    setRate: record('setRate', audio.setRate),
  };
  const loads = () => calls.filter((c) => c.startsWith('load(')).map((c) => (c === 'load(null)' ? null : c.slice(5, -1)));
  return { port, calls, loads };
}

/** The narration url of a passage. */
export const narrationUrl = (passageId: number) => `/audio/${passageId}.mp3`;
/** The passage id the fake server gives a passage. */
export const passageIdOf = (editionId: number, position: number) => editionId * 100 + position;
const passageOfId = (passageId: number) => ({ editionId: Math.floor(passageId / 100), position: passageId % 100 });

/** How far the clock moves between two looks at the system: the audio's tick, so every timer fires on its own time. */
const STEP_MS = 25;

export interface ComposedSystemOptions {
  /** Stored settings from an earlier visit, as raw storage entries (key → JSON text). */
  stored?: Record<string, string>;
}

export interface ComposedSystem {
  engine: ReaderEngine;
  clock: SimulatedClock;
  server: FakeServer;
  /** The reader's audio port, the tapped words' audio port. */
  audio: RecordingAudio;
  wordAudio: RecordingAudio;
  navigation: NavigationPort & { history: string[] };
  /** What the engine logged as an error. */
  errors: string[];
  /**
   * Every transition the root machine took since the engine started, in order, each named as the machine walks name
   * it (tests/machines/harness.ts `transitionKey`), read from the actor system's inspection.
   */
  rootTransitions: string[];
  /** The root's state (its life cycle), as `closed`, `opening`, `open.reading`, `failed`. */
  rootState(): string;
  /** Send the root an event, then let every answer already due land. */
  send(event: ReaderEngineEvent): Promise<void>;
  /** Send a child the event its view sends (engine.getChild), then let every answer already due land. */
  sendTo<K extends keyof ReaderEngineChildren>(id: K, event: ReaderEngineChildEvent<K>): Promise<void>;
  /** Let the answers the fakes have already given land (promises only; the clock does not move). */
  settle(): Promise<void>;
  /** Move the simulated clock forward, a tick at a time, letting answers land after each tick. */
  advance(ms: number): Promise<void>;
  snapshot(): ReaderEngineSnapshot;
  /** The views a reader sees, each from its machine's connect API, sending to the child it shows. */
  player(): ReturnType<typeof connectPlayer>;
  column(slot: Slot): ReturnType<typeof connectReaderColumn> & { text: string | null; position: number | null };
  session(): ReturnType<typeof connectReadingSession>;
  reading(): ReturnType<typeof connectHighlightDecode>;
  classCode(): ReturnType<typeof connectClassCode>;
  premiumDialog(): ReturnType<typeof connectPremiumDialog>;
  /** The toasts showing. */
  toasts(): string[];
  /** A stored setting, read as the engine reads it. */
  stored<K extends SettingName>(name: K): SettingValue<K>;
  /** The names of the tracked analytics events, in order; `trackedWith(name)` the properties of each event of that name. */
  tracked(): string[];
  trackedWith(name: string): Record<string, unknown>[];
  /** Sign in at the fake server: from now on its answers are for a reader with these features. */
  signIn(features: string[]): void;
  stop(): void;
}

export function createComposedSystem(options: ComposedSystemOptions = {}): ComposedSystem {
  const clock = new SimulatedClock();
  const storage = createMemoryStorage(options.stored ?? {});
  const settings = createSettingsStore(storage);
  const server: FakeServer = { publication: nightOwls(), user: null, classCodes: { [CLASS_CODE]: CLASS_VISITOR }, passageScripts: new Map(), createEditionMs: 0, calls: [], publicationFailure: null };

  /** Who asks, as the server resolves it: the signed-in reader, else the stored class code's, else a visitor. */
  const actor = (): AccessActor & { classMember: boolean } => {
    if (server.user) return { features: server.user.features, invalidGroupCode: false, classMember: true };
    const code = settings.get('groupCode');
    if (!code) return { features: [], invalidGroupCode: false, classMember: false };
    const known = server.classCodes[code];
    if (!known?.groupCodeValid) return { features: [], invalidGroupCode: true, classMember: false };
    const shared = known.titleIds?.includes(server.publication.id) ?? true;
    return { features: shared ? known.features : [], invalidGroupCode: false, classMember: true };
  };
  const editionOf = (editionId: number) => {
    const found = server.publication.editions.find((e) => e.id === editionId);
    if (!found) throw new PortFailure('not_found', 404, 'Passage not found');
    return { badges: server.publication.badges, edition: { language: found.language.code, level: found.level }, passageCount: found.passageCount };
  };
  /** The class's edition asks for a class code before any other gate. */
  const decide = (editionId: number, rule: typeof passageAccess): AccessDecision => {
    const { badges, edition: gated } = editionOf(editionId);
    const who = actor();
    if (editionId === EDITIONS.classEdition.id && !who.classMember) return 'groupCodeRequired';
    return editionId === EDITIONS.classEdition.id ? 'allowed' : rule({ badges }, gated, who);
  };
  const refuse = (decision: AccessDecision) =>
    decision === 'licenseRequired' ? new PortFailure('license_required', 403, 'This content requires a School License') : new PortFailure('group_code_required', 403, 'Enter Class Code or Sign In');

  const answerPassage = (editionId: number, position: number): Passage => {
    const decision = decide(editionId, passageAccess);
    // The shared fixture passage (its id is passageIdOf), with this title's own text when it is not gated.
    const shape = fixturePassage(editionId, position, decision === 'allowed' ? null : decision);
    return decision === 'allowed' ? { ...shape, text: passageText(editionId, position) } : shape;
  };

  const api: ApiPort = {
    getPublication: async () => {
      server.calls.push('publication');
      const failure = server.publicationFailure;
      server.publicationFailure = null;
      if (failure) throw failure;
      return server.publication;
    },
    getPassage: (editionId, position, requestOptions) => {
      server.calls.push(`passage ${editionId}:${position}${requestOptions?.background ? ' (prefetch)' : ''}`);
      const key = `${editionId}:${position}`;
      const script = server.passageScripts.get(key);
      if (script && 'fail' in script) return Promise.reject(script.fail);
      if (script && !requestOptions?.background) {
        server.passageScripts.delete(key);
        return new Promise((resolve) => clock.setTimeout(() => resolve(answerPassage(editionId, position)), script.answerAfterMs));
      }
      return Promise.resolve().then(() => answerPassage(editionId, position));
    },
    getPassageAudio: async (passageId): Promise<PassageAudio> => {
      server.calls.push(`narration ${passageId}`);
      const { editionId, position } = passageOfId(passageId);
      const decision = decide(editionId, audioAccess);
      if (decision !== 'allowed') throw refuse(decision);
      return { passageId, status: 'ready', audio: { url: narrationUrl(passageId), speechMarks: speechMarksOf(editionId, position), duration: narrationSeconds(editionId, position) * 1000 } };
    },
    // The listen page asks for a passage's narration by edition and position: the same answer, under the same gates.
    getAudioOnly: (editionId, position) => api.getPassageAudio!(passageIdOf(editionId, position), editionId),
    getDecodedText: async (passageId, editionId, position) => {
      server.calls.push(`decoded ${passageId}`);
      const decision = decide(editionId, decodeAccess);
      if (decision !== 'allowed') throw refuse(decision);
      return passageText(editionId, position).replace('<p>', '<p class="decoded">');
    },
    getVisitor: async ({ groupCode }) => {
      server.calls.push(`visitor ${groupCode}`);
      return server.classCodes[groupCode] ?? { groupCodeValid: false, features: [] };
    },
    createEdition: async (slug, body) => {
      server.calls.push(`create ${body.languageCode}:${body.level}`);
      const wanted = Object.values(EDITIONS).find((e) => e.language === body.languageCode && e.level === body.level);
      if (slug !== server.publication.slug || !wanted || server.publication.editions.some((e) => e.id === wanted.id)) throw new PortFailure('not_found', 404, 'Passage not found');
      // A timer of the simulated clock fires only when the clock moves: no wait at all unless one is asked for.
      if (server.createEditionMs > 0) await new Promise((resolve) => clock.setTimeout(resolve, server.createEditionMs));
      const created = edition(wanted.id, wanted.language, wanted.level, 4);
      server.publication = nightOwls([created]);
      return { edition: created, created: true };
    },
    updateRole: async () => ({}),
  };

  const secondsOf = (url: string) => {
    const passageId = Number(/\/audio\/(\d+)\.mp3/.exec(url)?.[1]);
    const { editionId, position } = passageOfId(passageId);
    return narrationSeconds(editionId, position);
  };
  const audio = recordingAudio(clock, secondsOf);
  const wordAudio = recordingAudio(clock, secondsOf);
  const history = ['/fixture/v1/read'];
  const navigation = {
    history,
    push: (path: string) => void history.push(path),
    replace: (path: string) => void (history[history.length - 1] = path),
    current: () => history[history.length - 1],
  };
  const analytics = createMemoryAnalytics();
  const errors: string[] = [];
  const engine = createReaderEngine({
    api,
    storage,
    clock,
    audio: audio.port,
    wordAudio: wordAudio.port,
    analytics,
    navigation,
    logger: { error: (message) => void errors.push(message), warn: () => {} },
  });
  engine.start();

  // The root's transitions and state, from the actor system's inspection (any child reaches the system). The root is
  // the actor whose machine is the reader system; until it takes an event it is in its initial state.
  const rootTransitions: string[] = [];
  let root: AnyActorRef | null = null;
  engine.getChild('session')!.system.inspect((event) => {
    const logic = (event.actorRef as { logic?: { id?: string } }).logic;
    if (logic?.id !== 'readerSystem' || event.type !== '@xstate.microstep') return;
    root = event.actorRef as AnyActorRef;
    for (const t of (event as unknown as { _transitions: AnyTransitionDefinition[] })._transitions) {
      const source = t.source as unknown as { always?: AnyTransitionDefinition[]; transitions: Map<string, AnyTransitionDefinition[]> };
      const list = t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
      rootTransitions.push(transitionKey(t, list.indexOf(t)));
    }
  });
  const stateName = (value: unknown): string =>
    typeof value === 'string' ? value : Object.entries(value as Record<string, unknown>).map(([key, inner]) => `${key}.${stateName(inner)}`).join(',');

  // A macrotask runs only once every queued promise reaction has run, however long their chain.
  const settle = async () => {
    for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  const snapshot = () => engine.getSnapshot();
  const child = <K extends keyof ReaderEngineChildren>(id: K): ReaderEngineChildren[K] => engine.getChild(id)!;

  return {
    engine,
    clock,
    server,
    audio,
    wordAudio,
    navigation,
    errors,
    rootTransitions,
    rootState: () => (root ? stateName(root.getSnapshot().value) : 'closed'),
    async send(event) {
      engine.send(event);
      await settle();
    },
    async sendTo(id, event) {
      (child(id).send as (e: ReaderEngineChildEvent<typeof id>) => void)(event);
      await settle();
    },
    settle,
    async advance(ms) {
      for (let left = ms; left > 0; left -= STEP_MS) {
        clock.increment(Math.min(STEP_MS, left));
        await settle();
      }
    },
    snapshot,
    player: () => connectPlayer(snapshot().player, (e) => child('player').send(e)),
    column(slot) {
      const view = snapshot()[slot];
      return { ...connectReaderColumn(view.column, (e) => child(`column.${slot}`).send(e)), text: view.passage?.text ?? null, position: view.passage?.position ?? null };
    },
    session: () => connectReadingSession(snapshot().session, (e) => child('session').send(e)),
    reading: () => connectHighlightDecode(snapshot().highlightDecode, (e) => child('highlightDecode').send(e)),
    classCode: () => connectClassCode(snapshot().classCode, (e) => child('classCode').send(e)),
    premiumDialog: () => connectPremiumDialog(snapshot().premiumDialog, (e) => child('premiumDialog').send(e)),
    toasts: () => snapshot().toasts.context.toasts.map((t) => t.message),
    stored: (name) => settings.get(name),
    tracked: () => analytics.events.map((e) => e.event),
    trackedWith: (name) => analytics.events.filter((e) => e.event === name).map((e) => e.properties ?? {}),
    signIn(features) {
      server.user = { features };
    },
    stop: () => engine.stop(),
  };
}
