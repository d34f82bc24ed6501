/**
 * A column's rules as pure functions of its context: what it tells the player and the reading mode about the passage
 * it shows, and what a tapped word asks for. The column's actions and the wiring in readerSystem.children.ts call
 * these, so each rule is written once.
 */
import { passagePlainText } from '../../domain/sanitize';
import { wordTimesAt, type WordTarget } from '../../domain/wordAudio';
import type { PassageFacts } from '../highlightDecode/highlightDecode.types';
import { isBlocked } from '../player/player.rules';
import type { PlayerTrack } from '../player/player.types';
import type { WordRequest } from '../wordAudio/wordAudio.types';
import type { Passage } from '../../domain/schemas';
import type { ColumnPlan, ReaderColumnContext } from './readerColumn.types';

/** What the player is told when this column plays: the column, its passage and what the player needs of its edition. */
export function trackOf(context: ReaderColumnContext): PlayerTrack {
  const edition = context.edition && { id: context.edition.id, audioEnabled: context.edition.audioEnabled, audioTotalLength: context.edition.audioTotalLength };
  return { slot: context.slot, slug: context.edition?.slug ?? null, passage: context.passage, edition };
}

/**
 * What the reading mode hears from this column: highlight reads the speech marks of the column that plays, decode the
 * decoded text of the primary column (SPEC §4 Highlight, Decode). Null when neither is this column.
 */
export function readingFactsOf(context: ReaderColumnContext): Partial<PassageFacts> | null {
  const marks = context.plays ? { hasSpeechMarks: Boolean(context.passage?.audio?.speechMarks.length) } : {};
  const decoded = context.slot === 'primary' ? { hasDecodedText: context.passage?.textDecoded != null } : {};
  return context.plays || context.slot === 'primary' ? { ...marks, ...decoded } : null;
}

/** Where a word of the passage was tapped: its plain text, language and the offset; null without a readable passage. */
export function wordTargetOf(context: ReaderColumnContext, offset: number): WordTarget | null {
  const { passage } = context;
  if (!passage || isBlocked(passage)) return null;
  return { text: passagePlainText(passage.text), locale: context.edition?.language ?? 'en', offset };
}

/**
 * A word to say: the passage's narration when it has speech marks, else which narration to ask for (when the edition
 * has audio), else neither ('Audio not available').
 */
export function wordRequestOf(context: ReaderColumnContext, offset: number): WordRequest {
  const { passage, slot } = context;
  const target = wordTargetOf(context, offset) ?? { text: '', locale: 'en', offset };
  if (!passage || isBlocked(passage)) return { slot, target, narration: null, load: null };
  const marks = passage.audio?.speechMarks ?? [];
  // The last word ends at the next mark's time, or a short while after its start (the length is the player's).
  const narration = passage.audio?.url && marks.length ? { url: passage.audio.url, speechMarks: marks, duration: 0 } : null;
  const load = context.edition?.audioEnabled ? { passageId: passage.id, editionId: passage.editionId, position: passage.position } : null;
  return { slot, target, narration, load };
}

/** Where 'Play from here' starts the player: the tapped word's time in the passage's narration, or null without speech marks. */
export function playFromSeconds(context: ReaderColumnContext, offset: number): { passageId: number; seconds: number } | null {
  const { passage } = context;
  const marks = passage?.audio?.speechMarks;
  const target = wordTargetOf(context, offset);
  const times = passage && marks?.length && target ? wordTimesAt(target, marks, 0) : null;
  return passage && times ? { passageId: passage.id, seconds: times.start } : null;
}

/** Told that it plays, having not played before. */
export const startsPlaying = (context: ReaderColumnContext, plays: boolean) => plays && !context.plays;

/** The system's facts differ from the ones the column keeps. */
export const isNewFacts = (context: ReaderColumnContext, facts: { plays: boolean; audioLocked: boolean }) => facts.plays !== context.plays || facts.audioLocked !== context.audioLocked;

/** Told that it plays and that its language is not voiced for this reader, which it did not know: the player cannot play it. */
export const locksItsAudio = (context: ReaderColumnContext, facts: { plays: boolean; audioLocked: boolean }) => facts.plays && facts.audioLocked && isNewFacts(context, facts);

/** The key of an edition within an attempt: lower-case language, upper-case level, e.g. 'en:B1'. */
export function editionKey(language: string, level: string): string {
  return `${language.toLowerCase()}:${level.toUpperCase()}`;
}

/** The plan of a 'column.show', the missing edition it names, the passage a load answered. */
export type Plan<K extends ColumnPlan['kind']> = Extract<ColumnPlan, { kind: K }>;
export const planOf = (event: { type: string }) => (event as { plan?: ColumnPlan }).plan;
export const missingOf = (event: { type: string }) => planOf(event) as Plan<'missing'>;
export const passageOf = (event: { type: string }) => (event as unknown as { output: Passage }).output;
