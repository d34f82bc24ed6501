/**
 * One reader column (SPEC §2 Reader screen: passage states; §4 Passage loading, Missing edition, Decode; §8): the
 * passage it shows, its load, its gates, the on-demand creation of a missing edition and the shown passage's decoded
 * text. The reader system spawns one per slot.
 */
import type { OnDemandEditionBody, Passage } from '../../domain/schemas';
import type { PlayerEdition } from '../player/player.types';
import type { Slot } from '../readingSession/readingSession.types';
import type { ActorOutcome } from '../shared/outcome';

export interface ReaderColumnInput {
  slot: Slot;
}

/** A passage to load: an edition of `passageCount` passages, at a position. Also what its neighbours are prefetched by. */
export interface PassageRequest {
  editionId: number;
  position: number;
  passageCount: number;
}

/** Which passage's decoded text to load (its decode markup: GET /passages/{id}/decode at an edition and position). */
export interface DecodedTextRequest {
  passageId: number;
  editionId: number;
  position: number;
}

/** What a column is told to show: nothing, a missing edition (to create), or a passage. */
export type ColumnPlan =
  | { kind: 'none' }
  | { kind: 'missing'; slug: string; version: string; language: string; level: string }
  | ({ kind: 'passage'; key: string; edition: ColumnEdition } & PassageRequest);

/** What the column knows of its edition: what the player needs of it, and its language (for a tapped word). */
export interface ColumnEdition extends PlayerEdition {
  language: string;
  /** The title's slug, which the player's tracking names. */
  slug: string;
}

export interface ReaderColumnContext {
  slot: Slot;
  /** The passage being loaded or shown, by edition and position; null before any. @default null */
  request: PassageRequest | null;
  /** The passage shown (kept while the next one loads); null when none. @default null */
  passage: Passage | null;
  /** The HTTP status of the last failed load; null unless `failed`. @default null */
  errorStatus: number | null;
  /** The missing edition being created (or that could not be). @default null */
  missing: { slug: string; body: OnDemandEditionBody } | null;
  /** `'lang:LEVEL'` keys created in this navigation attempt; each is created at most once. @default [] */
  attempts: string[];
  /** The edition of the passage plan; null for none or a missing edition. @default null */
  edition: ColumnEdition | null;
  /** The reader system's facts: this column is the one the player plays, and its language is not voiced for this reader. */
  plays: boolean;
  audioLocked: boolean;
}

export type ReaderColumnEvent =
  /** The reader system: the column's plan for the view now (a new position, edition or title). */
  | { type: 'column.show'; plan: ColumnPlan }
  /** The reader system: a new navigation attempt, or the reader closed. Forget the passage and the attempts. */
  | { type: 'column.reset' }
  /** The reader system: who reads changed (a sign-in, a class code); a gated passage is asked for again. */
  | { type: 'column.reload' }
  /** The reader system: whether this column plays and whether its audio is locked (told on each view and access change). */
  | { type: 'column.facts'; plays: boolean; audioLocked: boolean }
  /** Word mode: say the word at `offset` of the passage's plain text (src/domain/sanitize.ts), or play the passage from it. */
  | { type: 'word.say'; offset: number }
  /** The column's Listen toggle: on plays this column's edition (its audio gate first), off closes the player. */
  | { type: 'audio.listen'; on: boolean }
  | { type: 'word.playFrom'; offset: number }
  /** The player: a passage's narration arrived; the column that shows that passage gains its url and speech marks. */
  | { type: 'narration.loaded'; passageId: number; url: string; speechMarks: NonNullable<Passage['audio']>['speechMarks'] }
  /** The 'Refresh' button of a stalled load. */
  | { type: 'passage.refresh' }
  /** The reading mode is in decode and the shown passage lacks its decoded text: the column loads it. */
  | { type: 'decodedText.want' };

/** The outcomes of the column's own loads (XState's done and error events of its invocations). */
export type ReaderColumnDone =
  | ActorOutcome<'passage', Passage>
  | ActorOutcome<'edition', unknown>
  | ActorOutcome<'decodedText', string>;
