import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { MAX_TOASTS, TOAST_DURATION_MS } from '../../src/domain/constants';
import { connectToasts, releaseToasts, toastsMachine, type ToastsEvent } from '../../src/machines/toasts';
import { planTransitionWalk } from './harness';
import { MODELS, toastMessages } from './models';

const eventsFor = MODELS.toasts.events;
const messages = toastMessages;

const plan = planTransitionWalk(toastsMachine, {
  events: eventsFor,
  serializeState: MODELS.toasts.serializeState,
  maxStates: MODELS.toasts.maxStates, // counts visits, not states: 41 message orders × 4 hold states × 13 events
});

describe('toasts machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      // The queue has no engine-provided actions to record: only assigns, which the model leaves out too.
      const actor = createActor(toastsMachine).start();
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(actor.getSnapshot().context).toEqual(expected.context);
          expect(actions).toEqual([]);
        },
        { send: (e) => actor.send(e), stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

/** A toasts actor on a simulated clock, and the messages it shows. */
function clocked() {
  const clock = new SimulatedClock();
  const actor = createActor(toastsMachine, { clock }).start();
  return { clock, actor, shown: () => actor.getSnapshot().context.toasts.map((t) => t.message) };
}

describe('toasts machine: rules', () => {
  it('ignores a toast whose message is already shown', () => {
    const actor = createActor(toastsMachine).start();
    actor.send({ type: 'toast.show', kind: 'error', message: 'Invalid Class Code' });
    actor.send({ type: 'toast.show', kind: 'error', message: 'Invalid Class Code' });
    expect(actor.getSnapshot().context.toasts).toEqual([{ id: 1, kind: 'error', message: 'Invalid Class Code' }]);
  });

  it('shows the same message again once the first is dismissed, with a new id', () => {
    const actor = createActor(toastsMachine).start();
    actor.send({ type: 'toast.show', kind: 'error', message: 'Invalid Class Code' });
    actor.send({ type: 'toast.dismiss', id: 1 });
    actor.send({ type: 'toast.show', kind: 'error', message: 'Invalid Class Code' });
    expect(actor.getSnapshot().context.toasts).toEqual([{ id: 2, kind: 'error', message: 'Invalid Class Code' }]);
  });

  it(`keeps at most ${MAX_TOASTS}, dropping the oldest`, () => {
    const actor = createActor(toastsMachine).start();
    for (const message of messages) actor.send({ type: 'toast.show', kind: 'success', message });
    expect(actor.getSnapshot().context.toasts.map((t) => t.message)).toEqual(messages.slice(1));
    expect(actor.getSnapshot().context.toasts.map((t) => t.id)).toEqual([2, 3, 4]);
  });

  it(`dismisses each toast ${TOAST_DURATION_MS} ms after it was shown, on the clock`, () => {
    const { clock, actor, shown } = clocked();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    clock.increment(500);
    actor.send({ type: 'toast.show', kind: 'error', message: 'Failed to copy link' });
    clock.increment(TOAST_DURATION_MS - 500 - 1);
    expect(shown()).toEqual(['Class Code Accepted', 'Failed to copy link']);
    clock.increment(1);
    expect(shown()).toEqual(['Failed to copy link']);
    clock.increment(500);
    expect(shown()).toEqual([]);
  });

  it('a toast closed by hand cancels its timer, so a later toast with the next id is not cut short', () => {
    const { clock, actor } = clocked();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    actor.send({ type: 'toast.dismiss', id: 1 });
    clock.increment(TOAST_DURATION_MS - 1);
    actor.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    clock.increment(1);
    expect(actor.getSnapshot().context.toasts).toEqual([{ id: 2, kind: 'success', message: 'Class Code Accepted' }]);
  });

  it('held by the pointer or by focus, no toast goes by itself; the last release gives each its full time again', () => {
    const { clock, actor, shown } = clocked();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    clock.increment(TOAST_DURATION_MS - 1);
    actor.send({ type: 'toasts.hold', by: 'pointer' });
    actor.send({ type: 'toast.show', kind: 'error', message: 'Failed to copy link' });
    actor.send({ type: 'toasts.hold', by: 'focus' });
    clock.increment(10 * TOAST_DURATION_MS);
    expect(actor.getSnapshot().value).toBe('held');
    expect(shown()).toEqual(['Class Code Accepted', 'Failed to copy link']);
    // The pointer leaves, focus is still in them: still held.
    actor.send({ type: 'toasts.release', by: 'pointer' });
    clock.increment(10 * TOAST_DURATION_MS);
    expect(shown()).toEqual(['Class Code Accepted', 'Failed to copy link']);
    actor.send({ type: 'toasts.release', by: 'focus' });
    expect(actor.getSnapshot().value).toBe('counting');
    clock.increment(TOAST_DURATION_MS - 1);
    expect(shown()).toEqual(['Class Code Accepted', 'Failed to copy link']);
    clock.increment(1);
    expect(shown()).toEqual([]);
  });

  it('closing the last toast while held ends the hold, so the next toast goes by itself', () => {
    const { clock, actor } = clocked();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Class Code Accepted' });
    actor.send({ type: 'toasts.hold', by: 'focus' });
    actor.send({ type: 'toast.dismiss', id: 1 });
    expect(actor.getSnapshot().value).toBe('counting');
    expect(actor.getSnapshot().context.holders).toEqual([]);
    actor.send({ type: 'toast.show', kind: 'success', message: 'Title shown to students' });
    clock.increment(TOAST_DURATION_MS);
    expect(actor.getSnapshot().context.toasts).toEqual([]);
  });

  it('connect holds and releases, and releaseToasts ends every hold', () => {
    const actor = createActor(toastsMachine).start();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Magic link copied to clipboard!' });
    const send = (e: ToastsEvent) => actor.send(e);
    connectToasts(actor.getSnapshot(), send).hold('pointer', true);
    connectToasts(actor.getSnapshot(), send).hold('focus', true);
    expect(actor.getSnapshot().context.holders).toEqual(['pointer', 'focus']);
    connectToasts(actor.getSnapshot(), send).hold('pointer', false);
    expect(actor.getSnapshot().value).toBe('held');
    releaseToasts(send);
    expect(actor.getSnapshot().value).toBe('counting');
    expect(actor.getSnapshot().context.holders).toEqual([]);
  });

  it('connect lists the toasts and dismisses by id', () => {
    const actor = createActor(toastsMachine).start();
    actor.send({ type: 'toast.show', kind: 'success', message: 'Magic link copied to clipboard!' });
    const api = connectToasts(actor.getSnapshot(), (e) => actor.send(e));
    expect(api.toasts).toEqual([{ id: 1, kind: 'success', message: 'Magic link copied to clipboard!' }]);
    api.dismiss(1);
    expect(connectToasts(actor.getSnapshot(), (e) => actor.send(e)).toasts).toEqual([]);
  });
});
