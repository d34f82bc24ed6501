/**
 * Toast queue (SPEC §8 Toasts: 2 seconds each, no duplicates, at most 3 at once). The toasts stay while the reader
 * holds them, with the pointer over them or focus in them (WCAG 2.2.1), and get their 2 seconds again after.
 */

/** A toast is either a confirmation or an error. */
export type ToastKind = 'success' | 'error';

/** What a machine asks for when it wants a toast; also the params of every `showToast` action. */
export interface ToastRequest {
  kind: ToastKind;
  /** Shown verbatim; two toasts with the same message are never shown at once. */
  message: string;
}

/** A toast on screen. */
export interface Toast extends ToastRequest {
  /** Unique for the lifetime of the machine; also names its timer (`toast-<id>`). */
  id: number;
}

/** What holds the toasts: the pointer over them, or focus in them. */
export type ToastsHolder = 'pointer' | 'focus';

export interface ToastsContext {
  /** Shown toasts, oldest first, at most MAX_TOASTS. */
  toasts: Toast[];
  /** The id the next toast gets. @default 1 */
  nextId: number;
  /** What holds the toasts now, each once; `held` while any does. @default [] */
  holders: ToastsHolder[];
}

export type ToastsEvent =
  /** Show a toast, unless one with the same message is already shown. */
  | { type: 'toast.show'; kind: ToastKind; message: string }
  /** Remove a toast: sent by the engine when its timer fires, or by the view when it is closed. */
  | { type: 'toast.dismiss'; id: number }
  /** The pointer came over the toasts, or focus into them: none goes by itself until every hold ends. */
  | { type: 'toasts.hold'; by: ToastsHolder }
  /** The pointer left the toasts, or focus did. */
  | { type: 'toasts.release'; by: ToastsHolder };

export type ToastsState = 'counting' | 'held';
