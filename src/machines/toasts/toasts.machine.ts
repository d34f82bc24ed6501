import { assign, setup } from 'xstate';
import { MAX_TOASTS, TOAST_DURATION_MS } from '../../domain/constants';
import type { StateMetaWithTimers, TimerSpec } from '../shared/timers';
import type { Toast, ToastsContext, ToastsEvent } from './toasts.types';

/** True when a toast with this message is already shown (SPEC §8: no duplicates). */
export function hasToastWithMessage(toasts: readonly Toast[], message: string): boolean {
  return toasts.some((t) => t.message === message);
}

/** Appends a toast and drops the oldest ones beyond MAX_TOASTS. */
export function appendToast(toasts: readonly Toast[], toast: Toast, max: number = MAX_TOASTS): Toast[] {
  return [...toasts, toast].slice(-max);
}

/** A toast's timer: its dismissal event carries the toast id. */
export type ToastTimerSpec = Omit<TimerSpec, 'event'> & { event: Extract<ToastsEvent, { type: 'toast.dismiss' }> };

/**
 * The timers the toast queue needs: one per shown toast, lasting TOAST_DURATION_MS, that dismisses it.
 * `meta.timers` is static per state, so the engine asks this function instead; the ids are unique per toast, so
 * diffing the result after each snapshot starts timers for new toasts and cancels them for removed ones.
 */
export function toastTimers(snapshot: { context: Pick<ToastsContext, 'toasts'> }): ToastTimerSpec[] {
  return snapshot.context.toasts.map((t) => {
    const event: ToastTimerSpec['event'] = { type: 'toast.dismiss', id: t.id };
    return { id: `toast-${t.id}`, delay: TOAST_DURATION_MS, event };
  });
}

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
      meta: { description: 'Holds the shown toasts; each is dismissed after TOAST_DURATION_MS (see toastTimers) or when closed.' },
      on: {
        'toast.show': [
          { guard: 'isDuplicate', description: 'Ignored: a toast with the same message is already shown.' },
          { actions: 'addToast', description: 'Appended; the oldest is dropped when more than MAX_TOASTS would show.' },
        ],
        'toast.dismiss': { actions: 'removeToast' },
      },
    },
  },
});
