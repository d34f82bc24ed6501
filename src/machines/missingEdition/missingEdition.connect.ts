import type { SnapshotFrom } from 'xstate';
import { PASSAGE_NOT_FOUND } from '../../domain/constants';
import type { missingEditionMachine } from './missingEdition.machine';
import type { MissingEditionEvent } from './missingEdition.types';

/** The column's error when its edition is missing and cannot be created (SPEC §8). */
export const MISSING_EDITION_ERROR = { status: 404, message: PASSAGE_NOT_FOUND } as const;

export function connectMissingEdition(snapshot: SnapshotFrom<typeof missingEditionMachine>, _send: (event: MissingEditionEvent) => void) {
  const isFailed = snapshot.matches('failed');
  return {
    slot: snapshot.context.slot,
    /** The edition is being created: the column shows loading. */
    isCreating: snapshot.matches('creating'),
    isFailed,
    /** `{ status: 404, message: 'Passage not found' }` when failed, else null. */
    error: isFailed ? MISSING_EDITION_ERROR : null,
  };
}
