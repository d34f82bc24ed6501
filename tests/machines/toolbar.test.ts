import { describe, expect, it } from 'vitest';
import { toolbarMachine, TOOLBAR_IDLE_MS } from '../../src/machines/toolbar';
import { clockDriven, planTransitionWalk } from './harness';
import { MODELS } from './models';

const plan = planTransitionWalk(toolbarMachine, {
  events: MODELS.toolbar.events,
});

describe('toolbar machine: every transition, timeouts on a simulated clock', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const sut = clockDriven(toolbarMachine);
      await c.run((expected) => expect(sut.actor.getSnapshot().value).toEqual(expected.value), sut);
    });
  }
  it('covers 100% of transitions, the delayed one included', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
    expect(plan.covered).toContain('toolbar.visible --toolbar.idle#0--> toolbar.hidden');
  });
});

describe('toolbar machine: the idle timer', () => {
  it('hides after TOOLBAR_IDLE_MS without activity, not before', () => {
    const { actor, clock } = clockDriven(toolbarMachine);
    clock.increment(TOOLBAR_IDLE_MS - 1);
    expect(actor.getSnapshot().value).toBe('visible');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('restarts on activity', () => {
    const { actor, clock } = clockDriven(toolbarMachine);
    clock.increment(TOOLBAR_IDLE_MS - 1);
    actor.send({ type: 'toolbar.activity' });
    clock.increment(TOOLBAR_IDLE_MS - 1);
    expect(actor.getSnapshot().value).toBe('visible');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('hidden');
  });

  it('does not fire while held', () => {
    const { actor, clock } = clockDriven(toolbarMachine);
    actor.send({ type: 'toolbar.hold' });
    clock.increment(TOOLBAR_IDLE_MS * 2);
    expect(actor.getSnapshot().value).toBe('held');
  });
});
