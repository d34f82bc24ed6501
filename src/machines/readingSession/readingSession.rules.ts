/**
 * The reading session's rules as pure functions (SPEC §2 Reader entry, §4 Passage navigation, Language and level
 * change, §6 Feature gates): which edition a choice names, whether it offers an upgrade instead, how far paging
 * goes, where a column moves, how a publication opens.
 */
import { featuresOnTitle } from '../../domain/access';
import type { Level } from '../../domain/levels';
import { columnLocks, languageUpgrade, levelUpgrade, NO_LOCKS, type ColumnLocks, type PremiumFeature } from '../../domain/locks';
import { playingEdition } from '../../domain/playingEdition';
import { closestForLanguage, closestForLevel, clampPosition, findEdition, pagingMax, pushRecent } from '../../domain/reading';
import { defaultSecondEdition } from '../../domain/readerColumns';
import type { Edition, Passage, Publication } from '../../domain/schemas';
import type { EditionFacts, ReadingMode } from '../highlightDecode/highlightDecode.types';
import { isBlocked } from '../player/player.rules';
import type { ColumnPlan } from '../readerColumn/readerColumn.types';
import { RECENT_LANGUAGES_CAP } from '../../domain/settings';
import type { EditionChoice, ReaderFacts, ReadingSessionContext, SessionRequest, Slot } from './readingSession.types';

export function editionFor(publication: Publication | null, choice: EditionChoice | null): Edition | undefined {
  if (!publication || !choice) return undefined;
  return findEdition(publication.editions, choice);
}

/** The largest position paging may reach: the largest passage count over the editions in view. */
export function maxPositionOf(context: Pick<ReadingSessionContext, 'publication' | 'primary' | 'secondary'>): number {
  return pagingMax([editionFor(context.publication, context.primary), editionFor(context.publication, context.secondary)]);
}

/** A position within the editions in view. */
export const positionWithin = (context: ReadingSessionContext, position: number) => clampPosition(position, maxPositionOf(context));

const choiceIn = (context: ReadingSessionContext, slot: Slot) => (slot === 'primary' ? context.primary : context.secondary);

/** A column moved to another edition (when there is one), its position kept within the editions now in view. */
function moveColumn(context: ReadingSessionContext, slot: Slot, next: Edition | undefined): Partial<ReadingSessionContext> {
  if (!next) return {};
  const choice = { language: next.language.code, level: next.level };
  return { [slot]: choice, position: clampPosition(context.position, maxPositionOf({ ...context, [slot]: choice })) };
}

/** A column's language changed: the closest edition at its level, and the language first among the recent ones. */
export function languageMove(context: ReadingSessionContext, slot: Slot, language: string): Partial<ReadingSessionContext> {
  const publication = context.publication!;
  const level = choiceIn(context, slot)?.level ?? publication.defaultReader.left.level;
  const moved = moveColumn(context, slot, closestForLanguage(publication.editions, language, level));
  return { ...moved, recentLanguages: pushRecent(context.recentLanguages, language, RECENT_LANGUAGES_CAP) };
}

/** A column's level changed: the closest edition in its language. */
export function levelMove(context: ReadingSessionContext, slot: Slot, level: EditionChoice['level']): Partial<ReadingSessionContext> {
  const publication = context.publication!;
  const language = choiceIn(context, slot)?.language ?? publication.defaultReader.left.language;
  return moveColumn(context, slot, closestForLevel(publication.editions, level, language));
}

/** A second column opened with this choice, the position kept within the editions now in view. */
export function secondaryMove(context: ReadingSessionContext, choice: EditionChoice): Partial<ReadingSessionContext> {
  return { secondary: choice, position: clampPosition(context.position, maxPositionOf({ ...context, secondary: choice })) };
}

/** The reader wants two columns and they are allowed, and the open title shows one. */
export const opensSecondColumn = (context: ReadingSessionContext) => wantsTwoColumns(context) && context.publication !== null && context.primary !== null && context.secondary === null;

/** The second column opens with its default edition (src/domain/readerColumns.ts). */
export function secondColumnMove(context: ReadingSessionContext): Partial<ReadingSessionContext> {
  const { publication } = context;
  return publication ? secondaryMove(context, defaultSecondEdition(publication.defaultReader, publication.editions, context.primary)) : {};
}

/** A level or a language for a column. */
export type ColumnChoice = { level: Level } | { language: string };

/**
 * The upgrade a level or language choice offers instead of being chosen (SPEC §2 Reading level dropdown, §5, §6):
 * 'Novels' on a premium title, 'Levels' for a locked level, 'Languages' for a greyed language; none until who
 * reads is known, with the features in force on the open title.
 */
export function choiceUpgrade(context: Pick<ReadingSessionContext, 'publication' | 'facts'>, choice: ColumnChoice): PremiumFeature | null {
  if (!context.facts.access.known) return null;
  const held = featuresOf(context);
  return 'level' in choice ? levelUpgrade(context.publication, choice.level, held) : languageUpgrade(context.publication, choice.language, held);
}

/** The publication has an edition in this language, or at this level. */
export const hasLanguage = (publication: Publication | null, language: string) => Boolean(publication?.editions.some((e) => e.language.code === language));
export const hasLevel = (publication: Publication | null, level: string) => Boolean(publication?.editions.some((e) => e.level === level));

/** The address asks for a position below 1, which no edition has (SPEC §8 'Passage not found'). */
export const isPositionMissing = (request: SessionRequest | null) => (request?.position ?? 1) < 1;

/** The session a publication opens: the request's editions (or the default ones when asked to fall back), at a position within them. */
export function resolveOpen(context: ReadingSessionContext, publication: Publication): Partial<ReadingSessionContext> {
  const request = context.request;
  let primary = request?.primary ?? publication.defaultReader.left;
  let secondary = request?.secondary === undefined ? null : request.secondary;
  if (request?.fallbackToDefault && (!editionFor(publication, primary) || (secondary && !editionFor(publication, secondary)))) {
    primary = publication.defaultReader.left;
    secondary = null;
  }
  const base = { publication, primary, secondary, error: null };
  const primaryEdition = editionFor(publication, primary);
  // A position past the edition's end moves to its last passage; anything not positive becomes 1.
  const max = primaryEdition ? pagingMax([primaryEdition, editionFor(publication, secondary)]) : Number.MAX_SAFE_INTEGER;
  return { ...base, position: clampPosition(request?.position ?? 1, max) };
}

// ---- what the session tells the columns and the reading mode, from its view and the facts it is told ----

/** What these rules read: the view the session shows and the reader's world as the system told it. */
export type SessionFacts = Pick<ReadingSessionContext, 'publication' | 'primary' | 'secondary' | 'position' | 'facts'>;

/** Nothing known yet: nobody has been heard of, one narrow column, no column chosen to play. */
export const NO_FACTS: ReaderFacts = { access: { known: false, features: [], titleIds: null, classCode: null }, wide: false, columns: 'one-column', editionSelected: null };

/** The facts told again as they are kept (a repeat moves nothing). */
export function isSameFacts(a: ReaderFacts, b: ReaderFacts): boolean {
  return (
    a.wide === b.wide &&
    a.columns === b.columns &&
    a.editionSelected === b.editionSelected &&
    a.access.known === b.access.known &&
    a.access.classCode === b.access.classCode &&
    a.access.features.join() === b.access.features.join() &&
    (a.access.titleIds ?? []).join() === (b.access.titleIds ?? []).join() &&
    (a.access.titleIds === null) === (b.access.titleIds === null)
  );
}

/**
 * The features in force on the open title (or in general, when none is open): the signed-in user's, else the class
 * code's, which reach only the titles the code opens (featuresOnTitle, as the server applies them).
 */
export function featuresOf(context: Pick<SessionFacts, 'publication' | 'facts'>): string[] {
  const { features, titleIds } = context.facts.access;
  return [...featuresOnTitle(features, titleIds, context.publication?.id)];
}

export const hasDecodeFeature = (context: Pick<SessionFacts, 'publication' | 'facts'>) => featuresOf(context).includes('DECODE');

export const choiceOf = (context: Pick<SessionFacts, 'primary' | 'secondary'>, slot: Slot): EditionChoice | null => (slot === 'primary' ? context.primary : context.secondary);

export const editionOf = (context: Pick<SessionFacts, 'publication' | 'primary' | 'secondary'>, slot: Slot): Edition | undefined => editionFor(context.publication, choiceOf(context, slot));

/** Two columns: on wide screens only, and not with a class code (SPEC §2 Two-column mode). */
export function columnsOf(context: Pick<SessionFacts, 'secondary' | 'facts'>): { allowed: boolean; showSecondary: boolean } {
  const allowed = context.facts.wide && context.facts.access.classCode === null;
  return { allowed, showSecondary: allowed && context.secondary !== null };
}

/** The reader chose two columns and they are allowed. */
export const wantsTwoColumns = (context: Pick<SessionFacts, 'secondary' | 'facts'>) => columnsOf(context).allowed && context.facts.columns === 'two-column';

/** The column the player plays: the second only when it is shown and chosen (src/domain/playingEdition.ts). */
export const playingSlot = (context: Pick<SessionFacts, 'secondary' | 'facts'>): Slot => playingEdition(context.facts.editionSelected, columnsOf(context).showSecondary);

/** A column's locks for the features in force; none until who reads is known (no flash of locks). */
export function locksOf(context: SessionFacts, slot: Slot): ColumnLocks {
  const choice = choiceOf(context, slot);
  if (!context.publication || !choice || !context.facts.access.known) return NO_LOCKS;
  return columnLocks(context.publication, choice.language, featuresOf(context));
}

/** What a column is told: whether it plays, and whether its language is voiced for this reader. */
export const columnFacts = (context: SessionFacts, slot: Slot) => ({ plays: playingSlot(context) === slot, audioLocked: locksOf(context, slot).audioLocked });

/** What a column loads for the view: nothing, a missing edition (to create), or a passage by edition and position. */
export function columnPlan(context: SessionFacts, slot: Slot): ColumnPlan {
  const choice = choiceOf(context, slot);
  const { publication } = context;
  if (!choice || !publication) return { kind: 'none' };
  const edition = editionOf(context, slot);
  if (!edition) return { kind: 'missing', slug: publication.slug, version: publication.version, language: choice.language, level: choice.level };
  const position = Math.min(context.position, edition.passageCount);
  const { id, audioEnabled, audioTotalLength } = edition;
  return {
    kind: 'passage',
    key: `${id}:${position}`,
    editionId: id,
    position,
    passageCount: edition.passageCount,
    edition: { id, audioEnabled, audioTotalLength, language: edition.language.code, slug: publication.slug },
  };
}

/**
 * What the reading mode is told of the editions: highlight follows the edition that plays (SPEC §4 Highlight), decode
 * the primary one (English decode markup). The columns tell it what their passages have.
 */
export function editionFacts(context: SessionFacts): EditionFacts {
  const primary = editionOf(context, 'primary');
  return {
    editionId: primary?.id ?? null,
    highlightEnabled: editionOf(context, playingSlot(context))?.highlightModeEnabled ?? false,
    decodeEnabled: primary?.decodeEnabled ?? false,
    isEnglish: primary?.language.code === 'en',
  };
}

const sameChoice = (a: EditionChoice | null | undefined, b: EditionChoice | null | undefined) =>
  (a ?? null) === null ? (b ?? null) === null : !!b && a!.language === b.language && a!.level === b.level;

/** A synced address names the open title and editions: only the position may have moved. */
export function isSameReading(context: Pick<SessionFacts, 'publication' | 'primary' | 'secondary'>, request: SessionRequest): boolean {
  const p = context.publication;
  if (!p || p.slug !== request.slug || (request.version !== undefined && request.version !== p.version)) return false;
  return sameChoice(request.primary ?? p.defaultReader.left, context.primary) && sameChoice(request.secondary ?? null, context.secondary);
}

/** The column the other one's aligned highlight follows, and the language it is segmented in. */
export interface FollowedColumn {
  slot: Slot;
  language: string;
}

/** What a column's display reads of the other machines: the player, the reading mode and the passages shown. */
export interface DisplayFacts {
  playerOpen: boolean;
  mode: ReadingMode;
  /** The passage each column shows. */
  passages: Record<Slot, Passage | null>;
}

const isDecoded = (slot: Slot, reader: DisplayFacts) => slot === 'primary' && reader.mode === 'decode' && reader.passages.primary?.textDecoded != null;
const isLit = (context: SessionFacts, slot: Slot, reader: DisplayFacts) => reader.mode === 'highlight' && !isDecoded(slot, reader) && playingSlot(context) === slot && reader.playerOpen;
const isShown = (passage: Passage | null): passage is Passage => passage !== null && !isBlocked(passage);

/**
 * How a column shows its passage: decoded (the primary column in decode mode), with its words lit as they play, or
 * following the other column: in two columns with highlight on, the column that does not play lights what matches
 * the sentence the playing one speaks (src/domain/alignment.ts), when both show the same passage position.
 */
export function columnDisplay(context: SessionFacts, slot: Slot, reader: DisplayFacts): { decoded: boolean; highlight: boolean; follows: FollowedColumn | null } {
  const decoded = isDecoded(slot, reader);
  const highlight = isLit(context, slot, reader);
  const other: Slot = slot === 'primary' ? 'secondary' : 'primary';
  const mine = reader.passages[slot];
  const theirs = reader.passages[other];
  const language = choiceOf(context, other)?.language;
  const aligned = isShown(mine) && isShown(theirs) && mine.position === theirs.position;
  const follows = !decoded && !highlight && isLit(context, other, reader) && columnsOf(context).showSecondary && language && aligned ? { slot: other, language } : null;
  return { decoded, highlight, follows };
}
