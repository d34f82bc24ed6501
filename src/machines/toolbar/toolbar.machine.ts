import { setup } from 'xstate';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToolbarEvent } from './toolbar.types';

/** Inactivity before the toolbar slides away. The spec does not give the value. @default 3000 */
export const TOOLBAR_IDLE_MS = 3000;

export const toolbarMachine = setup({
  types: {} as { events: ToolbarEvent; meta: StateMetaWithTimers },
}).createMachine({
  id: 'toolbar',
  initial: 'visible',
  states: {
    visible: {
      meta: { description: 'Shown; hides after a period without activity.', timers: [timer('idle', TOOLBAR_IDLE_MS, 'toolbar.idle')] },
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
