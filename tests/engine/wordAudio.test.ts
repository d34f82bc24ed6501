/**
 * Tap a word to hear it, run as the engine runs it, in Node: the word machine, the reader
 * system's gate and player, and the word's own audio port (a silent audio double on a manual clock).
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import type { Publication } from '../../src/domain/schemas';
import { createReaderEngine } from '../../src/engine/createReaderEngine';
import { playerState } from '../../src/machines/player';
import type { ApiPort, AudioPort } from '../../src/engine/ports';
import { createMemoryStorage } from '../../src/engine/settings';
import { fixturePassage, fixturePublication } from '../fixtures/publication';

/** The fixture title with every edition narrated. */
function publication(): Publication {
  const base = fixturePublication();
  const editions = base.editions.map((e) => ({ ...e, audioEnabled: true, highlightModeEnabled: true }));
  return { ...base, editions, englishEditions: editions.filter((e) => e.language.code === 'en') };
}

// 'Edition 4, passage 1.': a mark per word.
const marks = [
  { offset: 0, time: 0 },
  { offset: 8, time: 500 },
  { offset: 11, time: 800 },
  { offset: 19, time: 1300 },
];

async function settle() {
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

function makeReader(options: { narrationReadyAfterPolls?: number } = {}) {
  const clock = createManualClock();
  let polls = 0;
  const api: ApiPort = {
    getPublication: async () => publication(),
    getPassage: async (editionId, position) => fixturePassage(editionId, position),
    getPassageAudio: async (passageId) => {
      polls++;
      if (polls <= (options.narrationReadyAfterPolls ?? 0)) return { passageId, status: 'generating' } as never;
      return { passageId, status: 'ready', audio: { url: `/audio/${passageId}.mp3`, speechMarks: marks, duration: 3000 } };
    },
  };
  const calls: string[] = [];
  const silent = createSilentAudio(clock, () => 3);
  const wordAudio: AudioPort = {
    ...silent,
    load: (url) => (calls.push(`load ${url}`), silent.load(url)),
    seek: (s) => (calls.push(`seek ${s}`), silent.seek(s)),
    play: () => (calls.push('play'), silent.play()),
    pause: () => (calls.push('pause'), silent.pause()),
  };
  const engine = createReaderEngine({ api, storage: createMemoryStorage(), clock, audio: createSilentAudio(clock, () => 3), wordAudio, analytics: createMemoryAnalytics() });
  engine.start();
  engine.getChild('access')!.send({ type: 'user.features', features: null });
  return { engine, clock, calls, polls: () => polls };
}

async function open(engine: ReturnType<typeof makeReader>['engine']) {
  const original = publication().editions.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL')!;
  engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 1 } });
  await settle();
  expect(engine.getSnapshot().primary.passage?.editionId).toBe(original.id);
  return original;
}

describe('tap a word to hear it, through the engine', () => {
  it('waits for narration being made, then plays just that word on its own port', async () => {
    const { engine, clock, calls } = makeReader({ narrationReadyAfterPolls: 1 });
    const edition = await open(engine);
    const passageId = edition.id * 100 + 1;
    engine.getChild('column.primary')!.send({ type: 'word.say', offset: 8 }); // '4'
    await settle();
    expect(engine.getSnapshot().wordAudio).toMatchObject({ status: 'waiting', slot: 'primary', word: { start: 8, end: 9 } });
    clock.advance(1000); // the narration's second answer is ready
    await settle();
    expect(engine.getSnapshot().wordAudio.status).toBe('speaking');
    expect(calls).toEqual(['pause', `load /audio/${passageId}.mp3`, 'seek 0.5', 'play']);
    // 'passage' starts at 800 ms: the clip stops there.
    for (let t = 0; t < 400 && engine.getSnapshot().wordAudio.status === 'speaking'; t += 15) {
      clock.advance(15);
      await settle();
    }
    expect(engine.getSnapshot().wordAudio.status).toBe('idle');
    expect(calls.at(-1)).toBe('pause');
  });

  it("says 'Audio not available' when narration is not ready within the wait", async () => {
    const { engine, clock } = makeReader({ narrationReadyAfterPolls: 10 });
    await open(engine);
    engine.getChild('column.primary')!.send({ type: 'word.say', offset: 0 });
    await settle();
    for (let i = 0; i < 4; i++) {
      clock.advance(500);
      await settle();
    }
    expect(engine.getSnapshot().wordAudio.status).toBe('idle');
    expect(engine.getSnapshot().toasts.context.toasts.map((t) => t.message)).toContain('Audio not available');
  });

  it('pauses the playing reader for the word and resumes it after; Play from here seeks the player to the word', async () => {
    const { engine, clock } = makeReader();
    await open(engine);
    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    await settle();
    expect(playerState(engine.getSnapshot().player)).toBe('playing');
    engine.getChild('column.primary')!.send({ type: 'word.say', offset: 0 });
    await settle();
    expect(playerState(engine.getSnapshot().player)).toBe('paused');
    for (let t = 0; t < 1000 && engine.getSnapshot().wordAudio.status !== 'idle'; t += 15) {
      clock.advance(15);
      await settle();
    }
    expect(playerState(engine.getSnapshot().player)).toBe('playing');

    engine.getChild('player')!.send({ type: 'audio.pause' });
    engine.getChild('column.primary')!.send({ type: 'word.playFrom', offset: 19 }); // '1.' at 1.3 s
    await settle();
    expect(playerState(engine.getSnapshot().player)).toBe('playing');
    expect(engine.getAudioTime()).toBeCloseTo(1.3, 5);
  });
});
