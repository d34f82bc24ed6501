/** Toolbar auto-hide (SPEC §2 Reader screen, §4 Toolbar auto-hide). */
export type ToolbarEvent =
  /** Mouse, key, scroll, touch or click activity. */
  | { type: 'toolbar.activity' }
  /** Sent by the engine when the idle timer of `visible` fires. */
  | { type: 'toolbar.idle' }
  /** Keep the toolbar shown while a menu of it is open or it has focus. */
  | { type: 'toolbar.hold' }
  | { type: 'toolbar.release' };

export type ToolbarState = 'visible' | 'held' | 'hidden';
