import type { SnapshotFrom } from 'xstate';
import { PASSAGE_NOT_FOUND } from '../../domain/constants';
import type { readerColumnMachine } from './readerColumn.machine';
import type { ReaderColumnEvent } from './readerColumn.types';

/** Texts of the reader's passage states (SPEC §2 Reader screen, §8 Reader error panel). */
export const PASSAGE_LOADING_TEXT = {
  retrieving: 'Retrieving passage...',
  refresh: 'Refresh',
  notFound: 'Not found',
  unavailable: 'Unavailable',
  errorMessage: 'Please choose another passage or Contact Support',
} as const;

/** The column's error when its edition is missing and cannot be created (SPEC §8). */
export const MISSING_EDITION_ERROR = { status: 404, message: PASSAGE_NOT_FOUND } as const;

export function connectReaderColumn(snapshot: SnapshotFrom<typeof readerColumnMachine>, send: (event: ReaderColumnEvent) => void) {
  const showRefresh = snapshot.matches({ loading: 'stalled' });
  const { errorStatus } = snapshot.context;
  const creationFailed = snapshot.matches({ missing: 'failed' });
  return {
    slot: snapshot.context.slot,
    /** The first moments of a load: the loading skeleton. */
    showSkeleton: snapshot.matches({ loading: 'waiting' }),
    /** After the spinner delay (1.5 s). */
    showSpinner: snapshot.matches({ loading: 'slow' }) || showRefresh,
    /** After the refresh delay (10 s): 'Retrieving passage...' with a 'Refresh' button. */
    showRefresh,
    /** 'Retrieving passage...' while the Refresh button shows, else null. */
    message: showRefresh ? PASSAGE_LOADING_TEXT.retrieving : null,
    refreshLabel: PASSAGE_LOADING_TEXT.refresh,
    /** The passage shows (not a gate, an error or a load). */
    isLoaded: snapshot.matches('shown'),
    needsGroupCode: snapshot.matches({ gated: 'groupCode' }),
    needsLicense: snapshot.matches({ gated: 'license' }),
    /** The error panel's texts, or null. The view adds the Contact Support mailto link. */
    error: snapshot.matches('failed')
      ? { title: errorStatus === 404 ? PASSAGE_LOADING_TEXT.notFound : PASSAGE_LOADING_TEXT.unavailable, message: PASSAGE_LOADING_TEXT.errorMessage }
      : null,
    /** The missing edition is being created: the column shows loading. */
    isCreating: snapshot.matches({ missing: 'creating' }),
    /** The missing edition could not be created. */
    creationFailed,
    /** `{ status: 404, message: 'Passage not found' }` when the missing edition could not be created, else null. */
    missingError: creationFailed ? MISSING_EDITION_ERROR : null,
    refresh: () => send({ type: 'passage.refresh' }),
  };
}
