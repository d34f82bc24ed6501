/** Loading of a reader passage and what the column shows meanwhile (SPEC §2 Reader screen: passage states; §4 Passage loading; §8). */

export interface PassageLoadingContext {
  /** The HTTP status of the last failed load; null unless in `error`. @default null */
  errorStatus: number | null;
}

export type PassageLoadingEvent =
  /** Sent by the engine when it starts fetching a passage (a new position, edition or code). Restarts the timers. */
  | { type: 'passage.load' }
  /** Sent by the engine when the spinner timer of `loading` fires. */
  | { type: 'passage.spinnerDue' }
  /** Sent by the engine when the refresh timer of `slow` fires. */
  | { type: 'passage.refreshDue' }
  /** The 'Refresh' button. */
  | { type: 'passage.refresh' }
  | { type: 'passage.loaded' }
  /** The passage needs a class (group) code. */
  | { type: 'passage.groupCodeRequired' }
  /** The passage needs a license. */
  | { type: 'passage.licenseRequired' }
  /** Any other failure, with its HTTP status. */
  | { type: 'passage.failed'; status: number };

export type PassageLoadingState = 'idle' | 'loading' | 'slow' | 'stalled' | 'loaded' | 'groupCodeRequired' | 'licenseRequired' | 'error';
