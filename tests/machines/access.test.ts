/**
 * Access: a walk of every transition, per input, replayed on a live actor (its class code a puppet, its visitor
 * checks never settling: tests/machines/models.ts accessInert) with the system's effects recorded, compared with
 * the pure model after each step; the transition coverage over all inputs; and its rules.
 */
import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, type AnyStateMachine } from 'xstate';
import { accessFactsOf, initialAccess, type AccessInput } from '../../src/machines/access';
import { coverageOver, planTransitionWalk } from './harness';
import { accessInert, MODELS } from './models';

/** The effects the system provides (src/machines/readerSystem/readerSystem.children.ts). */
const EFFECTS = ['writeSetting', 'tellAccess', 'removeCodeFromAddress'] as const;

const model = MODELS.access;
const machine = model.machine;
const plans = model.inputs.map((input) => ({ input, plan: planTransitionWalk(machine, { events: model.events as never, input, serializeState: model.serializeState }) }));

type Snapshot = ReturnType<typeof initialTransition<AnyStateMachine>>[0];
type Step = [Snapshot, { type: string; params?: unknown }[]];
const effectsOf = ([, actions]: Step) => actions.filter((a) => (EFFECTS as readonly string[]).includes(a.type)).map((a) => [a.type, a.params]);

function liveAccess(input: AccessInput) {
  const calls: unknown[] = [];
  const record = Object.fromEntries(EFFECTS.map((name) => [name, (_: unknown, params: unknown) => void calls.push([name, params])]));
  const actor = createActor(accessInert.provide({ actions: record as never }), { input }).start();
  return { actor, calls };
}

const inputName = (input: AccessInput) => (input.storedCode ? 'a stored class code' : 'no class code');

for (const { input, plan } of plans) {
  describe(`access machine: every transition (${inputName(input)})`, () => {
    for (const c of plan.cases) {
      it(c.description, () => {
        const { actor, calls } = liveAccess(input);
        try {
          const check = (step: Step) => {
            const live = actor.getSnapshot();
            expect(live.status).toBe('active');
            expect(live.value).toEqual(step[0].value);
            expect(live.context).toEqual(step[0].context);
            expect(calls).toEqual(effectsOf(step));
            calls.length = 0;
          };
          let step = initialTransition(machine, input) as Step;
          check(step);
          for (const event of c.events) {
            actor.send(event as never);
            step = transition(machine, step[0], event as never) as Step;
            check(step);
          }
        } finally {
          actor.stop();
        }
      });
    }
  });
}

describe('access machine: coverage', () => {
  it('covers 100% of transitions over its inputs', () => {
    const { uncovered, summary } = coverageOver(machine, plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});

describe('access rules', () => {
  const stored: AccessInput = { storedCode: 'STORED01', features: ['AUDIO'], classTitleIds: [2] };
  it("gives the signed-in user's features on every title", () => {
    const context = { ...initialAccess(stored), user: { features: ['LEVELS'], known: true } };
    expect(accessFactsOf(context)).toEqual({ known: true, features: ['LEVELS'], titleIds: null, classCode: 'STORED01' });
  });
  it("gives a valid class code's features on its titles only, and none once its check failed", () => {
    const context = initialAccess(stored);
    expect(accessFactsOf(context)).toEqual({ known: false, features: ['AUDIO'], titleIds: [2], classCode: 'STORED01' });
    expect(accessFactsOf({ ...context, code: { ...context.code, invalid: true } }).features).toEqual([]);
  });
});
