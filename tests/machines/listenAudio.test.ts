import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import {
  connectListenAudio,
  LISTEN_AUTO_ADVANCE_DELAY_MS,
  LISTEN_NEXT_AUDIO_TIMEOUT_MS,
  listenAudioMachine,
  type ListenAudioEvent,
  type ListenAudioInput,
} from '../../src/machines/listenAudio';
import { coverageOver, planTransitionWalk, timedSend } from './harness';
import { MODELS } from './models';

const events = MODELS.listenAudio.events;

/** The actions the engine provides; the SUT records each call instead. */
const IO_ACTIONS = ['restartAudio', 'prefetchNextAudio', 'advanceToNextPassage', 'reportAutoPlay'] as const;

function startRecording(input: ListenAudioInput) {
  const calls: string[] = [];
  const actions = Object.fromEntries(IO_ACTIONS.map((name) => [name, () => void calls.push(name)]));
  const clock = new SimulatedClock();
  const actor = createActor(listenAudioMachine.provide({ actions }), { input, clock }).start();
  return { actor, calls, clock, send: timedSend(listenAudioMachine, actor, clock), api: () => connectListenAudio(actor.getSnapshot(), (e) => actor.send(e)) };
}

/**
 * The start state depends on the input, so there is one plan per input. The harness credits evented transitions
 * only; the `init` branch a plan starts through is credited here, since every case checks the start state first.
 */
const inputs = MODELS.listenAudio.inputs;
const plans = inputs.map((input) => ({ input, plan: planTransitionWalk(listenAudioMachine, { events, input }) }));

for (const { input, plan } of plans) {
  describe(`listenAudio machine: every transition (autoPlay: ${input.autoPlay})`, () => {
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, calls, send } = startRecording(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(actor.getSnapshot().context).toEqual(expected.context);
            expect(calls).toEqual(actions);
            calls.length = 0;
          },
          { send, stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('listenAudio machine: coverage', () => {
  it('covers 100% of transitions', () => {
    const { uncovered, summary } = coverageOver(listenAudioMachine, plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});

describe('listenAudio machine: rules', () => {
  it('starts Now Playing when auto-play is flagged, else Paused', () => {
    expect(startRecording({ autoPlay: true, isLastPage: false }).api().label).toBe('Now Playing');
    expect(startRecording({ autoPlay: false, isLastPage: false }).api().label).toBe('Paused');
  });

  it('play from Finished restarts at 0', () => {
    const { actor, calls, api } = startRecording({ autoPlay: false, isLastPage: false });
    api().toggle();
    actor.send({ type: 'listen.ended' });
    expect(api().label).toBe('Finished');
    api().toggle();
    expect(api()).toMatchObject({ label: 'Now Playing', isPlaying: true });
    expect(calls).toEqual(['restartAudio']);
  });

  it('with auto-play, a finished passage moves on after the delay, prefetches, then advances', () => {
    const { actor, calls, api, clock } = startRecording({ autoPlay: true, isLastPage: false });
    actor.send({ type: 'listen.ended' });
    clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS - 1);
    expect(api().label).toBe('Finished');
    clock.increment(1);
    expect(api().label).toBe('Loading Next');
    actor.send({ type: 'listen.nextReady' });
    clock.increment(LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(api().label).toBe('Now Playing');
    expect(calls).toEqual(['prefetchNextAudio', 'advanceToNextPassage']);
  });

  it('a timeout forces the advance when the next audio is slow', () => {
    const { actor, calls, api, clock } = startRecording({ autoPlay: true, isLastPage: false });
    actor.send({ type: 'listen.ended' });
    clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS);
    clock.increment(LISTEN_NEXT_AUDIO_TIMEOUT_MS - 1);
    expect(api().label).toBe('Loading Next');
    clock.increment(1);
    expect(api().label).toBe('Now Playing');
    expect(calls).toEqual(['prefetchNextAudio', 'advanceToNextPassage']);
  });

  it('stays Finished on the last page or without auto-play', () => {
    const last = startRecording({ autoPlay: true, isLastPage: true });
    last.actor.send({ type: 'listen.ended' });
    last.actor.send({ type: 'listen.advanceDue' });
    expect(last.api().label).toBe('Finished');

    const manual = startRecording({ autoPlay: true, isLastPage: false });
    manual.api().setAutoPlay(false);
    expect(manual.api().autoPlay).toBe(false);
    manual.actor.send({ type: 'listen.ended' });
    manual.actor.send({ type: 'listen.advanceDue' });
    expect(manual.api().label).toBe('Finished');
    expect(last.calls).toEqual([]);
    expect(manual.calls).toEqual(['reportAutoPlay']);
  });

  it('the Auto-play switch reports each change, to be saved and tracked, and a repeat of the same value not at all', () => {
    const reports: boolean[] = [];
    const actor = createActor(
      listenAudioMachine.provide({ actions: { reportAutoPlay: (_, params) => void reports.push(params.autoPlay) } }),
      { input: { autoPlay: false, isLastPage: false }, clock: new SimulatedClock() },
    ).start();
    const api = () => connectListenAudio(actor.getSnapshot(), (e) => actor.send(e));
    api().setAutoPlay(true);
    api().setAutoPlay(true);
    expect(api().autoPlay).toBe(true);
    api().close();
    api().setAutoPlay(false);
    expect(api()).toMatchObject({ autoPlay: false, label: 'Closed' });
    expect(reports).toEqual([true, false]);
  });

  it('closes from any open state and reopens paused', () => {
    const { actor, api, clock, calls } = startRecording({ autoPlay: true, isLastPage: false });
    actor.send({ type: 'listen.ended' });
    actor.send({ type: 'listen.advanceDue' });
    api().close();
    expect(api().label).toBe('Closed');
    clock.increment(LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(api().label).toBe('Closed');
    expect(calls).toEqual(['prefetchNextAudio']);
    api().open();
    expect(api().label).toBe('Paused');
  });
});
