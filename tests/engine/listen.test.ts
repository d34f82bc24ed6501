/**
 * The listen flow end to end inside the engine (SPEC §4 Audio control state: listen flow): the listen-audio
 * machine (src/machines/listenFlow) run by the engine, with test doubles only at the ports — a manual clock, a silent clock-driven
 * audio, a memory navigation and an API double that answers 'generating' before 'ready' like the server does.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import { createReaderEngine, type ReaderEngine } from '../../src/engine/createReaderEngine';
import { NARRATION_MAX_POLLS as LISTEN_AUDIO_MAX_POLLS, NARRATION_POLL_MS as LISTEN_AUDIO_POLL_MS } from '../../src/engine/audioActors';
import type { ApiPort, NavigationPort } from '../../src/engine/ports';
import { createMemoryStorage } from '../../src/engine/settings';
import { connectListenAudio, LISTEN_AUTO_ADVANCE_DELAY_MS, LISTEN_NEXT_AUDIO_TIMEOUT_MS } from '../../src/machines/listenAudio';
import { AUDIO_TICK_MS } from '../../src/domain/constants';
import type { PassageAudio } from '../../src/domain/schemas';

const EDITION = 41;
const BASE = '/listen/fox/v1/en-GOLD';
/** Each passage's narration lasts 20 s in these tests. */
const SECONDS = 20;

/** Let resolved promises and queued microtasks run. */
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

interface Options {
  /** How many 'generating' answers a position gets before 'ready'; Infinity never gets ready. */
  generating?: (position: number) => number;
  /** Positions whose request fails. */
  failing?: number[];
  /** The audio refuses to start, as a browser does without a user gesture. */
  refusePlay?: boolean;
}

function setup(options: Options = {}) {
  const clock = createManualClock(1_000_000);
  const audio = createSilentAudio(clock, () => SECONDS);
  const loaded: (string | null)[] = [];
  const load = audio.load.bind(audio);
  audio.load = (url) => {
    loaded.push(url);
    load(url);
  };
  if (options.refusePlay) audio.play = () => Promise.reject(Object.assign(new Error('play() needs a gesture'), { name: 'NotAllowedError' }));
  const requests: number[] = [];
  const asked = new Map<number, number>();
  const api: ApiPort = {
    getPublication: () => Promise.reject(new Error('not used')),
    getPassage: () => Promise.reject(new Error('not used')),
    getAudioOnly: async (editionId: number, position: number): Promise<PassageAudio> => {
      expect(editionId).toBe(EDITION);
      requests.push(position);
      if (options.failing?.includes(position)) throw new Error('Network down');
      const n = (asked.get(position) ?? 0) + 1;
      asked.set(position, n);
      if (n <= (options.generating?.(position) ?? 0)) return { passageId: 100 + position, status: 'generating' };
      return { passageId: 100 + position, status: 'ready', audio: { url: `/audio/p${position}.mp3`, speechMarks: [], duration: SECONDS * 1000 } };
    },
  };
  const history: string[] = [];
  const navigation: NavigationPort = { push: (p) => void history.push(p), replace: (p) => void history.push(p), current: () => history.at(-1) ?? '/' };
  const errors: { message: string; details: unknown }[] = [];
  const storage = createMemoryStorage();
  const analytics = createMemoryAnalytics();
  const engine = createReaderEngine({
    api,
    storage,
    clock,
    listenAudio: audio,
    analytics,
    navigation,
    logger: { error: (message, details) => void errors.push({ message, details }), warn: () => {} },
  });
  engine.start();
  /** Move the clock, letting API answers land between timers. */
  const advance = async (ms: number, step = 250) => {
    await flush();
    for (let done = 0; done < ms; done += step) {
      clock.advance(Math.min(step, ms - done));
      await flush();
    }
  };
  return { engine, clock, audio, loaded, requests, history, errors, advance, storage, analytics, flush };
}

const listen = (engine: ReaderEngine) => connectListenAudio(engine.getSnapshot().listenAudio!, (e) => engine.getChild('listen')!.send(e));
const label = (engine: ReaderEngine) => listen(engine).label;
const player = (engine: ReaderEngine) => engine.getSnapshot().listenPlayer!;

function start(engine: ReaderEngine, position: number, autoPlay: boolean, passageCount = 8) {
  engine.send({ type: 'listen.start', autoPlay, isLastPage: position >= passageCount, editionId: EDITION, position, passageCount, basePath: BASE });
}

describe('listen flow', () => {
  it("the Auto-play switch saves autoPlay in the audio settings and tracks 'Changed Audio Settings' (SPEC §3, §4)", async () => {
    const t = setup();
    start(t.engine, 2, false);
    await t.flush();
    const stored = () => Object.entries(t.storage.dump()).find(([key]) => key.endsWith('audioSettings'))?.[1];
    expect(stored()).toBeUndefined();
    const changes = () => t.analytics.events.filter((e) => e.event === 'Changed Audio Settings');

    listen(t.engine).setAutoPlay(true);
    await t.flush();
    expect(listen(t.engine).autoPlay).toBe(true);
    expect(JSON.parse(stored()!)).toMatchObject({ autoPlay: true });
    expect(changes()).toEqual([{ event: 'Changed Audio Settings', properties: { autoPlay: true } }]);

    listen(t.engine).setAutoPlay(false);
    await t.flush();
    expect(JSON.parse(stored()!)).toMatchObject({ autoPlay: false });
    expect(changes().map((e) => e.properties?.autoPlay)).toEqual([true, false]);
    // The switch is not the player: nothing started playing.
    expect(label(t.engine)).toBe('Paused');
  });

  it('plays the narration once the server has made it, polling while it answers generating', async () => {
    const t = setup({ generating: (p) => (p === 3 ? 2 : 0) });
    start(t.engine, 3, true);
    expect(label(t.engine)).toBe('Now Playing');
    expect(player(t.engine)).toMatchObject({ position: 3, audio: 'loading', currentTime: 0 });
    await t.advance(LISTEN_AUDIO_POLL_MS * 2);
    expect(t.requests).toEqual([3, 3, 3]);
    expect(t.loaded).toEqual(['/audio/p3.mp3']);
    expect(player(t.engine)).toMatchObject({ position: 3, audio: 'ready', duration: SECONDS });
    const before = player(t.engine).currentTime;
    await t.advance(5000, AUDIO_TICK_MS * 4);
    expect(player(t.engine).currentTime).toBeGreaterThanOrEqual(before + 4);
    expect(t.audio.currentTime()).toBeGreaterThan(4);
  });

  it('finished → loadingNext after the delay → advances when the next audio is ready, keeps playing, and stops at the last page', async () => {
    const t = setup({ generating: (p) => (p === 8 ? 2 : 0) });
    start(t.engine, 7, true);
    await t.advance(SECONDS * 1000 - 500);
    expect(label(t.engine)).toBe('Now Playing');
    await t.advance(500);
    expect(label(t.engine)).toBe('Finished');
    // The next passage's narration is prefetched as soon as this one finishes.
    expect(t.requests).toContain(8);
    await t.advance(LISTEN_AUTO_ADVANCE_DELAY_MS - 250);
    expect(label(t.engine)).toBe('Finished');
    expect(t.history).toEqual([]);
    await t.advance(250);
    // The delay is over; the prefetch has answered 'generating' twice, so it waits in Loading Next for the next poll.
    expect(label(t.engine)).toBe('Loading Next');
    await t.advance(LISTEN_AUDIO_POLL_MS);
    expect(label(t.engine)).toBe('Now Playing');
    expect(t.history).toEqual([`${BASE}/8`]);
    expect(player(t.engine)).toMatchObject({ position: 8, audio: 'ready' });
    expect(t.loaded.at(-1)).toBe('/audio/p8.mp3');
    await t.advance(2000);
    expect(t.audio.currentTime()).toBeGreaterThan(1);
    // The view follows the address and reports the page: nothing changes.
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 8 });
    expect(t.loaded.at(-1)).toBe('/audio/p8.mp3');

    // The last page: it finishes and stays finished, with no navigation.
    await t.advance(SECONDS * 1000);
    expect(label(t.engine)).toBe('Finished');
    await t.advance(LISTEN_AUTO_ADVANCE_DELAY_MS + LISTEN_NEXT_AUDIO_TIMEOUT_MS + 5000);
    expect(label(t.engine)).toBe('Finished');
    expect(t.history).toEqual([`${BASE}/8`]);
    expect(t.requests.filter((p) => p > 8)).toEqual([]);
  });

  it('advances right after the delay when the next audio was prefetched in time', async () => {
    const t = setup();
    start(t.engine, 1, true);
    await t.advance(SECONDS * 1000 + LISTEN_AUTO_ADVANCE_DELAY_MS - 250);
    expect(label(t.engine)).toBe('Finished');
    await t.advance(250);
    expect(label(t.engine)).toBe('Now Playing');
    expect(t.history).toEqual([`${BASE}/2`]);
    expect(t.loaded).toEqual(['/audio/p1.mp3', '/audio/p2.mp3']);
  });

  it('advances after the timeout when the next audio is not ready, and plays it when it arrives', async () => {
    const slow = Math.ceil(LISTEN_NEXT_AUDIO_TIMEOUT_MS / LISTEN_AUDIO_POLL_MS) + 3;
    const t = setup({ generating: (p) => (p === 5 ? slow : 0) });
    start(t.engine, 4, true);
    await t.advance(SECONDS * 1000 + LISTEN_AUTO_ADVANCE_DELAY_MS);
    expect(label(t.engine)).toBe('Loading Next');
    await t.advance(LISTEN_NEXT_AUDIO_TIMEOUT_MS - 250);
    expect(label(t.engine)).toBe('Loading Next');
    await t.advance(250);
    expect(label(t.engine)).toBe('Now Playing');
    expect(t.history).toEqual([`${BASE}/5`]);
    expect(player(t.engine)).toMatchObject({ position: 5, audio: 'loading' });
    expect(t.loaded.at(-1)).toBe('/audio/p4.mp3');
    await t.advance(LISTEN_AUDIO_POLL_MS * 4);
    expect(player(t.engine)).toMatchObject({ position: 5, audio: 'ready' });
    expect(t.loaded.at(-1)).toBe('/audio/p5.mp3');
    await t.advance(1000);
    expect(t.audio.currentTime()).toBeGreaterThan(0);
  });

  it('without auto-play it stops at Finished; play restarts the passage at 0', async () => {
    const t = setup();
    start(t.engine, 2, false);
    await t.advance(500);
    expect(label(t.engine)).toBe('Paused');
    expect(player(t.engine)).toMatchObject({ audio: 'ready', duration: SECONDS, currentTime: 0 });
    await t.advance(3000);
    expect(t.audio.currentTime()).toBe(0);
    listen(t.engine).toggle();
    expect(label(t.engine)).toBe('Now Playing');
    await t.advance(SECONDS * 1000 + LISTEN_AUTO_ADVANCE_DELAY_MS + LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(label(t.engine)).toBe('Finished');
    expect(t.history).toEqual([]);
    expect(t.requests).toEqual([2]);
    listen(t.engine).toggle();
    expect(label(t.engine)).toBe('Now Playing');
    await t.advance(1000);
    expect(t.audio.currentTime()).toBeGreaterThan(0.5);
    expect(t.audio.currentTime()).toBeLessThan(2);
  });

  it('a page chosen by hand while Finished cancels the pending advance and plays that page from 0', async () => {
    const t = setup();
    start(t.engine, 2, true);
    await t.advance(SECONDS * 1000);
    expect(label(t.engine)).toBe('Finished');
    // The reader goes back to passage 1 before the auto-advance is due.
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 1 });
    await t.advance(250);
    expect(label(t.engine)).toBe('Now Playing');
    expect(player(t.engine)).toMatchObject({ position: 1, audio: 'ready' });
    expect(t.loaded.at(-1)).toBe('/audio/p1.mp3');
    // The old timer does not move the reader on from the page they chose.
    await t.advance(LISTEN_AUTO_ADVANCE_DELAY_MS + LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(t.history).toEqual([]);
    expect(player(t.engine).position).toBe(1);
  });

  it('without auto-play, a page chosen by hand while Finished waits, paused, at 0', async () => {
    const t = setup();
    start(t.engine, 2, false);
    listen(t.engine).toggle();
    await t.advance(SECONDS * 1000 + 250);
    expect(label(t.engine)).toBe('Finished');
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 3 });
    await t.advance(250);
    expect(label(t.engine)).toBe('Paused');
    expect(player(t.engine)).toMatchObject({ position: 3, currentTime: 0 });
  });

  it('pause pauses the audio; seek moves it; paging loads the other passage from 0', async () => {
    const t = setup();
    start(t.engine, 1, true);
    await t.advance(3000);
    listen(t.engine).toggle();
    expect(label(t.engine)).toBe('Paused');
    const at = t.audio.currentTime();
    await t.advance(2000);
    expect(t.audio.currentTime()).toBe(at);

    t.engine.getChild('listen')!.send({ type: 'listen.seek', seconds: 15 });
    expect(t.audio.currentTime()).toBe(15);
    expect(player(t.engine).currentTime).toBe(15);

    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 2 });
    await t.advance(250);
    expect(player(t.engine)).toMatchObject({ position: 2, currentTime: 0, audio: 'ready' });
    expect(t.loaded.at(-1)).toBe('/audio/p2.mp3');
    expect(label(t.engine)).toBe('Paused');
    listen(t.engine).toggle();
    await t.advance(1000);
    expect(t.audio.currentTime()).toBeGreaterThan(0.5);
  });

  it('an audio fetch error is logged only; the page asks again when revisited', async () => {
    const t = setup({ failing: [3] });
    start(t.engine, 3, true);
    await t.advance(250);
    expect(t.errors.map((e) => e.message)).toEqual(['Audio fetch failed']);
    expect(player(t.engine)).toMatchObject({ audio: 'failed' });
    expect(label(t.engine)).toBe('Now Playing');
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 4 });
    await t.advance(250);
    expect(player(t.engine)).toMatchObject({ position: 4, audio: 'ready' });
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 3 });
    await t.advance(250);
    expect(t.requests.filter((p) => p === 3)).toHaveLength(2);
  });

  it('when the browser refuses to start playing, it shows Paused so play can start it', async () => {
    const t = setup({ refusePlay: true });
    start(t.engine, 1, true);
    await t.advance(250);
    expect(label(t.engine)).toBe('Paused');
    expect(t.audio.currentTime()).toBe(0);
  });

  it('gives up after the poll cap and logs it', async () => {
    const t = setup({ generating: () => Infinity });
    start(t.engine, 1, true);
    await t.advance(LISTEN_AUDIO_POLL_MS * (LISTEN_AUDIO_MAX_POLLS + 2));
    expect(t.requests).toHaveLength(LISTEN_AUDIO_MAX_POLLS);
    expect(t.errors.map((e) => e.message)).toEqual(['Audio fetch failed']);
    expect(player(t.engine).audio).toBe('failed');
  });

  it('an edition without audio fetches nothing; closing pauses; a new start forgets the old flow', async () => {
    const t = setup();
    t.engine.send({ type: 'listen.start', autoPlay: false, isLastPage: false, editionId: EDITION, position: 1, passageCount: 8, audioEnabled: false });
    await t.advance(1000);
    expect(t.requests).toEqual([]);
    expect(player(t.engine).audio).toBe('none');

    start(t.engine, 6, true);
    await t.advance(2000);
    expect(t.audio.currentTime()).toBeGreaterThan(1);
    t.engine.getChild('listen')!.send({ type: 'listen.close' });
    expect(label(t.engine)).toBe('Closed');
    const at = t.audio.currentTime();
    await t.advance(2000);
    expect(t.audio.currentTime()).toBe(at);

    t.engine.stop();
    await t.advance(SECONDS * 1000);
    expect(t.history).toEqual([]);
  });

  it('a new start frees the systemId of the flow it replaces: getChild reaches the new flow', async () => {
    const t = setup();
    start(t.engine, 2, false);
    await t.flush();
    const first = t.engine.getChild('listen')!;
    start(t.engine, 5, false);
    await t.flush();
    const second = t.engine.getChild('listen')!;
    expect(second).not.toBe(first);
    expect(first.getSnapshot().status).toBe('stopped');
    expect(player(t.engine).position).toBe(5);
    // What a view sends now reaches the flow the engine shows.
    t.engine.getChild('listen')!.send({ type: 'listen.page', position: 6 });
    await t.flush();
    expect(player(t.engine).position).toBe(6);
    t.engine.stop();
  });
});
