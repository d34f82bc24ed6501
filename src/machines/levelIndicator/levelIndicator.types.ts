/** Pulsing indicator on the reading level dropdown (SPEC §2 Reading level dropdown, §9). */

export interface LevelIndicatorInput {
  /** The stored flag: the indicator was seen before. */
  seenBefore: boolean;
}

export interface LevelIndicatorContext {
  seenBefore: boolean;
}

export type LevelIndicatorEvent =
  /** The pointer went over the dropdown. */
  | { type: 'indicator.hover' }
  /** Sent by the engine when the timeout timer of `pulsing` fires. */
  | { type: 'indicator.timeout' };

export type LevelIndicatorState = 'init' | 'pulsing' | 'seen';
