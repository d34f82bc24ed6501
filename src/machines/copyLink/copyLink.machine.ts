import { cancel, fromPromise, raise, setup } from 'xstate';
import { COPY_CONFIRMATION_MS } from '../../domain/constants';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToastRequest } from '../toasts/toasts.types';
import type { CopyLinkDone, CopyLinkEvent } from './copyLink.types';

/** Toast after the link is copied (SPEC §8). */
export const LINK_COPIED_MESSAGE = 'Magic link copied to clipboard!';
/** Toast when the clipboard write fails (SPEC §8). */
export const COPY_FAILED_MESSAGE = 'Failed to copy link';

const confirmationTimer = timer('confirmation', COPY_CONFIRMATION_MS, { type: 'copy.confirmationDone' as const });

const copiedToast: ToastRequest = { kind: 'success', message: LINK_COPIED_MESSAGE };
const failedToast: ToastRequest = { kind: 'error', message: COPY_FAILED_MESSAGE };

/** The text of the 'copy.request' that entered `copying`. */
const textOf = (event: { type: string }) => ({ text: (event as Extract<CopyLinkEvent, { type: 'copy.request' }>).text });

export const copyLinkMachine = setup({
  types: {} as { events: CopyLinkEvent | CopyLinkDone; meta: StateMetaWithTimers },
  actors: {
    /** Provided by the engine: writes the text to the clipboard port. */
    copyText: fromPromise<unknown, { text: string }>(() => Promise.reject(new Error('provided by the engine'))),
  },
  actions: {
    /** Provided by the engine: tracks 'Copied Magic Link'. */
    trackCopiedMagicLink: () => {},
    /** Provided by the engine: sends 'toast.show' to the toast queue. */
    showToast: (_, _params: ToastRequest) => {},
    startConfirmationTimer: raise(confirmationTimer.event, { delay: confirmationTimer.delay, id: confirmationTimer.id }),
    cancelConfirmationTimer: cancel(confirmationTimer.id),
  },
}).createMachine({
  id: 'copyLink',
  initial: 'idle',
  states: {
    idle: {
      meta: { description: "The button reads 'Copy Link'." },
      on: { 'copy.request': { target: 'copying' } },
    },
    copying: {
      meta: { description: 'The link is being written to the clipboard.' },
      invoke: {
        id: 'copy',
        src: 'copyText',
        input: ({ event }) => textOf(event),
        onDone: { target: 'copied', actions: ['trackCopiedMagicLink', { type: 'showToast', params: copiedToast }] },
        onError: { target: 'idle', actions: { type: 'showToast', params: failedToast } },
      },
      on: { 'copy.request': { target: 'copying', reenter: true, description: 'Another copy replaces this one.' } },
    },
    copied: {
      entry: 'startConfirmationTimer',
      exit: 'cancelConfirmationTimer',
      meta: {
        description: "The button reads 'Copied!' for COPY_CONFIRMATION_MS after a successful copy.",
        timers: [confirmationTimer],
      },
      on: {
        // Copying again ends the confirmation; a success starts it anew.
        'copy.request': { target: 'copying' },
        'copy.confirmationDone': { target: 'idle' },
      },
    },
  },
});
