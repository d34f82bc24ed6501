/** The engine in plain Node against the real API server (in-process, on PGlite), with test doubles only at the ports. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { createEngineApi } from '../../src/api/engineApi';
import { createReaderEngine, type ReaderEngine, type ReaderEngineSnapshot } from '../../src/engine/createReaderEngine';
import { createMemoryStorage } from '../../src/engine/settings';
import { TRACKED_EVENTS, type AudioPort, type ClipboardPort, type NavigationPort } from '../../src/engine/ports';
import { createManualClock, createMemoryAnalytics, createSilentAudio, systemClock } from '../../src/adapters/common';
import { connectPlayer, playerState } from '../../src/machines/player';
import { connectHighlightDecode } from '../../src/machines/highlightDecode';
import { passagePlainText } from '../../src/domain/sanitize';
import { NARRATION_MAX_POLLS as READER_AUDIO_MAX_POLLS, NARRATION_POLL_MS as READER_AUDIO_POLL_MS } from '../../src/engine/audioActors';
import type { ApiPort } from '../../src/engine/ports';
import { connectReadingSession } from '../../src/machines/readingSession';
import { connectReaderColumn } from '../../src/machines/readerColumn';
import { connectToolbar, TOOLBAR_IDLE_MS } from '../../src/machines/toolbar';
import { PREFETCH_DELAY_MS } from '../../src/machines/readerColumn';
import type { RunningServer } from '../../server/server';
import { licensedTeacher, startFixtureServer } from '../server/harness';
import { CONTENT_TYPES } from '../../src/domain/schemas';

let server: RunningServer;
/** The session cookie of a teacher whose school holds every feature: the reader of the tests that read gated content. */
let licensedCookie: string;
beforeAll(async () => {
  server = await startFixtureServer();
  licensedCookie = (await licensedTeacher(server)).cookie;
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function memoryNavigation(start = '/'): NavigationPort & { history: string[] } {
  const history = [start];
  return {
    history,
    push: (p) => void history.push(p),
    replace: (p) => void (history[history.length - 1] = p),
    current: () => history[history.length - 1],
  };
}

/**
 * An engine on the real API. By default its reader is a signed-in teacher of a licensed school (the session cookie
 * goes with every request, and the engine hears the user's features, as the reader screen tells it); with
 * `anonymous` it is a visitor with no features.
 */
function makeEngine(
  overrides: {
    storage?: ReturnType<typeof createMemoryStorage>;
    clock?: ReturnType<typeof createManualClock>;
    start?: string;
    audio?: AudioPort;
    clipboard?: ClipboardPort;
    anonymous?: boolean;
  } = {},
) {
  const requests: string[] = [];
  const cookie = overrides.anonymous ? null : licensedCookie;
  const api = createApiClient({
    baseUrl: `${server.url}/api/v1`,
    clientId: () => 'engine-test',
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push((input instanceof Request ? input.url : String(input)).replace(server.url, ''));
      if (!cookie) return fetch(input, init);
      const request = new Request(input, init);
      request.headers.set('Cookie', cookie);
      // A browser names the origin of every state-changing request (the server's CSRF check).
      if (request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('Origin', server.url);
      return fetch(request);
    }) as typeof fetch,
  });
  const storage = overrides.storage ?? createMemoryStorage();
  const analytics = createMemoryAnalytics();
  const navigation = memoryNavigation(overrides.start ?? '/alpha-owls/v1/read');
  const errors: unknown[] = [];
  const engine = createReaderEngine({
    api: createEngineApi(api),
    storage,
    clock: overrides.clock ?? systemClock,
    audio: overrides.audio,
    analytics,
    navigation,
    clipboard: overrides.clipboard,
    logger: { error: (m, d) => void errors.push([m, d]), warn: () => {} },
  });
  engine.start();
  engine.getChild('access')!.send({ type: 'user.features', features: overrides.anonymous ? null : [...CONTENT_TYPES] });
  return { engine, storage, analytics, navigation, requests, errors };
}

function until(engine: ReaderEngine, predicate: (s: ReaderEngineSnapshot) => boolean, ms = 5000): Promise<ReaderEngineSnapshot> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = engine.getSnapshot();
      if (predicate(s)) {
        off();
        clearTimeout(timer);
        resolve(s);
      }
    };
    const off = engine.subscribe(check);
    const timer = setTimeout(() => {
      off();
      reject(new Error('timed out waiting for the engine'));
    }, ms);
    check();
  });
}

const session = (engine: ReaderEngine) => connectReadingSession(engine.getSnapshot().session, (e) => engine.getChild('session')!.send(e));
const text = (s: ReaderEngineSnapshot) => s.primary.passage?.text ?? '';

// Throughout: no test leaves a browser global behind.
afterEach(() => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
});

describe('the engine runs headless', () => {
  it('has no window or document anywhere', () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
  });
});

describe('reading a publication through the engine', () => {
  it('opens a publication on its default edition, shows passage 1 and tracks the view', async () => {
    const { engine, analytics, navigation, storage } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    const s = await until(engine, (x) => connectReaderColumn(x.primary.column, () => {}).isLoaded);
    expect(text(s)).toBe('<p>Owls hunt at night with silent wings.</p>');
    expect(session(engine)).toMatchObject({ position: 1, primary: { language: 'en', level: 'ORIGINAL' }, canGoPrevious: false, canGoNext: true });
    expect(s.primary.passage?.sectionName).toBe('Chapter 1');
    await Promise.resolve();
    expect(navigation.current()).toBe('/alpha-owls/v1/en:original/1');
    expect(analytics.events.map((e) => e.event)).toContain('Viewed Passage');
    expect(JSON.parse(storage.getItem('lectern.v1.lastPassages')!)['alpha-owls']).toMatchObject({ language: 'en', level: 'ORIGINAL', position: 1 });
    engine.stop();
  });

  it('keeps the query string when it rewrites the address to the canonical reader path', async () => {
    const { engine, navigation } = makeEngine({ start: '/alpha-owls/v1/read?playbackSpeed=1.5' });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    await Promise.resolve();
    expect(navigation.current()).toBe('/alpha-owls/v1/en:original/1?playbackSpeed=1.5');
    session(engine).next();
    await until(engine, (x) => x.primary.passage?.position === 2);
    await Promise.resolve();
    expect(navigation.current()).toBe('/alpha-owls/v1/en:original/2?playbackSpeed=1.5');
    engine.stop();
  });

  it('pages forward and back, prefetching the neighbours', async () => {
    const { engine, requests, navigation } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    await vi.waitFor(() => expect(requests.some((r) => r.includes('position=2'))).toBe(true));
    session(engine).next();
    let s = await until(engine, (x) => x.primary.passage?.position === 2);
    expect(text(s)).toBe('<p>They see well in the dark.</p>');
    session(engine).next();
    s = await until(engine, (x) => x.primary.passage?.position === 3);
    expect(session(engine).canGoNext).toBe(false);
    expect(session(engine).currentShortcut?.name).toBe('Chapter 2');
    session(engine).next();
    expect(session(engine).position).toBe(3);
    session(engine).previous();
    s = await until(engine, (x) => x.primary.passage?.position === 2);
    await Promise.resolve();
    expect(navigation.current()).toBe('/alpha-owls/v1/en:original/2');
    const passageRequests = requests.filter((r) => r.startsWith('/api/v1/passages'));
    expect(new Set(passageRequests).size).toBe(passageRequests.length);
    engine.stop();
  });

  it('shows a prefetched passage within the event that turns the page (no promise in between)', async () => {
    const { engine, requests } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    // Let the neighbour's prefetch go out, and land.
    await vi.waitFor(() => expect(requests.some((r) => r.includes('position=2'))).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    const locks = engine.getSnapshot().primary.locks;
    session(engine).next();
    // Synchronously, before any promise settles: the snapshot already shows passage 2.
    expect(engine.getSnapshot().primary.passage?.position).toBe(2);
    expect(text(engine.getSnapshot())).toBe('<p>They see well in the dark.</p>');
    // The column's locks did not change, and are the same object: their views need not render again.
    expect(engine.getSnapshot().primary.locks).toBe(locks);
    // Its neighbour, not yet fetched, is asked for in the background.
    await until(engine, () => requests.some((r) => r.includes('position=3')));
    engine.stop();
  });

  it('asks for the neighbours PREFETCH_DELAY_MS after a turn (on the clock port), not within the key press', async () => {
    const clock = createManualClock();
    const { engine, requests } = makeEngine({ clock });
    const asked = (position: number) => requests.some((r) => r.includes(`position=${position}`));
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked(2)).toBe(false);
    clock.advance(PREFETCH_DELAY_MS - 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked(2)).toBe(false);
    clock.advance(1);
    await vi.waitFor(() => expect(asked(2)).toBe(true));
    // Once passage 2 has landed in the cache, the turn shows it within its event; passage 3 waits for the clock.
    await new Promise((r) => setTimeout(r, 100));
    session(engine).next();
    expect(engine.getSnapshot().primary.passage?.position).toBe(2);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked(3)).toBe(false);
    clock.advance(PREFETCH_DELAY_MS);
    await vi.waitFor(() => expect(asked(3)).toBe(true));
    engine.stop();
  });

  it('changes language and level, keeping the position', async () => {
    const { engine, navigation } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', position: 2 } });
    await until(engine, (x) => x.primary.passage?.position === 2);
    session(engine).changeLanguage('primary', 'ar');
    let s = await until(engine, (x) => x.primary.passage?.text.includes('ترى') ?? false);
    expect(session(engine).primary).toEqual({ language: 'ar', level: 'ORIGINAL' });
    session(engine).changeLevel('primary', 'GOLD');
    s = await until(engine, (x) => x.primary.passage?.text === '<p>Owls see in the dark.</p>');
    expect(session(engine).primary).toEqual({ language: 'en', level: 'GOLD' });
    expect(s.session.context.recentLanguages[0]).toBe('ar');
    await Promise.resolve();
    expect(navigation.current()).toBe('/alpha-owls/v1/en:gold/2');
    engine.stop();
  });

  it("shows 'Passage not found' for an edition that does not exist and cannot be created", async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'ru', level: 'GOLD' } } });
    const s = await until(engine, (x) => connectReaderColumn(x.primary.column, () => {}).creationFailed);
    expect(connectReaderColumn(s.primary.column, () => {}).missingError).toEqual({ status: 404, message: 'Passage not found' });
    expect(s.primary.passage).toBeNull();
    engine.stop();
  });

  it('creates a missing edition on demand from its source, then shows it', async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'es', level: 'GOLD' }, position: 2 } });
    const s = await until(engine, (x) => x.primary.passage?.text === '<p>Ven en la noche.</p>');
    expect(connectReaderColumn(s.primary.column, () => {}).creationFailed).toBe(false);
    expect(s.session.context.publication?.editions.some((e) => e.language.code === 'es' && e.level === 'GOLD')).toBe(true);
    engine.stop();
  });

  it('can be stopped while requests are in flight, without errors afterwards', async () => {
    const { engine, errors } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    engine.stop();
    await new Promise((r) => setTimeout(r, 200));
    expect(errors).toEqual([]);
  });

  it('follows the address: only a new position pages, a new edition reopens', async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    const publication = engine.getSnapshot().session.context.publication;
    engine.getChild('session')!.send({ type: 'reader.sync', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 3 } });
    await until(engine, (x) => x.primary.passage?.position === 3);
    expect(engine.getSnapshot().session.context.publication).toBe(publication);
    engine.getChild('session')!.send({ type: 'reader.sync', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'es', level: 'ORIGINAL' }, position: 3 } });
    const s = await until(engine, (x) => x.primary.passage?.text === '<p>Llega la mañana.</p>');
    expect(s.session.context.primary).toEqual({ language: 'es', level: 'ORIGINAL' });
    engine.stop();
  });

  it('moves a position past the end to the last passage', async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'en', level: 'GOLD' }, position: 40 } });
    const s = await until(engine, (x) => x.primary.passage !== null);
    expect(s.primary.passage?.position).toBe(3);
    expect(session(engine).position).toBe(3);
    engine.stop();
  });

  it('leaves for the catalog when the publication does not exist', async () => {
    const { engine, navigation } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'no-such-book' } });
    await until(engine, (x) => x.session.matches('unavailable'));
    expect(navigation.current()).toBe('/catalog');
    expect(session(engine).error).toEqual({ status: 404, message: 'Publication not found' });
    engine.stop();
  });

  it('reopens at the stored position and editions, and falls back to the default when they are gone', async () => {
    const storage = createMemoryStorage();
    const first = makeEngine({ storage });
    first.engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'es', level: 'ORIGINAL' }, position: 3 } });
    await until(first.engine, (x) => x.primary.passage?.position === 3);
    await Promise.resolve();
    first.engine.stop();

    const second = makeEngine({ storage });
    second.engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' }, useStoredPosition: true });
    const s = await until(second.engine, (x) => x.primary.passage !== null);
    expect(session(second.engine)).toMatchObject({ position: 3, primary: { language: 'es', level: 'ORIGINAL' } });
    expect(text(s)).toBe('<p>Llega la mañana.</p>');
    second.engine.stop();

    // An old stored form (editionSlug) for an edition that no longer exists falls back to the default reader.
    storage.setItem('lectern.v1.lastPassages', JSON.stringify({ 'alpha-owls': { editionSlug: 'fil-SILVER', position: 2 } }));
    const third = makeEngine({ storage });
    third.engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' }, useStoredPosition: true });
    await until(third.engine, (x) => x.primary.passage !== null);
    expect(session(third.engine)).toMatchObject({ position: 2, primary: { language: 'en', level: 'ORIGINAL' } });
    third.engine.stop();
  });
});

describe('engine timers run on the clock port', () => {
  it('hides the toolbar after inactivity and brings it back on activity', () => {
    const clock = createManualClock();
    const { engine } = makeEngine({ clock });
    const toolbar = () => connectToolbar(engine.getSnapshot().toolbar, (e) => engine.getChild('toolbar')!.send(e));
    expect(toolbar().isVisible).toBe(true);
    clock.advance(TOOLBAR_IDLE_MS - 1);
    expect(toolbar().isVisible).toBe(true);
    toolbar().activity();
    clock.advance(TOOLBAR_IDLE_MS - 1);
    expect(toolbar().isVisible).toBe(true);
    clock.advance(1);
    expect(toolbar().isVisible).toBe(false);
    toolbar().activity();
    expect(toolbar().isVisible).toBe(true);
    engine.stop();
  });

  it('shows a toast for 2 s, without duplicates', () => {
    const clock = createManualClock();
    const { engine } = makeEngine({ clock });
    engine.getChild('toasts')!.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    engine.getChild('toasts')!.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    expect(engine.getSnapshot().toasts.context.toasts.map((t) => t.message)).toEqual(['Class Code Accepted']);
    clock.advance(1999);
    expect(engine.getSnapshot().toasts.context.toasts).toHaveLength(1);
    clock.advance(1);
    expect(engine.getSnapshot().toasts.context.toasts).toHaveLength(0);
    engine.stop();
  });
});

describe('analytics', () => {
  it('sends every tracked event of SPEC §4 through the analytics port', async () => {
    const clock = createManualClock();
    const { engine, analytics } = makeEngine({ clock, clipboard: { writeText: async () => {} } });
    engine.send({ type: 'url.visited', url: '/catalog' });
    engine.send({ type: 'catalog.viewed' });
    engine.send({ type: 'publication.viewed', slug: 'alpha-owls' });
    engine.getChild('player')!.send({ type: 'audio.open' });
    engine.getChild('player')!.send({ type: 'audio.pause' });
    engine.getChild('player')!.send({ type: 'audio.play' });
    engine.getChild('player')!.send({ type: 'audio.close' });
    engine.getChild('player')!.send({ type: 'audio.speed', speed: 1.5 });
    engine.send({ type: 'auth.signedIn' });
    engine.send({ type: 'auth.signedOut' });
    engine.getChild('copyLink')!.send({ type: 'copy.request', text: 'https://lectern.test/c/abcd1234' });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    // 'Viewed Passage' follows the fake API's answers: wait for it (a condition, not a fixed time, so a busy machine
    // does not fail the test), at most 5 s.
    for (let waited = 0; waited < 5000 && !analytics.events.some((e) => e.event === 'Viewed Passage'); waited += 10) await new Promise((r) => setTimeout(r, 10));
    const sent = analytics.events.map((e) => e.event);
    expect([...new Set(sent)].sort()).toEqual([...TRACKED_EVENTS].sort());
    expect(sent.slice(3, 7)).toEqual(['Opened Audio Player', 'Paused Audio', 'Resumed Audio', 'Closed Audio Player']);
    engine.stop();
  });

  it("says what plays, and on 'Paused Audio' and 'Closed Audio Player' how many seconds were heard", async () => {
    const clock = createManualClock();
    const audio = recordingAudio(clock, 30);
    const { engine, analytics } = makeEngine({ clock, audio: audio.port });
    const player = () => connectPlayer(engine.getSnapshot().player, (e) => engine.getChild('player')!.send(e));
    // Passage 2: the player test below asks for passage 1's narration itself, so this one must not make it first.
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', position: 2 } });
    const opened = await until(engine, (x) => x.primary.passage?.position === 2);
    const editionId = opened.primary.passage!.editionId;
    const viewed = analytics.events.find((e) => e.event === 'Viewed Passage');
    expect(viewed?.properties).toMatchObject({ slug: 'alpha-owls', editionId, position: 2 });

    player().open();
    // The narration may be made while we wait: its 202s are asked again on the (manual) clock.
    for (let waited = 0; waited < 20_000 && engine.getSnapshot().readerPlayer?.status !== 'ready'; waited += 50) {
      clock.advance(READER_AUDIO_POLL_MS);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(engine.getSnapshot().readerPlayer?.status).toBe('ready');
    clock.advance(3000);
    player().pause();
    clock.advance(5000);
    player().play();
    clock.advance(2000);
    player().close();
    const audioEvents = analytics.events.filter((e) => /Audio/.test(e.event));
    expect(audioEvents.map((e) => [e.event, e.properties?.seconds])).toEqual([
      ['Opened Audio Player', undefined],
      ['Paused Audio', 3],
      ['Resumed Audio', undefined],
      ['Closed Audio Player', 2],
    ]);
    for (const e of audioEvents) expect(e.properties).toMatchObject({ slug: 'alpha-owls', editionId, position: 2 });
    engine.stop();
  }, 30_000);
});

/** A silent audio (clock-driven) that records what the engine asked of it. */
function recordingAudio(clock = systemClock, seconds = 30) {
  const audio = createSilentAudio(clock, () => seconds);
  const calls: string[] = [];
  const rates: number[] = [];
  const wrap = <K extends keyof AudioPort>(name: K, fn: AudioPort[K]) =>
    ((...args: unknown[]) => {
      calls.push(args.length ? `${name}(${args.map(String).join(',')})` : name);
      if (name === 'setRate') rates.push(args[0] as number);
      return (fn as (...a: unknown[]) => unknown)(...args);
    }) as AudioPort[K];
  const port: AudioPort = {
    ...audio,
    load: wrap('load', audio.load),
    play: wrap('play', audio.play),
    pause: wrap('pause', audio.pause),
    seek: wrap('seek', audio.seek),
    setRate: wrap('setRate', audio.setRate),
  };
  return { port, calls, rates, loads: () => calls.filter((c) => c.startsWith('load(')) };
}

describe('the reader audio player (SPEC §4 Audio control state, Highlight)', () => {
  const player = (engine: ReaderEngine) => connectPlayer(engine.getSnapshot().player, (e) => engine.getChild('player')!.send(e));

  it('opens, fetches the narration through the API, merges it into the passage, plays, pauses and ends', async () => {
    const audio = recordingAudio(systemClock, 0.4);
    const { engine, requests, storage } = makeEngine({ audio: audio.port });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    expect(player(engine).label).toBe('Closed');
    expect(engine.getSnapshot().readerPlayer).toMatchObject({ slot: 'primary', currentTime: 0 });
    expect(audio.loads()).toEqual([]);

    player(engine).open();
    expect(player(engine).label).toBe('Now Playing');
    const s = await until(engine, (x) => x.readerPlayer?.status === 'ready', 20_000);
    expect(requests.some((r) => /\/passages\/\d+\/audio\?editionId=\d+/.test(r))).toBe(true);
    // The narration is merged into the shown (and cached) passage: its url and a mark per word of the plain text.
    const passage = s.primary.passage!;
    expect(passage.audio?.url).toMatch(/^\/audio\/.+\.mp3$/);
    const plain = passagePlainText(passage.text);
    expect(passage.audio!.speechMarks.map((m) => plain.slice(m.offset).split(/\s/)[0])).toEqual(['Owls', 'hunt', 'at', 'night', 'with', 'silent', 'wings.']);
    expect(audio.loads()).toEqual([`load(${passage.audio!.url})`]);
    expect(audio.calls).toContain('play');
    expect(audio.rates.at(-1)).toBe(1);
    // The player shows the audio's own length, reported as soon as it plays.
    expect(engine.getSnapshot().readerPlayer.duration).toBeCloseTo(0.4);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!)).toMatchObject({ audioControlState: 'playing', editionSelected: 'primary' });

    // The audio time moves while playing, and stops moving when paused.
    await new Promise((r) => setTimeout(r, 120));
    const t1 = engine.getAudioTime();
    expect(t1).toBeGreaterThan(0.05);
    player(engine).pause();
    expect(audio.calls.at(-1)).toBe('pause');
    const t2 = engine.getAudioTime();
    await new Promise((r) => setTimeout(r, 60));
    expect(engine.getAudioTime()).toBe(t2);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!).audioControlState).toBe('paused');

    // Played to its end, the audio reaches the machine: Now Playing becomes Paused, with no 'Paused Audio' tracked.
    player(engine).play();
    await until(engine, (x) => playerState(x.player) === 'paused', 3000);
    expect(engine.getAudioTime()).toBeCloseTo(0.4);
    engine.stop();
  }, 30_000);

  it('paging loads the next passage from 0, and the player keeps playing', async () => {
    const audio = recordingAudio(systemClock, 30);
    const { engine, storage } = makeEngine({ audio: audio.port });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    player(engine).open();
    await until(engine, (x) => x.readerPlayer?.status === 'ready', 20_000);
    await new Promise((r) => setTimeout(r, 100));
    engine.getChild('player')!.send({ type: 'audio.seek', seconds: 12 });
    expect(engine.getAudioTime()).toBeGreaterThanOrEqual(12);
    await until(engine, (x) => x.readerPlayer?.currentTime === 12);

    session(engine).next();
    const s = await until(engine, (x) => x.primary.passage?.position === 2 && x.readerPlayer?.status === 'ready', 20_000);
    expect(engine.getAudioTime()).toBeLessThan(1);
    expect(s.readerPlayer?.currentTime).toBe(0);
    expect(audio.loads().at(-1)).toBe(`load(${s.primary.passage!.audio!.url})`);
    expect(player(engine).isPlaying).toBe(true);
    expect(audio.calls.filter((c) => c === 'play').length).toBe(2);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!).currentTime).toBe(0);
    engine.stop();
  }, 40_000);

  it('applies the playbackSpeed query parameter on open, saves a chosen speed per edition and keeps the address in step', async () => {
    const audio = recordingAudio();
    const detail = await (await fetch(`${server.url}/api/v1/publications/alpha-owls`)).json();
    const en = detail.editions.find((e: { language: { code: string }; level: string }) => e.language.code === 'en' && e.level === 'ORIGINAL').id;
    const { engine, storage, navigation, analytics } = makeEngine({ audio: audio.port, start: `/alpha-owls/v1/read?playbackSpeed=${en}:1.5,999:9` });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!).playbackSpeed).toEqual({ [en]: 1.5 });
    expect(engine.getSnapshot().readerPlayer?.speed).toBe(1.5);
    player(engine).open();
    await until(engine, (x) => x.readerPlayer?.status === 'ready', 20_000);
    expect(audio.rates.at(-1)).toBe(1.5);

    engine.getChild('player')!.send({ type: 'audio.speed', speed: 0.75 });
    expect(audio.rates.at(-1)).toBe(0.75);
    expect(engine.getSnapshot().readerPlayer?.speed).toBe(0.75);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!).playbackSpeed).toEqual({ [en]: 0.75 });
    expect(navigation.current()).toBe(`/alpha-owls/v1/en:original/1?playbackSpeed=${en}:0.75`);
    expect(analytics.events.filter((e) => e.event === 'Changed Audio Settings')).toHaveLength(1);
    // A speed the spec does not list is refused.
    engine.getChild('player')!.send({ type: 'audio.speed', speed: 3 });
    expect(engine.getSnapshot().readerPlayer?.speed).toBe(0.75);
    engine.stop();

    // 'default' resets every saved speed.
    const again = makeEngine({ audio: recordingAudio().port, storage, start: '/alpha-owls/v1/read?playbackSpeed=default' });
    again.engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(again.engine, (x) => x.primary.passage?.position === 1);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!).playbackSpeed).toEqual({});
    expect(again.engine.getSnapshot().readerPlayer?.speed).toBe(1);
    // Saved settings exist now, so the player starts Paused (SPEC §4).
    expect(player(again.engine).label).toBe('Paused');
    again.engine.stop();
  }, 40_000);

  it('the Listen toggle of a column plays that edition with highlight; both columns can play', async () => {
    const audio = recordingAudio();
    const { engine, storage } = makeEngine({ audio: audio.port });
    // The second column shows (and so may play) on a wide screen only.
    engine.send({ type: 'viewport.changed', wide: true });
    engine.send({
      type: 'reader.open',
      request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, secondary: { language: 'es', level: 'ORIGINAL' } },
    });
    await until(engine, (x) => x.primary.passage?.position === 1 && x.secondary.passage?.position === 1);
    engine.getChild('column.secondary')!.send({ type: 'audio.listen', on: true });
    // The player has the narration, and the column that shows its passage the speech marks it hands on.
    let s = await until(engine, (x) => x.readerPlayer?.slot === 'secondary' && x.readerPlayer.status === 'ready' && x.secondary.passage?.audio != null, 20_000);
    expect(connectHighlightDecode(s.highlightDecode, () => {}).isHighlightOn).toBe(true);
    expect(s.secondary.passage!.audio!.speechMarks.length).toBeGreaterThan(0);
    expect(audio.loads().at(-1)).toBe(`load(${s.secondary.passage!.audio!.url})`);
    expect(JSON.parse(storage.getItem('lectern.v1.audioSettings')!)).toMatchObject({ editionSelected: 'secondary', highlight: true });

    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    s = await until(engine, (x) => x.readerPlayer?.slot === 'primary' && x.readerPlayer.status === 'ready', 20_000);
    expect(audio.loads().at(-1)).toBe(`load(${s.primary.passage!.audio!.url})`);
    expect(player(engine).isPlaying).toBe(true);

    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: false });
    expect(player(engine).label).toBe('Closed');
    expect(audio.loads().at(-1)).toBe('load(null)');

    // Leaving the reader while playing pauses: nothing plays on the catalog.
    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    expect(player(engine).isPlaying).toBe(true);
    engine.send({ type: 'reader.close' });
    expect(player(engine).label).toBe('Paused');
    // After the last play: paused and unloaded (the playback actor's stop pauses, after the unload).
    const lastPlay = audio.calls.lastIndexOf('play');
    expect(audio.calls.slice(lastPlay)).toContain('load(null)');
    expect(audio.calls.at(-1)).toMatch(/^(pause|load\(null\)|setRate\(1\))$/);
    expect(audio.calls.slice(lastPlay)).toContain('pause');
    expect(engine.getAudioTime()).toBe(0);
    engine.stop();
  }, 40_000);

  it('highlight with the player closed requests the speech marks and stores them into the cached passage', async () => {
    const storage = createMemoryStorage();
    storage.setItem('lectern.v1.audioSettings', JSON.stringify({ audioControlState: 'closed', autoPlay: false, currentTime: 0, editionSelected: 'primary', highlight: true, playbackSpeed: {} }));
    const { engine, requests } = makeEngine({ storage, audio: recordingAudio().port });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', position: 3 } });
    const s = await until(engine, (x) => x.primary.passage?.position === 3 && Boolean(x.primary.passage.audio?.speechMarks.length), 20_000);
    expect(connectHighlightDecode(s.highlightDecode, () => {}).isHighlightOn).toBe(true);
    expect(s.highlightDecode.context.hasSpeechMarks).toBe(true);
    expect(requests.filter((r) => r.includes('/audio?')).length).toBe(1);
    engine.stop();
  }, 30_000);
});

describe('the reader audio asks again while the narration is being generated', () => {
  function stubApi(generating: number, real: ReturnType<typeof createApiClient>) {
    let asked = 0;
    const api: ApiPort = {
      getPublication: real.getPublication,
      // As a server that has not narrated the passage yet answers it: without audio.
      getPassage: async (...args: Parameters<typeof real.getPassage>) => ({ ...(await real.getPassage(...args)), audio: null }),
      getPassageAudio: async (passageId: number) => {
        asked++;
        if (asked <= generating) return { passageId, status: 'generating' as const };
        return { passageId, status: 'ready' as const, audio: { url: `/audio/x${passageId}.mp3`, speechMarks: [{ offset: 0, time: 50 }], duration: 5000 } };
      },
    };
    return { api, asked: () => asked };
  }

  async function run(generating: number) {
    const real = createApiClient({ baseUrl: `${server.url}/api/v1`, clientId: () => 'engine-test' });
    const clock = createManualClock();
    const { api, asked } = stubApi(generating, real);
    const errors: unknown[] = [];
    const engine = createReaderEngine({
      api,
      storage: createMemoryStorage(),
      clock,
      audio: createSilentAudio(clock, () => 5),
      analytics: createMemoryAnalytics(),
      logger: { error: (m, d) => void errors.push([m, d]), warn: () => {} },
    });
    engine.start();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await until(engine, (x) => x.primary.passage?.position === 1);
    engine.getChild('player')!.send({ type: 'audio.open' });
    const flush = async () => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };
    for (let i = 0; i < READER_AUDIO_MAX_POLLS + 2; i++) {
      await flush();
      clock.advance(READER_AUDIO_POLL_MS);
    }
    await flush();
    return { engine, asked: asked(), errors };
  }

  it('polls through 202s on the clock port until ready', async () => {
    const { engine, asked, errors } = await run(3);
    expect(asked).toBe(4);
    expect(engine.getSnapshot().readerPlayer).toMatchObject({ status: 'ready', duration: 5 });
    expect(errors).toEqual([]);
    engine.stop();
  });

  it('gives up after READER_AUDIO_MAX_POLLS and logs the failure only', async () => {
    const { engine, asked, errors } = await run(Infinity);
    expect(asked).toBe(READER_AUDIO_MAX_POLLS);
    expect(engine.getSnapshot().readerPlayer?.status).toBe('failed');
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as [string])[0])).toBe('Audio fetch failed');
    expect(connectPlayer(engine.getSnapshot().player, () => {}).label).toBe('Now Playing');
    engine.stop();
  });
});
