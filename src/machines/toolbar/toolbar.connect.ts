import type { SnapshotFrom } from 'xstate';
import type { toolbarMachine } from './toolbar.machine';
import type { ToolbarEvent, ToolbarHolder } from './toolbar.types';

/** The toolbar's commands; they do not depend on its snapshot, so a view may keep them across renders. */
export function toolbarCommands(send: (event: ToolbarEvent) => void) {
  return {
    activity: () => send({ type: 'toolbar.activity' }),
    /** A menu's open state as it changes (React Aria's onOpenChange): open holds the toolbar, closed lets go. */
    menuOpenChange: (menu: ToolbarHolder) => (isOpen: boolean) => send(isOpen ? { type: 'toolbar.hold', by: menu } : { type: 'toolbar.release', by: menu }),
    /** Menus that went away (an unmounted menu never reports its closing). */
    menusGone: (menus: readonly ToolbarHolder[]) => menus.forEach((by) => send({ type: 'toolbar.release', by })),
    focusIn: () => send({ type: 'toolbar.hold', by: 'focus' }),
    focusOut: () => send({ type: 'toolbar.release', by: 'focus' }),
    /** The toolbar went away: every hold ends. */
    releaseAll: () => send({ type: 'toolbar.release' }),
  };
}

export function connectToolbar(snapshot: SnapshotFrom<typeof toolbarMachine>, send: (event: ToolbarEvent) => void) {
  return {
    isVisible: !snapshot.matches('hidden'),
    isHeld: snapshot.matches('held'),
    ...toolbarCommands(send),
  };
}
