import { cancel, raise, setup } from 'xstate';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToolbarEvent } from './toolbar.types';

/** Inactivity before the toolbar slides away. The spec does not give the value. @default 3000 */
export const TOOLBAR_IDLE_MS = 3000;

const idleTimer = timer('idle', TOOLBAR_IDLE_MS, { type: 'toolbar.idle' as const });

export const toolbarMachine = setup({
  types: {} as { events: ToolbarEvent; meta: StateMetaWithTimers },
  actions: {
    startIdleTimer: raise(idleTimer.event, { delay: idleTimer.delay, id: idleTimer.id }),
    cancelIdleTimer: cancel(idleTimer.id),
  },
}).createMachine({
  id: 'toolbar',
  initial: 'visible',
  states: {
    visible: {
      entry: 'startIdleTimer',
      exit: 'cancelIdleTimer',
      meta: { description: 'Shown; hides after a period without activity.', timers: [idleTimer] },
      on: {
        // Re-entering restarts the idle timer.
        'toolbar.activity': { target: 'visible', reenter: true },
        'toolbar.idle': { target: 'hidden' },
        'toolbar.hold': { target: 'held' },
      },
    },
    held: {
      meta: { description: 'Shown and pinned while one of its menus is open or it has focus.' },
      on: { 'toolbar.release': { target: 'visible' } },
    },
    hidden: {
      meta: { description: 'Slid away; any activity brings it back.' },
      on: {
        'toolbar.activity': { target: 'visible' },
        'toolbar.hold': { target: 'held' },
      },
    },
  },
});
