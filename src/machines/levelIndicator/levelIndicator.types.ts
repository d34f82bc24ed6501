/** Pulsing indicator on the reading level dropdown (SPEC §2 Reading level dropdown, §9). */

export interface LevelIndicatorInput {
  /** The stored flag: the indicator was seen before. */
  seenBefore: boolean;
}

export interface LevelIndicatorContext {
  seenBefore: boolean;
}

export type LevelIndicatorEvent =
  /** The view shows the level dropdown that carries the indicator (the reader's primary column mounted it). */
  | { type: 'indicator.shown' }
  /** The view no longer shows it (the reader closed): a pulse that has not run its course waits for the next showing. */
  | { type: 'indicator.hidden' }
  /** The pointer went over the dropdown. */
  | { type: 'indicator.hover' }
  /** Sent by the engine when the timeout timer of `pulsing` fires. */
  | { type: 'indicator.timeout' };

export type LevelIndicatorState = 'init' | 'waiting' | 'pulsing' | 'seen';
