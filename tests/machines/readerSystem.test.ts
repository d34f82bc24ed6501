/**
 * The reader system (the root machine): a walk of every transition, per input, replayed on a live actor of the
 * machine with inert children and loads (tests/machines/models.ts readerSystemInert) and the engine's effects
 * recorded, compared with the pure model after each step; and the transition coverage over all inputs.
 *
 * The children the root follows (syncSnapshot) report their snapshot when they start (at the system's start, and
 * when the reading mode restarts) and after each event the root sends them. In the live system here they are
 * puppets that report what the root already believes of them, so those reports change nothing (the comparison
 * below would show it if they did); what they tell the root in the walk is the walk's own report events.
 */
import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, type AnyStateMachine } from 'xstate';
import type { ReaderSystemInput } from '../../src/machines/readerSystem';
import { coverageOver, planTransitionWalk, transitionKey } from './harness';
import { MODELS, readerSystemInert } from './models';

/** The effects the engine provides (src/engine/systemIo.ts); the doubles record each call by name. */
const EFFECTS = [
  'prefetchNeighbours',
  'persist',
  'track',
  'showReaderPath',
  'readAddressSpeeds',
  'leaveToCatalog',
  'removeCodeFromAddress',
  'showSpeedsInAddress',
  'loadReaderAudio',
  'setReaderAudioRate',
  'seekReaderAudio',
  'cachePassage',
  'logError',
] as const;

const model = MODELS.readerSystem;
const machine = model.machine;
const plans = model.inputs.map((input) => ({
  input,
  plan: planTransitionWalk(machine, { events: model.events, input, serializeState: model.serializeState, maxStates: model.maxStates }),
}));

function liveSystem(input: ReaderSystemInput) {
  const calls: string[] = [];
  const record = Object.fromEntries(EFFECTS.map((name) => [name, () => void calls.push(name)]));
  const actor = createActor(readerSystemInert.provide({ actions: record as never }), { input }).start();
  return { actor, calls };
}

type Snapshot = ReturnType<typeof initialTransition<AnyStateMachine>>[0];
type Step = [Snapshot, { type: string }[]];
/** The named actions a step executes: the engine's effects (xstate's built-ins such as assign left out). */
const effectsOf = ([, actions]: Step) => actions.map((a) => a.type).filter((t) => !t.startsWith('xstate.'));

/** The keys of the transitions an event takes from a snapshot (the evented ones, as the plan names them). */
function takenKeys(snapshot: Snapshot, event: unknown): string[] {
  const taken = (machine as unknown as { getTransitionData(s: unknown, e: unknown): Parameters<typeof transitionKey>[0][] }).getTransitionData(snapshot, event);
  return taken.map((t) => transitionKey(t, ((t.source as unknown as { transitions: Map<string, unknown[]> }).transitions.get(t.eventType) ?? []).indexOf(t)));
}

const inputName = (input: ReaderSystemInput) =>
  input.settings.groupCode ? 'a stored class code' : input.settings.audioSettings ? 'saved audio settings' : 'no saved settings';

for (const { input, plan } of plans) {
  describe(`readerSystem machine: every transition (${inputName(input)})`, () => {
    for (const c of plan.cases) {
      it(c.description, () => {
        const { actor, calls } = liveSystem(input);
        try {
          const check = (step: Step) => {
            const [expected] = step;
            const live = actor.getSnapshot();
            expect(live.status).toBe('active');
            expect(live.value).toEqual(expected.value);
            expect(live.context).toEqual(expected.context);
            expect(calls).toEqual(effectsOf(step));
            calls.length = 0;
          };
          let step = initialTransition(machine, input) as Step;
          check(step);
          c.events.forEach((event, i) => {
            // The walk's last event takes the transitions the plan credits, from the state the replay reached.
            if (i === c.events.length - 1) expect(takenKeys(step[0], event)).toEqual(c.transitions);
            actor.send(event);
            step = transition(machine, step[0], event) as Step;
            check(step);
          });
        } finally {
          actor.stop();
        }
      });
    }
  });
}

describe('readerSystem machine: coverage', () => {
  it('covers 100% of transitions over its inputs (start transitions included)', () => {
    const { uncovered, summary } = coverageOver(machine, plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});
