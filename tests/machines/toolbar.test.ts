import { describe, expect, it, afterAll } from 'vitest';
import { createActor } from 'xstate';
import { toolbarMachine, TOOLBAR_IDLE_MS } from '../../src/machines/toolbar';
import { activeTimers } from '../../src/machines/shared/timers';
import { planTransitionWalk } from './harness';
import { MODELS } from './models';

const plan = planTransitionWalk(toolbarMachine, {
  events: MODELS.toolbar.events,
});

describe('toolbar machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const actor = createActor(toolbarMachine).start();
      await c.run((expected) => expect(actor.getSnapshot().value).toEqual(expected.value), { send: (e) => actor.send(e), stop: () => actor.stop() });
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('toolbar machine: timers', () => {
  it('asks for the idle timer only while visible', () => {
    const actor = createActor(toolbarMachine).start();
    expect([...activeTimers(actor.getSnapshot()).values()]).toEqual([{ id: 'idle', delay: TOOLBAR_IDLE_MS, event: { type: 'toolbar.idle' } }]);
    actor.send({ type: 'toolbar.hold' });
    expect(activeTimers(actor.getSnapshot()).size).toBe(0);
  });
});
