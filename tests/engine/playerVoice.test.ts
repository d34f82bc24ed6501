/**
 * The reader's player names the voice of the passage's narration: from the audio answer's address
 * (src/domain/narrationVoice.ts, the rule the server names `audio.voice` by), whether the narration came from the
 * audio endpoint or with the passage. Run as the engine runs, in Node, with test doubles only at the ports.
 */
import { describe, expect, it } from 'vitest';
import { createManualClock, createMemoryAnalytics, createSilentAudio } from '../../src/adapters/common';
import type { Passage, Publication } from '../../src/domain/schemas';
import { createReaderEngine } from '../../src/engine/createReaderEngine';
import type { ApiPort, NavigationPort } from '../../src/engine/ports';
import { createMemoryStorage } from '../../src/engine/settings';
import { fixturePassage, fixturePublication } from '../fixtures/publication';

const HEX = '0123456789abcdef'.repeat(2);

function makeEngine(passageAudio: (p: Passage) => Passage['audio']) {
  const base = fixturePublication();
  const editions = base.editions.map((e) => ({ ...e, audioEnabled: true, highlightModeEnabled: true }));
  const publication: Publication = { ...base, editions, englishEditions: editions.filter((e) => e.language.code === 'en') };
  const api: ApiPort = {
    getPublication: async () => publication,
    getPassage: async (editionId, position) => {
      const passage = fixturePassage(editionId, position);
      return { ...passage, audio: passageAudio(passage) };
    },
    getVisitor: async () => ({ groupCodeValid: false, features: [] }),
    getPassageAudio: async (passageId) => ({
      passageId,
      status: 'ready',
      audio: { url: `/audio/flite-slt-${HEX}.mp3`, speechMarks: [{ offset: 0, time: 100 }], duration: 4000, voice: 'flite-slt' },
    }),
  };
  const history = ['/fixture/v1/read'];
  const navigation: NavigationPort = { push: (p) => void history.push(p), replace: (p) => void (history[history.length - 1] = p), current: () => history.at(-1)! };
  const clock = createManualClock();
  const engine = createReaderEngine({ api, storage: createMemoryStorage(), clock, audio: createSilentAudio(clock), analytics: createMemoryAnalytics(), navigation });
  engine.start();
  engine.getChild('access')!.send({ type: 'user.features', features: ['LEVELS', 'LANGUAGES', 'AUDIO'] });
  engine.send({ type: 'reader.open', request: { slug: 'fixture', version: 'v1', primary: { language: 'en', level: 'ORIGINAL' }, position: 1 } });
  return engine;
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 0));
}

describe("the player's voice", () => {
  it('is the voice of the narration the audio endpoint answered with', async () => {
    const engine = makeEngine(() => null);
    await until(() => engine.getSnapshot().primary.passage !== null);
    expect(engine.getSnapshot().readerPlayer.voice).toBeNull();
    engine.getChild('column.primary')!.send({ type: 'audio.listen', on: true });
    await until(() => engine.getSnapshot().readerPlayer.status === 'ready');
    expect(engine.getSnapshot().readerPlayer.voice).toBe('flite-slt');
    engine.stop();
  });

  it('is read from the address of a narration that came with the passage', async () => {
    const engine = makeEngine(() => ({ url: `/audio/en-us-${HEX}.mp3`, speechMarks: [{ offset: 0, time: 100 }] }));
    await until(() => engine.getSnapshot().readerPlayer.status === 'ready');
    expect(engine.getSnapshot().readerPlayer.voice).toBe('espeak-en-us');
    engine.stop();
  });
});
