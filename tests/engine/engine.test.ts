/** The engine in plain Node against the real API server (in-process, on PGlite), with test doubles only at the ports. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/client';
import { createReaderEngine, type ReaderEngine, type ReaderEngineSnapshot } from '../../src/engine/createReaderEngine';
import { createMemoryStorage } from '../../src/engine/settings';
import { TRACKED_EVENTS, type NavigationPort } from '../../src/engine/ports';
import { createManualClock, createMemoryAnalytics, systemClock } from '../../src/adapters/common';
import { connectReadingSession } from '../../src/machines/readingSession';
import { connectMissingEdition } from '../../src/machines/missingEdition';
import { connectPassageLoading } from '../../src/machines/passageLoading';
import { connectToolbar, TOOLBAR_IDLE_MS } from '../../src/machines/toolbar';
import type { RunningServer } from '../../server/server';
import { startFixtureServer } from '../server/harness';

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer();
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

function makeEngine(overrides: { storage?: ReturnType<typeof createMemoryStorage>; clock?: ReturnType<typeof createManualClock>; start?: string } = {}) {
  const requests: string[] = [];
  const api = createApiClient({
    baseUrl: `${server.url}/api/v1`,
    clientId: () => 'engine-test',
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push((input instanceof Request ? input.url : String(input)).replace(server.url, ''));
      return fetch(input, init);
    }) as typeof fetch,
  });
  const storage = overrides.storage ?? createMemoryStorage();
  const analytics = createMemoryAnalytics();
  const navigation = memoryNavigation(overrides.start ?? '/alpha-owls/v1/read');
  const errors: unknown[] = [];
  const engine = createReaderEngine({
    api,
    storage,
    clock: overrides.clock ?? systemClock,
    analytics,
    navigation,
    logger: { error: (m, d) => void errors.push([m, d]), warn: () => {} },
  });
  engine.start();
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

const session = (engine: ReaderEngine) => connectReadingSession(engine.getSnapshot().session, (e) => engine.send(e));
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
    const s = await until(engine, (x) => connectPassageLoading(x.primary.loading, () => {}).isLoaded);
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
    await new Promise((r) => setTimeout(r, 100));
    expect(requests.some((r) => r.includes('position=2'))).toBe(true);
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
    const s = await until(engine, (x) => connectMissingEdition(x.primary.missing, () => {}).isFailed);
    expect(connectMissingEdition(s.primary.missing, () => {}).error).toEqual({ status: 404, message: 'Passage not found' });
    expect(s.primary.passage).toBeNull();
    engine.stop();
  });

  it('creates a missing edition on demand from its source, then shows it', async () => {
    const { engine } = makeEngine();
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'es', level: 'GOLD' }, position: 2 } });
    const s = await until(engine, (x) => x.primary.passage?.text === '<p>Ven en la noche.</p>');
    expect(connectMissingEdition(s.primary.missing, () => {}).isFailed).toBe(false);
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
    engine.send({ type: 'reader.sync', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 3 } });
    await until(engine, (x) => x.primary.passage?.position === 3);
    expect(engine.getSnapshot().session.context.publication).toBe(publication);
    engine.send({ type: 'reader.sync', request: { slug: 'alpha-owls', version: 'v1', primary: { language: 'es', level: 'ORIGINAL' }, position: 3 } });
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
    const toolbar = () => connectToolbar(engine.getSnapshot().toolbar, (e) => engine.send(e));
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
    engine.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    engine.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
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
    const { engine, analytics } = makeEngine({ clock });
    engine.send({ type: 'url.visited', url: '/catalog' });
    engine.send({ type: 'catalog.viewed' });
    engine.send({ type: 'publication.viewed', slug: 'alpha-owls' });
    engine.send({ type: 'audio.open' });
    engine.send({ type: 'audio.pause' });
    engine.send({ type: 'audio.play' });
    engine.send({ type: 'audio.close' });
    engine.send({ type: 'audio.settingsChanged', playbackSpeed: 1.5 });
    engine.send({ type: 'auth.signedIn' });
    engine.send({ type: 'auth.signedOut' });
    engine.send({ type: 'copy.succeeded' });
    engine.send({ type: 'reader.open', request: { slug: 'alpha-owls', version: 'v1' } });
    await new Promise((r) => setTimeout(r, 300));
    const sent = analytics.events.map((e) => e.event);
    expect([...new Set(sent)].sort()).toEqual([...TRACKED_EVENTS].sort());
    expect(sent.slice(3, 7)).toEqual(['Opened Audio Player', 'Paused Audio', 'Resumed Audio', 'Closed Audio Player']);
    engine.stop();
  });
});
