import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { connectReaderAudio, readerAudioMachine, type ReaderAudioEvent, type ReaderAudioInput } from '../../src/machines/readerAudio';
import { coverageOver, planTransitionWalk } from './harness';
import { MODELS } from './models';

const events = MODELS.readerAudio.events;

/** The actions the engine provides; the SUT records each call instead. */
const IO_ACTIONS = ['trackOpenedAudioPlayer', 'trackClosedAudioPlayer', 'trackPausedAudio', 'trackResumedAudio'] as const;

function startRecording(input: ReaderAudioInput) {
  const calls: string[] = [];
  const actions = Object.fromEntries(IO_ACTIONS.map((name) => [name, () => void calls.push(name)]));
  const actor = createActor(readerAudioMachine.provide({ actions }), { input }).start();
  return { actor, calls };
}

/**
 * The start state depends on the input, so there is one plan per input. The harness credits evented transitions
 * only; the `init` branch a plan starts through is credited here, since every case checks the start state first.
 */
const inputs = MODELS.readerAudio.inputs;
const plans = inputs.map((input) => ({ input, plan: planTransitionWalk(readerAudioMachine, { events, input }) }));

for (const { input, plan } of plans) {
  describe(`readerAudio machine: every transition (hasSavedSettings: ${input.hasSavedSettings})`, () => {
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, calls } = startRecording(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(calls).toEqual(actions);
            calls.length = 0;
          },
          { send: (e) => actor.send(e), stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('readerAudio machine: coverage', () => {
  it('covers 100% of transitions', () => {
    const { uncovered, summary } = coverageOver(readerAudioMachine, plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});

describe('readerAudio machine: rules', () => {
  it('starts Paused with saved audio settings and Closed without', () => {
    const saved = startRecording({ hasSavedSettings: true });
    const fresh = startRecording({ hasSavedSettings: false });
    expect(connectReaderAudio(saved.actor.getSnapshot(), saved.actor.send).label).toBe('Paused');
    expect(connectReaderAudio(fresh.actor.getSnapshot(), fresh.actor.send).label).toBe('Closed');
    expect([...saved.calls, ...fresh.calls]).toEqual([]);
  });

  it('tracks opening, pausing, resuming and closing', () => {
    const { actor, calls } = startRecording({ hasSavedSettings: false });
    const api = () => connectReaderAudio(actor.getSnapshot(), (e) => actor.send(e));
    api().toggle();
    expect(api()).toMatchObject({ isOpen: true, isPlaying: true, label: 'Now Playing' });
    api().pause();
    api().play();
    api().close();
    expect(api()).toMatchObject({ isOpen: false, isPlaying: false, label: 'Closed' });
    expect(calls).toEqual(['trackOpenedAudioPlayer', 'trackPausedAudio', 'trackResumedAudio', 'trackClosedAudioPlayer']);
  });

  it('is forced Closed by a required license without a tracking event', () => {
    const { actor, calls } = startRecording({ hasSavedSettings: true });
    actor.send({ type: 'audio.play' });
    calls.length = 0;
    actor.send({ type: 'license.required' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(calls).toEqual([]);
  });

  it('pauses untracked when the audio ends', () => {
    const { actor, calls } = startRecording({ hasSavedSettings: false });
    actor.send({ type: 'audio.open' });
    calls.length = 0;
    actor.send({ type: 'audio.ended' });
    expect(actor.getSnapshot().value).toBe('paused');
    expect(calls).toEqual([]);
  });
});
