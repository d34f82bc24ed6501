import type { SnapshotFrom } from 'xstate';
import type { toolbarMachine } from './toolbar.machine';
import type { ToolbarEvent } from './toolbar.types';

export function connectToolbar(snapshot: SnapshotFrom<typeof toolbarMachine>, send: (event: ToolbarEvent) => void) {
  return {
    isVisible: !snapshot.matches('hidden'),
    activity: () => send({ type: 'toolbar.activity' }),
    hold: () => send({ type: 'toolbar.hold' }),
    release: () => send({ type: 'toolbar.release' }),
  };
}
