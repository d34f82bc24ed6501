/** Missing edition, created on demand; one instance per column (SPEC §4 Missing edition, §8 'Passage not found'). */

/** Which reader column the instance serves. */
export type EditionSlot = 'primary' | 'secondary';

export interface MissingEditionInput {
  slot: EditionSlot;
}

export interface MissingEditionContext {
  slot: EditionSlot;
  /** `'lang:LEVEL'` keys already asked for in this navigation attempt; each is created at most once. @default [] */
  attempts: string[];
  /** The language last reported missing. @default null */
  language: string | null;
  /** The level last reported missing. @default null */
  level: string | null;
}

/** Params of `createEdition`: the engine asks the API to create this edition, then sends the outcome back. */
export interface CreateEditionParams {
  slot: EditionSlot;
  language: string;
  level: string;
}

export type MissingEditionEvent =
  /** Sent by the engine when the requested language and level have no edition. */
  | { type: 'edition.missing'; language: string; level: string }
  /** Sent by the engine when the on-demand creation succeeded. */
  | { type: 'edition.created' }
  /** Sent by the engine when the on-demand creation failed. */
  | { type: 'edition.creationFailed' }
  /** A new navigation attempt: forget what was tried. */
  | { type: 'edition.reset' };

export type MissingEditionState = 'idle' | 'creating' | 'failed';
