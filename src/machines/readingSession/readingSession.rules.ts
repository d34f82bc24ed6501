/**
 * The reading session's rules as pure functions (SPEC §2 Reader entry, §4 Passage navigation, Language and level
 * change, §6 Feature gates): which edition a choice names, whether it offers an upgrade instead, how far paging
 * goes, where a column moves, how a publication opens.
 */
import { featuresOnTitle } from '../../domain/access';
import type { Level } from '../../domain/levels';
import { languageUpgrade, levelUpgrade, type PremiumFeature } from '../../domain/locks';
import { closestForLanguage, closestForLevel, clampPosition, findEdition, pagingMax, pushRecent } from '../../domain/reading';
import { defaultSecondEdition } from '../../domain/readerColumns';
import type { Edition, Publication } from '../../domain/schemas';
import { RECENT_LANGUAGES_CAP } from '../../domain/settings';
import type { EditionChoice, ReadingSessionContext, SessionRequest, Slot } from './readingSession.types';

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

/** The reader wants two columns and they are allowed (the system tells it), and the open title shows one. */
export const opensSecondColumn = (context: ReadingSessionContext) => context.twoColumns && context.publication !== null && context.primary !== null && context.secondary === null;

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
export function choiceUpgrade(context: Pick<ReadingSessionContext, 'publication' | 'access'>, choice: ColumnChoice): PremiumFeature | null {
  const { known, features, titleIds } = context.access;
  if (!known) return null;
  const held = featuresOnTitle(features, titleIds, context.publication?.id);
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
