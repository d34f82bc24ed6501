import { assign, cancel, raise, setup } from 'xstate';
import { REFRESH_BUTTON_DELAY_MS, SPINNER_DELAY_MS } from '../../domain/constants';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { PassageLoadingContext, PassageLoadingEvent } from './passageLoading.types';

/** The outcomes of a load, accepted while it is pending (`loading`, `slow` or `stalled`). */
const outcomes = {
  'passage.loaded': { target: 'loaded' },
  'passage.groupCodeRequired': { target: 'groupCodeRequired' },
  'passage.licenseRequired': { target: 'licenseRequired' },
  'passage.failed': { target: 'error', actions: 'storeErrorStatus' },
} as const;

const spinnerTimer = timer('spinner', SPINNER_DELAY_MS, { type: 'passage.spinnerDue' as const });
const refreshTimer = timer('refresh', REFRESH_BUTTON_DELAY_MS - SPINNER_DELAY_MS, { type: 'passage.refreshDue' as const });

export const passageLoadingMachine = setup({
  types: {} as { context: PassageLoadingContext; events: PassageLoadingEvent; meta: StateMetaWithTimers },
  actions: {
    /**
     * Provided by the engine: fetches the current passage again. The spec's "refresh returns to position 0 of the
     * page stack" is `navigate(0)`, a reload of the current reader address (same position, edition and code),
     * not a move to another passage; the engine does the equivalent without reloading the app.
     */
    refetchPassage: () => {},
    storeErrorStatus: assign({ errorStatus: ({ event }) => (event.type === 'passage.failed' ? event.status : null) }),
    clearErrorStatus: assign({ errorStatus: null }),
    startSpinnerTimer: raise(spinnerTimer.event, { delay: spinnerTimer.delay, id: spinnerTimer.id }),
    cancelSpinnerTimer: cancel(spinnerTimer.id),
    startRefreshTimer: raise(refreshTimer.event, { delay: refreshTimer.delay, id: refreshTimer.id }),
    cancelRefreshTimer: cancel(refreshTimer.id),
  },
}).createMachine({
  id: 'passageLoading',
  initial: 'idle',
  context: { errorStatus: null },
  on: {
    'passage.load': { target: '.loading', reenter: true, actions: 'clearErrorStatus', description: 'A new load restarts the spinner and refresh timers.' },
  },
  states: {
    idle: {
      meta: { description: 'No passage has been requested yet.' },
    },
    loading: {
      entry: 'startSpinnerTimer',
      exit: 'cancelSpinnerTimer',
      meta: {
        description: 'The passage is being fetched; the column shows the loading skeleton.',
        timers: [spinnerTimer],
      },
      on: { 'passage.spinnerDue': { target: 'slow' }, ...outcomes },
    },
    slow: {
      entry: 'startRefreshTimer',
      exit: 'cancelRefreshTimer',
      meta: {
        description: 'The fetch has taken longer than the spinner delay; a spinner shows.',
        timers: [refreshTimer],
      },
      on: { 'passage.refreshDue': { target: 'stalled' }, ...outcomes },
    },
    stalled: {
      meta: { description: "The fetch has taken longer than the refresh delay; 'Retrieving passage...' shows with a 'Refresh' button." },
      on: { 'passage.refresh': { target: 'loading', actions: 'refetchPassage' }, ...outcomes },
    },
    loaded: {
      meta: { description: 'The passage is shown.' },
    },
    groupCodeRequired: {
      meta: { description: 'The passage needs a class code: the group-code panel shows and the bottom bar hides.' },
    },
    licenseRequired: {
      meta: { description: 'The passage needs a license: the license-required panel shows over blurred placeholder text.' },
    },
    error: {
      meta: { description: "The fetch failed: the error panel shows 'Not found' for 404, else 'Unavailable'." },
    },
  },
});
