/**
 * What holds the toolbar shown: one of its menus, by the view's name for it ('font', 'ruler', 'columns',
 * 'shortcuts', 'mobile'), or 'focus' while focus is inside it.
 */
export type ToolbarHolder = string;

export interface ToolbarContext {
  /** What holds the toolbar now, each once; `held` while any does. */
  holders: ToolbarHolder[];
}

/** Toolbar auto-hide (SPEC §2 Reader screen, §4 Toolbar auto-hide). */
export type ToolbarEvent =
  /** Mouse, key, scroll, touch or click activity. */
  | { type: 'toolbar.activity' }
  /** Raised by the idle timer of `visible`. */
  | { type: 'toolbar.idle' }
  /** A menu of the toolbar opened, or focus came into it: the toolbar stays shown until every hold ends. */
  | { type: 'toolbar.hold'; by: ToolbarHolder }
  /** A menu closed or went away, or focus left; without `by` every hold ends (the toolbar itself went away). */
  | { type: 'toolbar.release'; by?: ToolbarHolder };

export type ToolbarState = 'visible' | 'held' | 'hidden';
