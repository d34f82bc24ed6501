import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { connectMissingEdition, missingEditionMachine, type EditionSlot, type MissingEditionEvent } from '../../src/machines/missingEdition';
import { MODELS } from './models';
import { planTransitionWalk } from './harness';

const events = MODELS.missingEdition.events;

/** The actions the engine provides; the SUT records each call (with its params) instead. */
const IO_ACTIONS = ['createEdition', 'refreshPublication'] as const;

function startRecording(slot: EditionSlot) {
  const calls: { name: string; params: unknown }[] = [];
  const actions = Object.fromEntries(IO_ACTIONS.map((name) => [name, (_: unknown, params: unknown) => void calls.push({ name, params })]));
  const actor = createActor(missingEditionMachine.provide({ actions }), { input: { slot } }).start();
  const names = () => calls.map((c) => c.name);
  return { actor, calls, names, api: () => connectMissingEdition(actor.getSnapshot(), (e) => actor.send(e)) };
}

const input = { slot: 'primary' as const };
const plan = planTransitionWalk(missingEditionMachine, { events, input });

describe('missingEdition machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, calls, names } = startRecording(input.slot);
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(actor.getSnapshot().context).toEqual(expected.context);
          expect(names()).toEqual(actions);
          calls.length = 0;
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

describe('missingEdition machine: rules', () => {
  it('creates a missing edition on demand and shows loading, then refreshes the publication', () => {
    const { actor, calls, api } = startRecording('secondary');
    actor.send({ type: 'edition.missing', language: 'fr', level: 'A1' });
    expect(api()).toMatchObject({ isCreating: true, isFailed: false, error: null, slot: 'secondary' });
    actor.send({ type: 'edition.created' });
    expect(api()).toMatchObject({ isCreating: false, isFailed: false, error: null });
    expect(calls).toEqual([
      { name: 'createEdition', params: { slot: 'secondary', language: 'fr', level: 'A1' } },
      { name: 'refreshPublication', params: { slot: 'secondary' } },
    ]);
  });

  it('creates once per attempt: still missing after creation is Passage not found (404)', () => {
    const { actor, names, api } = startRecording('primary');
    actor.send({ type: 'edition.missing', language: 'en', level: 'B1' });
    actor.send({ type: 'edition.created' });
    actor.send({ type: 'edition.missing', language: 'EN', level: 'b1' });
    expect(api()).toMatchObject({ isCreating: false, isFailed: true, error: { status: 404, message: 'Passage not found' } });
    expect(names()).toEqual(['createEdition', 'refreshPublication']);
  });

  it('shows Passage not found when the creation fails', () => {
    const { actor, api } = startRecording('primary');
    actor.send({ type: 'edition.missing', language: 'en', level: 'B1' });
    actor.send({ type: 'edition.creationFailed' });
    expect(api().error).toEqual({ status: 404, message: 'Passage not found' });
  });

  it('a new navigation attempt may create the same edition again', () => {
    const { actor, names, api } = startRecording('primary');
    actor.send({ type: 'edition.missing', language: 'en', level: 'B1' });
    actor.send({ type: 'edition.creationFailed' });
    actor.send({ type: 'edition.reset' });
    expect(api()).toMatchObject({ isFailed: false, error: null });
    actor.send({ type: 'edition.missing', language: 'en', level: 'B1' });
    expect(api().isCreating).toBe(true);
    expect(names()).toEqual(['createEdition', 'createEdition']);
  });
});
