import { assertEvent, assign, enqueueActions, setup } from 'xstate';
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

/** A toast's dismissal, raised TOAST_DURATION_MS later on the actor's clock under its timer's id: `raise`'s arguments. */
const dismissalOf = (id: number) => [{ type: 'toast.dismiss', id }, { delay: TOAST_DURATION_MS, id: toastTimerId(id) }] as const;

export const toastsMachine = setup({
  types: {} as { context: ToastsContext; events: ToastsEvent; meta: StateMetaWithTimers },
  actions: {
    addToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.show');
      return {
        toasts: appendToast(context.toasts, { id: context.nextId, kind: event.kind, message: event.message }),
        nextId: context.nextId + 1,
      };
    }),
    removeToast: assign(({ context, event }) => {
      assertEvent(event, 'toast.dismiss');
      return { toasts: context.toasts.filter((t) => t.id !== event.id) };
    }),
    /** The toast just added dismisses itself after TOAST_DURATION_MS, on the actor's clock. */
    startDismissTimer: enqueueActions(({ context, enqueue }) => {
      enqueue.raise(...dismissalOf(context.nextId - 1));
    }),
    /** A toast closed by hand no longer needs its timer. */
    cancelDismissTimer: enqueueActions(({ event, enqueue }) => {
      assertEvent(event, 'toast.dismiss');
      enqueue.cancel(toastTimerId(event.id));
    }),
    /** Held: no toast goes by itself. */
    cancelAllDismissTimers: enqueueActions(({ context, enqueue }) => {
      for (const toast of context.toasts) enqueue.cancel(toastTimerId(toast.id));
    }),
    /** The hold ended: every shown toast gets TOAST_DURATION_MS again, so none vanishes the moment it is let go. */
    startAllDismissTimers: enqueueActions(({ context, enqueue }) => {
      for (const toast of context.toasts) enqueue.raise(...dismissalOf(toast.id));
    }),
    /** A hold adds its holder, once. */
    addHolder: assign(({ context, event }) => {
      assertEvent(event, 'toasts.hold');
      return { holders: [...context.holders.filter((h) => h !== event.by), event.by] };
    }),
    /** A release removes its own holder. */
    removeHolder: assign(({ context, event }) => {
      assertEvent(event, 'toasts.release');
      return { holders: context.holders.filter((h) => h !== event.by) };
    }),
    releaseAll: assign({ holders: [] }),
  },
  guards: {
    isDuplicate: ({ context, event }) => {
      assertEvent(event, 'toast.show');
      return hasToastWithMessage(context.toasts, event.message);
    },
    /** The release ends the last hold. */
    isLastHold: ({ context, event }) => {
      assertEvent(event, 'toasts.release');
      return context.holders.every((h) => h === event.by);
    },
    /** No toast is left once this one is closed. */
    leavesNoToast: ({ context, event }) => {
      assertEvent(event, 'toast.dismiss');
      return context.toasts.every((t) => t.id === event.id);
    },
  },
}).createMachine({
  id: 'toasts',
  initial: 'counting',
  context: { toasts: [], nextId: 1, holders: [] },
  states: {
    counting: {
      meta: { description: 'Holds the shown toasts; each dismisses itself after TOAST_DURATION_MS (its own delayed event) or when closed.' },
      on: {
        'toast.show': [
          { guard: 'isDuplicate', description: 'Ignored: a toast with the same message is already shown.' },
          { actions: ['addToast', 'startDismissTimer'], description: 'Appended; the oldest is dropped when more than MAX_TOASTS would show.' },
        ],
        'toast.dismiss': { actions: ['removeToast', 'cancelDismissTimer'] },
        'toasts.hold': { target: 'held', actions: ['addHolder', 'cancelAllDismissTimers'] },
      },
    },
    held: {
      meta: {
        description:
          'The pointer is over the toasts or focus is in them (WCAG 2.2.1): none goes by itself, a new one waits too, and each can still be closed. The last release gives every shown toast TOAST_DURATION_MS again.',
      },
      on: {
        'toast.show': [
          { guard: 'isDuplicate', description: 'Ignored: a toast with the same message is already shown.' },
          { actions: 'addToast', description: 'Appended, without a timer until the hold ends.' },
        ],
        'toast.dismiss': [
          {
            guard: 'leavesNoToast',
            target: 'counting',
            actions: ['removeToast', 'releaseAll'],
            description: 'The last toast closed: nothing is left to hold (a removed button may never report its blur).',
          },
          { actions: 'removeToast' },
        ],
        'toasts.hold': { actions: 'addHolder' },
        'toasts.release': [
          { guard: 'isLastHold', target: 'counting', actions: ['removeHolder', 'startAllDismissTimers'] },
          { actions: 'removeHolder' },
        ],
      },
    },
  },
});
