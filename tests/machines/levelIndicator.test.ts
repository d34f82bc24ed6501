import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, SimulatedClock, type AnyStateMachine } from 'xstate';
import { EDITION_INDICATOR_MS } from '../../src/domain/constants';
import { connectLevelIndicator, levelIndicatorMachine, type LevelIndicatorEvent, type LevelIndicatorInput } from '../../src/machines/levelIndicator';
import { allTransitions, planTransitionWalk, timedSend } from './harness';
import { MODELS } from './models';

/** The machine with its engine-provided action replaced by a recorder. */
function startRecorded(input: LevelIndicatorInput) {
  const log: string[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(levelIndicatorMachine.provide({ actions: { storeIndicatorSeen: () => void log.push('storeIndicatorSeen') } }), {
    input,
    clock,
  }).start();
  return { actor, log, clock, send: timedSend(levelIndicatorMachine, actor, clock) };
}

/**
 * The harness walks events only, so it never marks the `always` transitions of `init`; the one taken at start is the
 * one whose target the machine starts in.
 */
function startTransitions(machine: AnyStateMachine, input: unknown): string[] {
  const [snapshot] = initialTransition(machine, input);
  const target = `${machine.id}.${String(snapshot.value)}`;
  return allTransitions(machine)
    .filter((t) => t.event === '(always)' && t.targets.includes(target))
    .map((t) => t.key);
}

const events = MODELS.levelIndicator.events;
const inputs = MODELS.levelIndicator.inputs;
const plans = inputs.map((input) => ({ input, plan: planTransitionWalk(levelIndicatorMachine, { events, input }) }));

for (const { input, plan } of plans) {
  describe(`levelIndicator machine: every transition (seenBefore ${input.seenBefore})`, () => {
    // The start, through one of the `always` transitions of `init`, which the coverage test credits.
    it('starts where the model starts, with the same actions', () => {
      const { actor, log } = startRecorded(input);
      const [expected, actions] = initialTransition(levelIndicatorMachine, input);
      expect(actor.getSnapshot().value).toEqual(expected.value);
      expect(actor.getSnapshot().context).toEqual(expected.context);
      expect(log).toEqual(actions.map((a) => a.type).filter((t) => !t.startsWith('xstate.')));
    });
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, log, send } = startRecorded(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(actor.getSnapshot().context).toEqual(expected.context);
            expect(log).toEqual(actions);
            log.length = 0;
          },
          { send, stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('levelIndicator machine: coverage', () => {
  it('covers 100% of transitions over both start inputs', () => {
    const covered = new Set<string>();
    for (const { input, plan } of plans) {
      console.log(plan.summary);
      plan.covered.forEach((k) => covered.add(k));
      startTransitions(levelIndicatorMachine, input).forEach((k) => covered.add(k));
    }
    const total = allTransitions(levelIndicatorMachine);
    const uncovered = total.filter((t) => !covered.has(t.key));
    console.log(`levelIndicator (both inputs, start transitions included): ${total.length - uncovered.length}/${total.length} transitions covered`);
    expect(uncovered).toEqual([]);
  });
});

describe('levelIndicator machine: behaviour', () => {
  it('does not pulse when seen before, shown or not', () => {
    const { actor, log } = startRecorded({ seenBefore: true });
    const api = () => connectLevelIndicator(actor.getSnapshot(), (e) => actor.send(e));
    api().shown();
    expect(api().isPulsing).toBe(false);
    api().hover();
    expect(log).toEqual([]);
  });

  it('waits, without a timer, until the view shows the dropdown: an engine started long before still pulses then', () => {
    const { actor, log, clock } = startRecorded({ seenBefore: false });
    const api = () => connectLevelIndicator(actor.getSnapshot(), (e) => actor.send(e));
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(api().isPulsing).toBe(false);
    // A catalog visit of a minute: nothing runs out, nothing is stored.
    clock.increment(60_000);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(log).toEqual([]);
    api().shown();
    expect(api().isPulsing).toBe(true);
  });

  it(`pulses with a ${EDITION_INDICATOR_MS} ms timer once shown, and a hover hides it and remembers it once`, () => {
    const { actor, log } = startRecorded({ seenBefore: false });
    const api = () => connectLevelIndicator(actor.getSnapshot(), (e) => actor.send(e));
    api().shown();
    expect(api().isPulsing).toBe(true);
    api().hover();
    api().hover();
    expect(api().isPulsing).toBe(false);
    expect(log).toEqual(['storeIndicatorSeen']);
  });

  it(`stops pulsing ${EDITION_INDICATOR_MS} ms after it was shown, and only then remembers it`, () => {
    const { actor, log, clock } = startRecorded({ seenBefore: false });
    clock.increment(5_000);
    connectLevelIndicator(actor.getSnapshot(), (e) => actor.send(e)).shown();
    clock.increment(EDITION_INDICATOR_MS - 1);
    expect(actor.getSnapshot().value).toBe('pulsing');
    expect(log).toEqual([]);
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('seen');
    expect(log).toEqual(['storeIndicatorSeen']);
  });

  it('hidden before its time, the pulse is not remembered and starts again in full when shown again', () => {
    const { actor, log, clock } = startRecorded({ seenBefore: false });
    const api = () => connectLevelIndicator(actor.getSnapshot(), (e) => actor.send(e));
    api().shown();
    clock.increment(EDITION_INDICATOR_MS - 1_000);
    api().hidden();
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(5_000);
    expect(log).toEqual([]);
    api().shown();
    clock.increment(EDITION_INDICATOR_MS - 1);
    expect(api().isPulsing).toBe(true);
    clock.increment(1);
    expect(api().isPulsing).toBe(false);
    expect(log).toEqual(['storeIndicatorSeen']);
  });
});
