/** The harness itself: a machine with one transition removed must fail the walk of the original. */
import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import { toolbarMachine, type ToolbarEvent } from '../../src/machines/toolbar';
import { allTransitions, planTransitionWalk } from './harness';

const events: ToolbarEvent[] = [{ type: 'toolbar.activity' }, { type: 'toolbar.idle' }, { type: 'toolbar.hold', by: 'font' }, { type: 'toolbar.release', by: 'font' }];

/** The toolbar as shipped, but with `hidden --toolbar.hold--> held` deleted. */
const mutant = setup({ types: {} as { events: ToolbarEvent } }).createMachine({
  id: 'toolbar',
  initial: 'visible',
  states: {
    visible: { on: { 'toolbar.activity': { target: 'visible', reenter: true }, 'toolbar.idle': 'hidden', 'toolbar.hold': 'held' } },
    held: { on: { 'toolbar.release': 'visible' } },
    hidden: { on: { 'toolbar.activity': 'visible' } },
  },
});

describe('model-test harness', () => {
  it('counts every written transition, guarded alternatives included', () => {
    const guarded = setup({ guards: { ok: () => true } }).createMachine({
      initial: 'a',
      states: { a: { on: { go: [{ guard: 'ok', target: 'b' }, { target: 'c' }] } }, b: {}, c: {} },
    });
    expect(allTransitions(guarded).map((t) => t.key)).toEqual(['(machine).a --go [ok]#0--> (machine).b', '(machine).a --go#1--> (machine).c']);
    expect(allTransitions(toolbarMachine)).toHaveLength(8);
  });

  it('fails a walk when the system under test lacks a transition of the model', async () => {
    const plan = planTransitionWalk(toolbarMachine, { events: [...events] });
    const failures: string[] = [];
    for (const c of plan.cases) {
      const actor = createActor(mutant).start();
      try {
        await c.run(
          (expected) => {
            if (JSON.stringify(actor.getSnapshot().value) !== JSON.stringify(expected.value))
              throw new Error(`expected ${JSON.stringify(expected.value)}, got ${JSON.stringify(actor.getSnapshot().value)}`);
          },
          { send: (e) => actor.send(e), stop: () => actor.stop() },
        );
      } catch (error) {
        failures.push(c.description);
      }
    }
    expect(failures).toEqual([expect.stringContaining('toolbar.hidden --toolbar.hold#0--> toolbar.held')]);
  });

  it('reports less than full coverage when the model is not given an event', () => {
    const plan = planTransitionWalk(toolbarMachine, { events: [{ type: 'toolbar.activity' }, { type: 'toolbar.idle' }] });
    expect(plan.uncovered.map((t) => t.event).sort()).toEqual(['toolbar.hold', 'toolbar.hold', 'toolbar.hold', 'toolbar.release', 'toolbar.release']);
    expect(plan.summary).toBe('toolbar: 3/8 transitions covered (38%)');
  });
});
