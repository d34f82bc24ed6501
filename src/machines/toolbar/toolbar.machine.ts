import { assign, cancel, raise, setup } from 'xstate';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToolbarContext, ToolbarEvent } from './toolbar.types';

/** Inactivity before the toolbar slides away. The spec does not give the value. @default 3000 */
export const TOOLBAR_IDLE_MS = 3000;

const idleTimer = timer('idle', TOOLBAR_IDLE_MS, { type: 'toolbar.idle' as const });

/** The holders once `event` is applied: a hold adds its holder once, a release removes its own (or all). */
function holdersAfter(holders: readonly string[], event: ToolbarEvent): string[] {
  if (event.type === 'toolbar.hold') return holders.includes(event.by) ? [...holders] : [...holders, event.by];
  if (event.type === 'toolbar.release') return event.by === undefined ? [] : holders.filter((h) => h !== event.by);
  return [...holders];
}

/**
 * The reader's toolbar: shown, slid away after TOOLBAR_IDLE_MS without activity, and held shown while one of its
 * menus is open or focus is inside it. The machine keeps what holds it, so the view only says what opened, closed,
 * gained or lost focus.
 */
export const toolbarMachine = setup({
  types: {} as { context: ToolbarContext; events: ToolbarEvent; meta: StateMetaWithTimers },
  actions: {
    startIdleTimer: raise(idleTimer.event, { delay: idleTimer.delay, id: idleTimer.id }),
    cancelIdleTimer: cancel(idleTimer.id),
    updateHolders: assign(({ context, event }) => ({ holders: holdersAfter(context.holders, event) })),
  },
  guards: {
    /** The release ends the last hold. */
    isLastHold: ({ context, event }) => holdersAfter(context.holders, event).length === 0,
  },
}).createMachine({
  id: 'toolbar',
  initial: 'visible',
  context: { holders: [] },
  states: {
    visible: {
      entry: 'startIdleTimer',
      exit: 'cancelIdleTimer',
      meta: { description: 'Shown; hides after a period without activity.', timers: [idleTimer] },
      on: {
        // Re-entering restarts the idle timer.
        'toolbar.activity': { target: 'visible', reenter: true },
        'toolbar.idle': { target: 'hidden' },
        'toolbar.hold': { target: 'held', actions: 'updateHolders' },
      },
    },
    held: {
      meta: { description: 'Shown and pinned while one of its menus is open or it has focus; the last release shows it as usual.' },
      on: {
        'toolbar.hold': { target: 'held', actions: 'updateHolders' },
        'toolbar.release': [
          { guard: 'isLastHold', target: 'visible', actions: 'updateHolders' },
          { target: 'held', actions: 'updateHolders' },
        ],
      },
    },
    hidden: {
      meta: { description: 'Slid away; any activity brings it back.' },
      on: {
        'toolbar.activity': { target: 'visible' },
        'toolbar.hold': { target: 'held', actions: 'updateHolders' },
      },
    },
  },
});
