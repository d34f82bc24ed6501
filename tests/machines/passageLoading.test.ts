import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { REFRESH_BUTTON_DELAY_MS, SPINNER_DELAY_MS } from '../../src/domain/constants';
import { connectPassageLoading, passageLoadingMachine, type PassageLoadingEvent } from '../../src/machines/passageLoading';
import { MODELS } from './models';
import { planTransitionWalk, timedSend } from './harness';

const events = MODELS.passageLoading.events;

/** The actions the engine provides; the SUT records each call instead. */
const IO_ACTIONS = ['refetchPassage'] as const;

function startRecording() {
  const calls: string[] = [];
  const actions = Object.fromEntries(IO_ACTIONS.map((name) => [name, () => void calls.push(name)]));
  const clock = new SimulatedClock();
  const actor = createActor(passageLoadingMachine.provide({ actions }), { clock }).start();
  return { actor, calls, clock, send: timedSend(passageLoadingMachine, actor, clock), api: () => connectPassageLoading(actor.getSnapshot(), (e) => actor.send(e)) };
}

const plan = planTransitionWalk(passageLoadingMachine, { events });

describe('passageLoading machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, calls, send } = startRecording();
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
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('passageLoading machine: rules', () => {
  it('shows the skeleton, then a spinner after 1.5 s, then Refresh after 10 s', () => {
    const { actor, api, clock } = startRecording();
    actor.send({ type: 'passage.load' });
    expect(api()).toMatchObject({ showSkeleton: true, showSpinner: false, showRefresh: false, message: null });
    clock.increment(SPINNER_DELAY_MS - 1);
    expect(api().showSpinner).toBe(false);
    clock.increment(1);
    expect(api()).toMatchObject({ showSkeleton: false, showSpinner: true, showRefresh: false });
    clock.increment(REFRESH_BUTTON_DELAY_MS - SPINNER_DELAY_MS - 1);
    expect(api().showRefresh).toBe(false);
    clock.increment(1);
    expect(api()).toMatchObject({ showSpinner: true, showRefresh: true, refreshLabel: 'Refresh', message: 'Retrieving passage...' });
    actor.send({ type: 'passage.loaded' });
    clock.increment(REFRESH_BUTTON_DELAY_MS);
    expect(actor.getSnapshot().value).toBe('loaded');
  });

  it('Refresh fetches the passage again and starts loading again', () => {
    const { actor, calls, api } = startRecording();
    actor.send({ type: 'passage.load' });
    actor.send({ type: 'passage.spinnerDue' });
    actor.send({ type: 'passage.refreshDue' });
    api().refresh();
    expect(api().showSkeleton).toBe(true);
    expect(calls).toEqual(['refetchPassage']);
  });

  it('shows Not found for 404 and Unavailable otherwise', () => {
    const { actor, api } = startRecording();
    actor.send({ type: 'passage.load' });
    actor.send({ type: 'passage.failed', status: 404 });
    expect(api().error).toEqual({ title: 'Not found', message: 'Please choose another passage or Contact Support' });
    actor.send({ type: 'passage.load' });
    expect(api().error).toBeNull();
    actor.send({ type: 'passage.failed', status: 500 });
    expect(api().error).toEqual({ title: 'Unavailable', message: 'Please choose another passage or Contact Support' });
  });

  it('reports the group-code and license panels', () => {
    const { actor, api } = startRecording();
    actor.send({ type: 'passage.load' });
    actor.send({ type: 'passage.groupCodeRequired' });
    expect(api()).toMatchObject({ needsGroupCode: true, needsLicense: false, isLoaded: false });
    actor.send({ type: 'passage.load' });
    actor.send({ type: 'passage.licenseRequired' });
    expect(api()).toMatchObject({ needsGroupCode: false, needsLicense: true });
    actor.send({ type: 'passage.load' });
    actor.send({ type: 'passage.loaded' });
    expect(api()).toMatchObject({ isLoaded: true, needsLicense: false, error: null });
  });
});
