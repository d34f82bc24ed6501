import { assign, enqueueActions, setup } from 'xstate';
import { MAX_TOASTS, TOAST_DURATION_MS } from '../../domain/constants';
import type { StateMetaWithTimers } from '../shared/timers';
import type { Toast, ToastsContext, ToastsEvent } from './toasts.types';

/** True when a toast with this message is already shown (SPEC §8: no duplicates). */
export function hasToastWithMessage(toasts: readonly Toast[], message: string): boolean {
  return toasts.some((t) => t.message === message);
}

/** Appends a toast and drops the oldest ones beyond MAX_TOASTS. */
export function appendToast(toasts: readonly Toast[], toast: Toast, max: number = MAX_TOASTS): Toast[] {
  return [...toasts, toast].slice(-max);
}

/** The id of a toast's dismissal timer. */
export const toastTimerId = (id: number) => `toast-${id}`;

export const toastsMachine = setup({
  types: {} as { context: ToastsContext; events: ToastsEvent; meta: StateMetaWithTimers },
  actions: {
    addToast: assign(({ context, event }) => {
      if (event.type !== 'toast.show') return {};
      return {
        toasts: appendToast(context.toasts, { id: context.nextId, kind: event.kind, message: event.message }),
        nextId: context.nextId + 1,
      };
    }),
    removeToast: assign(({ context, event }) => {
      if (event.type !== 'toast.dismiss') return {};
      return { toasts: context.toasts.filter((t) => t.id !== event.id) };
    }),
    /** The toast just added dismisses itself after TOAST_DURATION_MS, on the actor's clock. */
    startDismissTimer: enqueueActions(({ context, enqueue }) => {
      const id = context.nextId - 1;
      enqueue.raise({ type: 'toast.dismiss', id }, { delay: TOAST_DURATION_MS, id: toastTimerId(id) });
    }),
    /** A toast closed by hand no longer needs its timer. */
    cancelDismissTimer: enqueueActions(({ event, enqueue }) => {
      if (event.type === 'toast.dismiss') enqueue.cancel(toastTimerId(event.id));
    }),
  },
  guards: {
    isDuplicate: ({ context, event }) => event.type === 'toast.show' && hasToastWithMessage(context.toasts, event.message),
  },
}).createMachine({
  id: 'toasts',
  initial: 'active',
  context: { toasts: [], nextId: 1 },
  states: {
    active: {
      meta: { description: 'Holds the shown toasts; each dismisses itself after TOAST_DURATION_MS (its own delayed event) or when closed.' },
      on: {
        'toast.show': [
          { guard: 'isDuplicate', description: 'Ignored: a toast with the same message is already shown.' },
          { actions: ['addToast', 'startDismissTimer'], description: 'Appended; the oldest is dropped when more than MAX_TOASTS would show.' },
        ],
        'toast.dismiss': { actions: ['removeToast', 'cancelDismissTimer'] },
      },
    },
  },
});
