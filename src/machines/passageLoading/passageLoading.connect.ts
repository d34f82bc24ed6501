import type { SnapshotFrom } from 'xstate';
import type { passageLoadingMachine } from './passageLoading.machine';
import type { PassageLoadingEvent } from './passageLoading.types';

/** Texts of the reader's passage states (SPEC §2 Reader screen, §8 Reader error panel). */
export const PASSAGE_LOADING_TEXT = {
  retrieving: 'Retrieving passage...',
  refresh: 'Refresh',
  notFound: 'Not found',
  unavailable: 'Unavailable',
  errorMessage: 'Please choose another passage or Contact Support',
} as const;

export function connectPassageLoading(snapshot: SnapshotFrom<typeof passageLoadingMachine>, send: (event: PassageLoadingEvent) => void) {
  const showRefresh = snapshot.matches('stalled');
  const { errorStatus } = snapshot.context;
  return {
    /** The first moments of a load: the loading skeleton. */
    showSkeleton: snapshot.matches('loading'),
    /** After the spinner delay (1.5 s). */
    showSpinner: snapshot.matches('slow') || showRefresh,
    /** After the refresh delay (10 s): 'Retrieving passage...' with a 'Refresh' button. */
    showRefresh,
    /** 'Retrieving passage...' while the Refresh button shows, else null. */
    message: showRefresh ? PASSAGE_LOADING_TEXT.retrieving : null,
    refreshLabel: PASSAGE_LOADING_TEXT.refresh,
    isLoaded: snapshot.matches('loaded'),
    needsGroupCode: snapshot.matches('groupCodeRequired'),
    needsLicense: snapshot.matches('licenseRequired'),
    /** The error panel's texts, or null. The view adds the Contact Support mailto link. */
    error: snapshot.matches('error')
      ? { title: errorStatus === 404 ? PASSAGE_LOADING_TEXT.notFound : PASSAGE_LOADING_TEXT.unavailable, message: PASSAGE_LOADING_TEXT.errorMessage }
      : null,
    refresh: () => send({ type: 'passage.refresh' }),
  };
}
