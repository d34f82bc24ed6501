import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { WORD_WAIT_MS } from '../../src/domain/wordAudio';
import { WORD_AUDIO_UNAVAILABLE, wordAudioMachine, wordAudioStatus, type WordClip } from '../../src/machines/wordAudio';
import type { Narration, NarrationInput } from '../../src/machines/shared/audio';
import { planTransitionWalk, timedSend } from './harness';
import { MODELS, wordRequests } from './models';

const engineActions = ['pauseReader', 'resumeReader', 'showToast'] as const;
type Recorded = { type: (typeof engineActions)[number]; params?: unknown };

/** The machine with its engine-provided actions recorded, and its actors from the walk's model (never settling) or given. */
function startRecorded(actors?: { loadNarration?: ReturnType<typeof fromPromise<Narration, NarrationInput>>; sayClip?: ReturnType<typeof fromPromise<void, WordClip>> }) {
  const log: Recorded[] = [];
  const actions = Object.fromEntries(
    engineActions.map((type) => [type, (_: unknown, params: unknown) => void log.push(params === undefined ? { type } : { type, params })]),
  ) as Record<(typeof engineActions)[number], (_: unknown, params: any) => void>;
  const clock = new SimulatedClock();
  const machine = MODELS.wordAudio.machine.provide({ actions, ...(actors ? { actors: actors as never } : {}) });
  const actor = createActor(machine, { clock }).start();
  return { actor, log, clock, send: timedSend(wordAudioMachine, actor, clock) };
}

const plan = planTransitionWalk(MODELS.wordAudio.machine, { events: MODELS.wordAudio.events, serializeState: MODELS.wordAudio.serializeState as never });

describe('wordAudio machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, log, send } = startRecorded();
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(log.map((a) => a.type)).toEqual(actions);
          log.length = 0;
        },
        { send, stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions, the wait timer included', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('wordAudio machine: behaviour', () => {
  it('says a word whose narration is ready at once, pausing the playing reader and resuming it after', async () => {
    const clips: WordClip[] = [];
    let finish = () => {};
    const { actor, log } = startRecorded({
      sayClip: fromPromise<void, WordClip>(({ input }) => {
        clips.push(input);
        return new Promise<void>((resolve) => (finish = resolve));
      }),
    });
    actor.send({ type: 'wordAudio.say', request: wordRequests.ready });
    expect(wordAudioStatus(actor.getSnapshot())).toEqual({ status: 'speaking', slot: 'primary', word: { start: 5, end: 9 } });
    // 'upon' starts at 400 ms and lasts until 'a' at 900 ms.
    expect(clips).toEqual([{ url: '/a/1.mp3', start: 0.4, end: 0.9 }]);
    expect(log).toEqual([{ type: 'pauseReader' }]);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('idle');
    expect(log).toEqual([{ type: 'pauseReader' }, { type: 'resumeReader' }]);
  });

  it("holds the reader's player while a word is said and lets it go after, whatever the player does (the player decides)", () => {
    const { actor, log } = startRecorded();
    actor.send({ type: 'wordAudio.say', request: wordRequests.ready });
    expect(log).toEqual([{ type: 'pauseReader' }]);
    actor.send({ type: 'wordAudio.cancel' });
    expect(log).toEqual([{ type: 'pauseReader' }, { type: 'resumeReader' }]);
  });

  it(`waits up to ${WORD_WAIT_MS} ms for narration being made, then says 'Audio not available'`, () => {
    const { actor, log, clock } = startRecorded();
    actor.send({ type: 'wordAudio.say', request: wordRequests.waits });
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('waiting');
    clock.increment(WORD_WAIT_MS - 1);
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('waiting');
    clock.increment(1);
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('idle');
    // The player is let go as the word's wait ends, before the toast.
    expect(log).toEqual([{ type: 'pauseReader' }, { type: 'resumeReader' }, { type: 'showToast', params: { kind: 'error', message: WORD_AUDIO_UNAVAILABLE } }]);
  });

  it('says the word once its narration arrives in time, asking for the right passage', async () => {
    const asked: NarrationInput[] = [];
    const said: WordClip[] = [];
    const { actor, clock } = startRecorded({
      loadNarration: fromPromise<Narration, NarrationInput>(async ({ input }) => {
        asked.push(input);
        return { url: '/a/7.mp3', speechMarks: wordRequests.ready.narration.speechMarks, duration: 2 };
      }),
      sayClip: fromPromise<void, WordClip>(({ input }) => {
        said.push(input);
        return new Promise<void>(() => {});
      }),
    });
    actor.send({ type: 'wordAudio.say', request: wordRequests.waits });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual([{ passageId: 7, editionId: 3, position: 1 }]);
    expect(said).toEqual([{ url: '/a/7.mp3', start: 0.4, end: 0.9 }]);
    // The wait timer was cancelled: nothing fires later.
    clock.increment(WORD_WAIT_MS * 2);
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('speaking');
  });

  it("a passage without narration for its edition says 'Audio not available' at once", () => {
    const { actor, log } = startRecorded();
    actor.send({ type: 'wordAudio.say', request: wordRequests.none });
    expect(wordAudioStatus(actor.getSnapshot()).status).toBe('idle');
    expect(log).toEqual([{ type: 'showToast', params: { kind: 'error', message: WORD_AUDIO_UNAVAILABLE } }]);
  });

  it('a new word replaces the one being said and the reader resumes only once, after the last', () => {
    const { actor, log } = startRecorded();
    actor.send({ type: 'wordAudio.say', request: wordRequests.ready });
    actor.send({ type: 'wordAudio.say', request: wordRequests.waits });
    expect(wordAudioStatus(actor.getSnapshot())).toMatchObject({ status: 'waiting', slot: 'secondary' });
    actor.send({ type: 'wordAudio.cancel' });
    expect(log).toEqual([{ type: 'pauseReader' }, { type: 'resumeReader' }]);
  });
});

describe('wordAudio machine: a new word restarts the clip', () => {
  it('says the second word from its own start', () => {
    const clips: WordClip[] = [];
    const { actor } = startRecorded({
      sayClip: fromPromise<void, WordClip>(({ input }) => {
        clips.push(input);
        return new Promise<void>(() => {});
      }),
    });
    actor.send({ type: 'wordAudio.say', request: wordRequests.ready });
    actor.send({ type: 'wordAudio.say', request: { ...wordRequests.ready, target: { ...wordRequests.ready.target, offset: 0 } } });
    expect(clips).toEqual([
      { url: '/a/1.mp3', start: 0.4, end: 0.9 },
      { url: '/a/1.mp3', start: 0, end: 0.4 },
    ]);
  });
});
