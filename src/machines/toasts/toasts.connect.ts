import type { SnapshotFrom } from 'xstate';
import type { toastsMachine } from './toasts.machine';
import type { Toast, ToastsEvent } from './toasts.types';

export function connectToasts(snapshot: SnapshotFrom<typeof toastsMachine>, send: (event: ToastsEvent) => void) {
  return {
    /** Oldest first. */
    toasts: snapshot.context.toasts as readonly Toast[],
    dismiss: (id: number) => send({ type: 'toast.dismiss', id }),
  };
}
