/**
 * Feature gating on the client (SPEC §2 Reading level dropdown, Dialogs; §5 Reading levels; §6 Feature gates and
 * Content gating; §8 'Premium content'): the engine's column locks, the upgrade dialogs a locked choice opens
 * instead of moving, the license and class-code states, the premium-title redirect, and the listen flow's audio
 * lock. The engine runs in Node; the API, storage, clock, audio and navigation are test doubles at its ports.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import { ApiError } from '../../src/api/errors';
import { failureFromApiError } from '../../src/api/engineApi';

/** An error answer as the engine's api port gives it (src/api/engineApi.ts maps the client's ApiError). */
const apiFailure = (status: number, errors: ConstructorParameters<typeof ApiError>[1]) => failureFromApiError(new ApiError(status, errors));
import { createReaderEngine, type ReaderEngine, type ReaderEngineSnapshot } from '../../src/engine/createReaderEngine';
import { connectPremiumDialog, NO_LOCKS, PREMIUM_FEATURE_MESSAGES } from '../../src/domain/locks';
import type { ApiPort, NavigationPort } from '../../src/engine/ports';
import { createMemoryStorage, createSettingsStore } from '../../src/engine/settings';
import type { PassageAudio, Publication } from '../../src/domain/schemas';
import { languageInfo } from '../../src/domain/languages';
import type { Level } from '../../src/domain/levels';
import { connectHighlightDecode } from '../../src/machines/highlightDecode';
import { connectListenAudio } from '../../src/machines/listenAudio';
import { connectReaderColumn } from '../../src/machines/readerColumn';
import { connectReadingSession } from '../../src/machines/readingSession';
import { connectPlayer } from '../../src/machines/player';
import { edition, fixturePassage, fixturePublication } from '../fixtures/publication';

const ALL = ['AUDIO', 'DECODE', 'GROUP_CODES', 'LANGUAGES', 'LEVELS', 'USER_UPLOAD'];

/** The fixture title with a Portuguese and an Arabic edition, narrated everywhere. */
function gatedPublication(badges: string[] = []): Publication {
  const base = fixturePublication();
  const editions = [...base.editions, edition(4, 'pt', 'ORIGINAL', 4), edition(5, 'ar', 'ORIGINAL', 4)].map((e) => ({
    ...e,
    audioEnabled: true,
    highlightModeEnabled: true,
  }));
  return {
    ...base,
    badges,
    levels: ['GOLD', 'ORIGINAL'],
    languages: ['en', 'es', 'pt', 'ar'].map((c) => languageInfo(c as 'en')),
    editions,
    englishEditions: editions.filter((e) => e.language.code === 'en'),
  };
}

interface Options {
  publication?: Publication;
  /** The gate the server answers for an edition's passages. */
  gateOf?: (editionId: number) => 'licenseRequired' | 'groupCodeRequired' | null;
  publicationError?: Error;
  passageError?: Error;
  audioOnly?: (editionId: number, position: number) => Promise<PassageAudio>;
  /** What the reader saved on an earlier visit. */
  storage?: ReturnType<typeof createMemoryStorage>;
}

function makeEngine(options: Options = {}) {
  const publication = options.publication ?? gatedPublication();
  const calls: string[] = [];
  const api: ApiPort = {
    getPublication: async () => {
      calls.push('publication');
      if (options.publicationError) throw options.publicationError;
      return publication;
    },
    getPassage: async (editionId: number, position: number) => {
      calls.push(`passage ${editionId}:${position}`);
      if (options.passageError) throw options.passageError;
      return fixturePassage(editionId, position, options.gateOf?.(editionId) ?? null);
    },
    getPassageAudio: async (passageId: number) => {
      calls.push(`audio ${passageId}`);
      return { passageId, status: 'ready', audio: { url: `/audio/${passageId}.mp3`, speechMarks: [], duration: 5000 } };
    },
    getAudioOnly: async (editionId: number, position: number) => {
      calls.push(`audioOnly ${editionId}:${position}`);
      if (options.audioOnly) return options.audioOnly(editionId, position);
      return { passageId: editionId * 100 + position, status: 'ready', audio: { url: `/audio/${editionId}-${position}.mp3`, speechMarks: [], duration: 5000 } };
    },
  };
  const history: string[] = ['/fixture/v1/read'];
  const navigation: NavigationPort = {
    push: (p) => void history.push(p),
    replace: (p) => void (history[history.length - 1] = p),
    current: () => history[history.length - 1],
  };
  const errors: unknown[] = [];
  const clock = createManualClock();
  const engine = createReaderEngine({
    api,
    storage: options.storage ?? createMemoryStorage(),
    clock,
    audio: createSilentAudio(clock),
    listenAudio: createSilentAudio(clock),
    analytics: createMemoryAnalytics(),
    navigation,
    logger: { error: (m, d) => void errors.push([m, d]), warn: () => {} },
  });
  engine.start();
  return { engine, calls, history, errors, clock };
}

/** Let the stubbed API answers and the engine's queued actions land. */
async function settle() {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

async function open(engine: ReaderEngine, primary: { language: string; level: Level } = { language: 'en', level: 'ORIGINAL' }, features: string[] | null = null) {
  engine.getChild('access')!.send({ type: 'user.features', features });
  engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary, position: 1 } });
  await settle();
  return engine.getSnapshot();
}

const session = (engine: ReaderEngine) => connectReadingSession(engine.getSnapshot().session, (e) => engine.getChild('session')!.send(e));
const dialog = (s: ReaderEngineSnapshot) => connectPremiumDialog(s.premiumDialog, () => {});

describe('column locks', () => {
  it('an anonymous reader: GOLD locked, Portuguese greyed, Spanish/Arabic free, Arabic narration locked, English free', async () => {
    const { engine } = makeEngine();
    const s = await open(engine);
    expect(s.primary.locks).toEqual({ titleLocked: false, lockedLevels: ['GOLD'], lockedLanguages: ['pt'], audioLocked: false });
    engine.getChild('session')!.send({ type: 'secondary.set', choice: { language: 'ar', level: 'ORIGINAL' } });
    await settle();
    expect(engine.getSnapshot().secondary.locks).toMatchObject({ audioLocked: true, lockedLanguages: ['pt'] });
    engine.stop();
  });

  it('a licensed reader has no locks', async () => {
    const { engine } = makeEngine();
    const s = await open(engine, undefined, ALL);
    expect(s.primary.locks).toEqual(NO_LOCKS);
    engine.stop();
  });

  it('LEVELS alone unlocks levels, not languages or narration', async () => {
    const { engine } = makeEngine();
    const s = await open(engine, { language: 'ar', level: 'ORIGINAL' }, ['LEVELS']);
    expect(s.primary.locks).toEqual({ titleLocked: false, lockedLevels: [], lockedLanguages: ['pt'], audioLocked: true });
    engine.stop();
  });

  it('a premium title locks every level and language without LEVELS', async () => {
    const { engine } = makeEngine({ publication: gatedPublication(['premium']) });
    const s = await open(engine, undefined, ['LANGUAGES', 'AUDIO']);
    expect(s.primary.locks).toMatchObject({ titleLocked: true, lockedLevels: ['GOLD', 'ORIGINAL'], lockedLanguages: ['en', 'es', 'pt', 'ar'] });
    engine.stop();
  });

  it('shows nothing locked until the engine knows who reads (no flash for a licensed reader whose session loads)', async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', position: 1 } });
    await settle();
    expect(engine.getSnapshot().primary.locks).toEqual(NO_LOCKS);
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    expect(engine.getSnapshot().primary.locks.lockedLevels).toEqual(['GOLD']);
    engine.getChild('access')!.send({ type: 'user.features', features: ALL });
    expect(engine.getSnapshot().primary.locks).toEqual(NO_LOCKS);
    engine.stop();
  });

  it('keeps the same locks object while nothing that decides them changes', async () => {
    const { engine } = makeEngine();
    const first = (await open(engine)).primary.locks;
    engine.getChild('toolbar')!.send({ type: 'toolbar.activity' });
    expect(engine.getSnapshot().primary.locks).toBe(first);
    engine.stop();
  });
});

describe('the upgrade dialogs', () => {
  it("a locked level is not chosen: 'Unlock Premium Levels' opens and the reader stays", async () => {
    const { engine, calls } = makeEngine();
    await open(engine);
    const before = calls.length;
    session(engine).changeLevel('primary', 'GOLD');
    await settle();
    const s = engine.getSnapshot();
    expect(session(engine).primary).toEqual({ language: 'en', level: 'ORIGINAL' });
    expect(dialog(s)).toMatchObject({ isOpen: true, title: 'Unlock Premium Levels', message: PREMIUM_FEATURE_MESSAGES.Levels });
    expect(calls.slice(before)).toEqual([]);
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.close' });
    expect(engine.getSnapshot().premiumDialog).toBeNull();
    engine.stop();
  });

  it("a greyed language opens 'Unlock Premium Languages'; a free one is chosen", async () => {
    const { engine } = makeEngine();
    await open(engine);
    session(engine).changeLanguage('primary', 'pt');
    await settle();
    expect(dialog(engine.getSnapshot()).title).toBe('Unlock Premium Languages');
    expect(session(engine).primary?.language).toBe('en');
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.close' });
    session(engine).changeLanguage('primary', 'es');
    await settle();
    expect(session(engine).primary?.language).toBe('es');
    expect(engine.getSnapshot().premiumDialog).toBeNull();
    engine.stop();
  });

  it("a licensed reader changes level and language freely", async () => {
    const { engine } = makeEngine();
    await open(engine, undefined, ALL);
    session(engine).changeLevel('primary', 'GOLD');
    await settle();
    expect(session(engine).primary).toEqual({ language: 'en', level: 'GOLD' });
    session(engine).changeLanguage('primary', 'pt');
    await settle();
    expect(session(engine).primary?.language).toBe('pt');
    expect(engine.getSnapshot().premiumDialog).toBeNull();
    engine.stop();
  });

  it("a premium title offers 'Unlock Premium Novels' for any choice", async () => {
    const { engine } = makeEngine({ publication: gatedPublication(['premium']) });
    await open(engine);
    session(engine).changeLevel('primary', 'GOLD');
    expect(dialog(engine.getSnapshot())).toMatchObject({ title: 'Unlock Premium Novels', message: 'Premium Novels require a School License.' });
    engine.stop();
  });

  it("a locked column's Listen opens 'Unlock Premium Audio' and asks for no narration", async () => {
    const { engine, calls } = makeEngine();
    await open(engine, { language: 'ar', level: 'ORIGINAL' });
    const before = calls.length;
    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    await settle();
    const s = engine.getSnapshot();
    expect(dialog(s).title).toBe('Unlock Premium Audio');
    expect(connectPlayer(s.player, () => {}).isOpen).toBe(false);
    expect(calls.slice(before).filter((c) => c.startsWith('audio'))).toEqual([]);
    engine.stop();
  });

  it("English narration is free: Listen plays without a license", async () => {
    const { engine } = makeEngine();
    await open(engine);
    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    await settle();
    const s = engine.getSnapshot();
    expect(s.premiumDialog).toBeNull();
    expect(connectPlayer(s.player, () => {}).isOpen).toBe(true);
    engine.stop();
  });

  it("decode without DECODE opens 'Unlock Premium Decode' with 'Decode Mode requires a school license.'", async () => {
    const { engine } = makeEngine();
    await open(engine);
    const mode = () => connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e));
    expect(mode().decodeLocked).toBe(true);
    mode().toggleDecode();
    expect(dialog(engine.getSnapshot())).toMatchObject({ title: 'Unlock Premium Decode', message: 'Decode Mode requires a school license.' });
    expect(mode().isDecodeOn).toBe(false);
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.close' });
    // The user's plan arrives with DECODE: decode turns on.
    engine.getChild('access')!.send({ type: 'user.features', features: ['DECODE'] });
    mode().toggleDecode();
    expect(mode().isDecodeOn).toBe(true);
    expect(engine.getSnapshot().premiumDialog).toBeNull();
    engine.stop();
  });

  it('a saved decode mode resumes when DECODE arrives after the reader opened', async () => {
    const storage = createMemoryStorage();
    const saved = createSettingsStore(storage);
    saved.set('readerSettings', { ...saved.get('readerSettings'), decodeEnabled: true });
    const { engine } = makeEngine({ storage });
    engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', position: 1 } });
    await settle();
    const mode = () => connectHighlightDecode(engine.getSnapshot().highlightDecode, (e) => engine.getChild('highlightDecode')!.send(e));
    expect(mode().isDecodeOn).toBe(false);
    engine.getChild('access')!.send({ type: 'user.features', features: ['DECODE'] });
    expect(mode().isDecodeOn).toBe(true);
    // Losing the feature turns it off again.
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    expect(mode().isDecodeOn).toBe(false);
    engine.stop();
  });

  it('closing the reader closes the dialog', async () => {
    const { engine } = makeEngine();
    await open(engine);
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.open', feature: 'Levels' });
    engine.send({ type: 'reader.close' });
    expect(engine.getSnapshot().premiumDialog).toBeNull();
    engine.stop();
  });
});

describe('gated passages', () => {
  it('a licenseRequired passage shows the license state and forces the player closed', async () => {
    const { engine } = makeEngine({ gateOf: (id) => (id === 1 ? 'licenseRequired' : null) });
    const s = await open(engine, { language: 'en', level: 'GOLD' });
    expect(connectReaderColumn(s.primary.column, () => {}).needsLicense).toBe(true);
    expect(s.primary.passage?.text).toBe('');
    expect(connectPlayer(s.player, () => {}).isOpen).toBe(false);
    engine.stop();
  });

  it('a groupCodeRequired passage asks for a class code', async () => {
    const { engine } = makeEngine({ gateOf: () => 'groupCodeRequired' });
    const s = await open(engine);
    expect(connectReaderColumn(s.primary.column, () => {}).needsGroupCode).toBe(true);
    engine.stop();
  });

  it("a 'Premium content' publication error goes to the catalog", async () => {
    const { engine, history } = makeEngine({ publicationError: apiFailure(403, [{ code: 'premium_content', message: 'Premium content' }]) });
    await open(engine);
    expect(history.at(-1)).toBe('/catalog');
    engine.stop();
  });

  it("a 'Premium content' passage error goes to the catalog; another error shows the error panel", async () => {
    const premium = makeEngine({ passageError: apiFailure(403, [{ code: 'premium_content', message: 'Premium content' }]) });
    await open(premium.engine);
    expect(premium.history.at(-1)).toBe('/catalog');
    premium.engine.stop();

    const other = makeEngine({ passageError: apiFailure(503, []) });
    const s = await open(other.engine);
    expect(connectReaderColumn(s.primary.column, () => {}).error?.title).toBe('Unavailable');
    expect(other.history.at(-1)).not.toBe('/catalog');
    other.engine.stop();
  });
});

describe('the listen flow', () => {
  const start = (engine: ReaderEngine, language: string, autoPlay = true) =>
    engine.send({ type: 'listen.start', autoPlay, isLastPage: false, editionId: 3, position: 1, passageCount: 4, audioEnabled: true, language });

  it('locked narration is never fetched: the player says locked, stays paused, and play offers the upgrade', async () => {
    const { engine, calls } = makeEngine();
    engine.getChild('access')!.send({ type: 'user.features', features: null });
    start(engine, 'es');
    await settle();
    const s = engine.getSnapshot();
    expect(s.listenPlayer?.audio).toBe('locked');
    expect(connectListenAudio(s.listenAudio!, () => {}).isPlaying).toBe(false);
    expect(calls.filter((c) => c.startsWith('audioOnly'))).toEqual([]);
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.open', feature: 'Audio' });
    expect(dialog(engine.getSnapshot()).title).toBe('Unlock Premium Audio');
    // A license arrives: the narration is fetched.
    engine.getChild('premiumDialog')!.send({ type: 'premiumDialog.close' });
    engine.getChild('access')!.send({ type: 'user.features', features: ['AUDIO'] });
    await settle();
    expect(engine.getSnapshot().listenPlayer?.audio).toBe('ready');
    expect(calls.filter((c) => c.startsWith('audioOnly'))).toEqual(['audioOnly 3:1']);
    engine.stop();
  });

  it('a 403 license_required on the narration is logged only: not playing, locked, not asked again', async () => {
    const refusal = apiFailure(403, [{ code: 'license_required', message: 'This content requires a School License' }]);
    const { engine, calls, errors } = makeEngine({ audioOnly: () => Promise.reject(refusal) });
    engine.getChild('access')!.send({ type: 'user.features', features: ALL });
    start(engine, 'en');
    await settle();
    const s = engine.getSnapshot();
    expect(s.listenPlayer?.audio).toBe('locked');
    expect(connectListenAudio(s.listenAudio!, () => {}).isPlaying).toBe(false);
    expect(errors).toEqual([['Audio fetch failed', refusal]]);
    engine.getChild('listen')!.send({ type: 'listen.page', position: 2 });
    await settle();
    expect(calls.filter((c) => c.startsWith('audioOnly'))).toEqual(['audioOnly 3:1']);
    engine.stop();
  });

  it('another narration failure stays a failure (logged), and paging asks again', async () => {
    const { engine, calls } = makeEngine({ audioOnly: () => Promise.reject(apiFailure(500, [])) });
    engine.getChild('access')!.send({ type: 'user.features', features: ALL });
    start(engine, 'en', false);
    await settle();
    expect(engine.getSnapshot().listenPlayer?.audio).toBe('failed');
    engine.getChild('listen')!.send({ type: 'listen.page', position: 2 });
    await settle();
    expect(calls.filter((c) => c.startsWith('audioOnly'))).toEqual(['audioOnly 3:1', 'audioOnly 3:2']);
    engine.stop();
  });
});
