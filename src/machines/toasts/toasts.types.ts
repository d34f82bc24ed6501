/** Toast queue (SPEC §8 Toasts: 2 seconds each, no duplicates, at most 3 at once). */

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

export interface ToastsContext {
  /** Shown toasts, oldest first, at most MAX_TOASTS. */
  toasts: Toast[];
  /** The id the next toast gets. @default 1 */
  nextId: number;
}

export type ToastsEvent =
  /** Show a toast, unless one with the same message is already shown. */
  | { type: 'toast.show'; kind: ToastKind; message: string }
  /** Remove a toast: sent by the engine when its timer fires, or by the view when it is closed. */
  | { type: 'toast.dismiss'; id: number };

export type ToastsState = 'active';
