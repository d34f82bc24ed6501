import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { connectToolbar, toolbarMachine, TOOLBAR_IDLE_MS } from '../../src/machines/toolbar';
import { clockDriven, planTransitionWalk } from './harness';
import { MODELS } from './models';

const plan = planTransitionWalk(toolbarMachine, {
  events: MODELS.toolbar.events,
  serializeState: MODELS.toolbar.serializeState as never,
});

describe('toolbar machine: every transition, timeouts on a simulated clock', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const sut = clockDriven(toolbarMachine);
      await c.run((expected) => {
        expect(sut.actor.getSnapshot().value).toEqual(expected.value);
        expect(sut.actor.getSnapshot().context).toEqual(expected.context);
      }, sut);
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
    actor.send({ type: 'toolbar.hold', by: 'font' });
    clock.increment(TOOLBAR_IDLE_MS * 2);
    expect(actor.getSnapshot().value).toBe('held');
  });
});

describe('toolbar machine: what holds it', () => {
  const start = () => {
    const { actor, clock } = clockDriven(toolbarMachine);
    const api = () => connectToolbar(actor.getSnapshot(), (e) => actor.send(e));
    return { actor, clock, api };
  };

  it('stays held until every open menu closed and focus left, then hides after the idle time', () => {
    const { clock, api } = start();
    api().menuOpenChange('font')(true);
    api().focusIn();
    api().menuOpenChange('ruler')(true);
    expect(api().isHeld).toBe(true);
    api().menuOpenChange('font')(false);
    api().focusOut();
    clock.increment(TOOLBAR_IDLE_MS * 2);
    expect(api()).toMatchObject({ isHeld: true, isVisible: true });
    api().menuOpenChange('ruler')(false);
    expect(api()).toMatchObject({ isHeld: false, isVisible: true });
    clock.increment(TOOLBAR_IDLE_MS);
    expect(api().isVisible).toBe(false);
  });

  it('counts a menu once however often it reports opening', () => {
    const { api } = start();
    api().menuOpenChange('font')(true);
    api().menuOpenChange('font')(true);
    api().menuOpenChange('font')(false);
    expect(api().isHeld).toBe(false);
  });

  it('lets go of the menus that went away, and of everything when the toolbar goes', () => {
    const { api } = start();
    api().menuOpenChange('mobile')(true);
    api().menuOpenChange('shortcuts')(true);
    api().menusGone(['mobile']);
    expect(api().isHeld).toBe(true);
    api().focusIn();
    api().releaseAll();
    expect(api().isHeld).toBe(false);
  });

  it('ignores a release of what does not hold it', () => {
    const actor = createActor(toolbarMachine).start();
    actor.send({ type: 'toolbar.hold', by: 'focus' });
    actor.send({ type: 'toolbar.release', by: 'font' });
    expect(actor.getSnapshot().value).toBe('held');
    actor.send({ type: 'toolbar.release', by: 'focus' });
    expect(actor.getSnapshot().value).toBe('visible');
  });
});
