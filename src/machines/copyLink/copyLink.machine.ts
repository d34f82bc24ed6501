import { cancel, raise, setup } from 'xstate';
import { COPY_CONFIRMATION_MS } from '../../domain/constants';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToastRequest } from '../toasts/toasts.types';
import type { CopyLinkEvent } from './copyLink.types';

/** Toast after the link is copied (SPEC §8). */
export const LINK_COPIED_MESSAGE = 'Magic link copied to clipboard!';
/** Toast when the clipboard write fails (SPEC §8). */
export const COPY_FAILED_MESSAGE = 'Failed to copy link';

const confirmationTimer = timer('confirmation', COPY_CONFIRMATION_MS, { type: 'copy.confirmationDone' as const });

const copiedToast: ToastRequest = { kind: 'success', message: LINK_COPIED_MESSAGE };
const failedToast: ToastRequest = { kind: 'error', message: COPY_FAILED_MESSAGE };

export const copyLinkMachine = setup({
  types: {} as { events: CopyLinkEvent; meta: StateMetaWithTimers },
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
      on: {
        'copy.succeeded': { target: 'copied', actions: ['trackCopiedMagicLink', { type: 'showToast', params: copiedToast }] },
        'copy.failed': { target: 'idle', actions: { type: 'showToast', params: failedToast } },
      },
    },
    copied: {
      entry: 'startConfirmationTimer',
      exit: 'cancelConfirmationTimer',
      meta: {
        description: "The button reads 'Copied!' for COPY_CONFIRMATION_MS after a successful copy.",
        timers: [confirmationTimer],
      },
      on: {
        // Re-entering restarts the confirmation timer.
        'copy.succeeded': { target: 'copied', reenter: true, actions: ['trackCopiedMagicLink', { type: 'showToast', params: copiedToast }] },
        'copy.failed': { target: 'idle', actions: { type: 'showToast', params: failedToast } },
        'copy.confirmationDone': { target: 'idle' },
      },
    },
  },
});
