import type { SnapshotFrom } from 'xstate';
import type { toastsMachine } from './toasts.machine';
import type { Toast, ToastsEvent, ToastsHolder } from './toasts.types';

export function connectToasts(snapshot: SnapshotFrom<typeof toastsMachine>, send: (event: ToastsEvent) => void) {
  return {
    /** Oldest first. */
    toasts: snapshot.context.toasts as readonly Toast[],
    dismiss: (id: number) => send({ type: 'toast.dismiss', id }),
    /** The pointer came over the toasts, or focus into them (true), or left (false). */
    hold: (by: ToastsHolder, holding: boolean) => send(holding ? { type: 'toasts.hold', by } : { type: 'toasts.release', by }),
  };
}

/** Ends every hold on the toasts: their view left the page, so nothing there holds them any longer. */
export function releaseToasts(send: (event: ToastsEvent) => void): void {
  send({ type: 'toasts.release', by: 'pointer' });
  send({ type: 'toasts.release', by: 'focus' });
}
