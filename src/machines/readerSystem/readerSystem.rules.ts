/**
 * The reader system's rules as pure functions of its context: the features in force, what each column shows,
 * which column plays and what the columns and the reading mode are told, what is saved. The machine's guards and actions call these, and so do the
 * engine's selectors, so each rule is written once.
 */
import { featuresOnTitle, isAudioLocked } from '../../domain/access';
import { columnLocks, NO_LOCKS, type ColumnLocks } from '../../domain/locks';
import { buildReaderPath } from '../../domain/readerUrl';
import type { Edition, Passage } from '../../domain/schemas';
import type { ReaderPosition, ReaderSettings, StoredSettings } from '../../domain/settings';
import type { EditionFacts, HighlightDecodeInput, ReadingMode } from '../highlightDecode';
import type { AccessInput } from '../access';
import { defaultSecondEdition } from '../../domain/readerColumns';
import { playingEdition } from '../../domain/playingEdition';
import type { ColumnPlan } from '../readerColumn';
import { editionFor, type EditionChoice, type SessionRequest, type Slot } from '../readingSession';
import type { ReaderSystemContext, SessionView } from './readerSystem.types';
import { isBlocked } from '../player';
import type { TrackedEvent } from '../../domain/analytics';

export const SLOTS: readonly Slot[] = ['primary', 'secondary'];

/**
 * The features in force for the open title (or in general, when none is open), as access tells them: the signed-in
 * user's, else the class code's, which reach only the titles the code opens (featuresOnTitle, as the server
 * applies them).
 */
export function featuresOf(context: Pick<ReaderSystemContext, 'access' | 'view'>): string[] {
  return [...featuresOnTitle(context.access.features, context.access.titleIds, context.view.publication?.id)];
}

/** The listen flow's narration is locked for this reader (once the system knows who reads). */
export function isListenLocked(context: Parameters<typeof featuresOf>[0], language: string | null): boolean {
  return context.access.known && language !== null && isAudioLocked(language, featuresOf(context));
}

export const hasDecodeFeature = (context: Parameters<typeof featuresOf>[0]) => featuresOf(context).includes('DECODE');

export function choiceOf(view: SessionView, slot: Slot): EditionChoice | null {
  return slot === 'primary' ? view.primary : view.secondary;
}

export function editionOf(view: SessionView, slot: Slot): Edition | undefined {
  return editionFor(view.publication, choiceOf(view, slot));
}

/** A column's locks for the features in force; none until the system has heard who reads (no flash of locks). */
export function locksOf(context: ReaderSystemContext, slot: Slot): ColumnLocks {
  const choice = choiceOf(context.view, slot);
  if (!context.view.publication || !choice || !context.access.known) return NO_LOCKS;
  return columnLocks(context.view.publication, choice.language, featuresOf(context));
}

/** What a column should load for a view: nothing, a missing edition (to create), or a passage by edition and position. */
export function columnPlan(view: SessionView, slot: Slot): ColumnPlan {
  const choice = choiceOf(view, slot);
  if (!choice || !view.publication) return { kind: 'none' };
  const edition = editionOf(view, slot);
  if (!edition) return { kind: 'missing', slug: view.publication.slug, version: view.publication.version, language: choice.language, level: choice.level };
  const position = Math.min(view.position, edition.passageCount);
  const { id, audioEnabled, audioTotalLength } = edition;
  return { kind: 'passage', key: `${id}:${position}`, editionId: id, position, passageCount: edition.passageCount, edition: { id, audioEnabled, audioTotalLength, language: edition.language.code } };
}

export { isBlocked };

/** The request a reader.open makes: the stored position of this title wins when asked for. */
export function openRequest(request: SessionRequest, useStoredPosition: boolean | undefined, lastPassages: Record<string, ReaderPosition>): SessionRequest {
  const stored = useStoredPosition ? lastPassages[request.slug] : undefined;
  if (!stored) return request;
  return {
    ...request,
    primary: { language: stored.language, level: stored.level },
    secondary: stored.secondaryLanguage && stored.secondaryLevel ? { language: stored.secondaryLanguage, level: stored.secondaryLevel } : null,
    position: stored.position,
    fallbackToDefault: true,
  };
}

const sameChoice = (a: EditionChoice | null | undefined, b: EditionChoice | null | undefined) =>
  (a ?? null) === null ? (b ?? null) === null : !!b && a!.language === b.language && a!.level === b.level;

/** A synced address names the open publication and editions: only the position may have moved. */
export function isSameReading(view: SessionView, request: SessionRequest): boolean {
  const p = view.publication;
  if (!p || p.slug !== request.slug || (request.version !== undefined && request.version !== p.version)) return false;
  return sameChoice(request.primary ?? p.defaultReader.left, view.primary) && sameChoice(request.secondary ?? null, view.secondary);
}

/** The canonical reader address of a view, or null while nothing is open. */
export function readerPathOf(view: SessionView): string | null {
  if (!view.publication || !view.primary) return null;
  return buildReaderPath({ slug: view.publication.slug, version: view.publication.version, primary: view.primary, secondary: view.secondary, position: view.position });
}

/** What 'Viewed Passage' says of a view. */
export const viewedPassageProperties = (view: SessionView) => ({
  slug: view.publication?.slug,
  editionId: editionOf(view, 'primary')?.id,
  position: view.position,
  language: view.primary?.language,
  level: view.primary?.level,
});

/** The stored positions a view adds: its own, by its title's slug; none while nothing is open. */
export function positionsOf(view: SessionView): Record<string, ReaderPosition> {
  const entry = positionEntry(view);
  return entry ? { [entry.publicationSlug]: entry } : {};
}

/** The page a synced address asks for (the first when it names none). */
export const pageOf = (request: SessionRequest) => request.position ?? 1;

/** Choosing one column closes the second one that is open. */
export const closesSecondColumn = (view: SessionView, patch: Partial<ReaderSettings>) => patch.columns === 'one-column' && view.secondary !== null;

/** The stored position of a view. */
export function positionEntry(view: SessionView): ReaderPosition | null {
  if (!view.publication || !view.primary) return null;
  return {
    language: view.primary.language,
    level: view.primary.level,
    position: view.position,
    publicationSlug: view.publication.slug,
    publicationVersion: view.publication.version,
    secondaryLanguage: view.secondary?.language ?? null,
    secondaryLevel: view.secondary?.level ?? null,
  };
}

/** The mode saved for the highlight/decode machine's start. */
export function savedModeOf(settings: StoredSettings): ReadingMode {
  if (settings.readerSettings.decodeEnabled) return 'decode';
  return settings.audioSettings?.highlight ? 'highlight' : 'off';
}

/** The player plays the secondary column only when it is shown and chosen (src/domain/playingEdition.ts). */
export function playingSlot(context: Pick<ReaderSystemContext, 'settings' | 'view' | 'viewport' | 'access'>): Slot {
  return playingEdition(context.settings.audioSettings?.editionSelected, columnsOf(context).showSecondary);
}

/** What a column is told: whether it plays, and whether its language is voiced for this reader. */
export function columnFacts(context: ReaderSystemContext, slot: Slot): { plays: boolean; audioLocked: boolean } {
  return { plays: playingSlot(context) === slot, audioLocked: locksOf(context, slot).audioLocked };
}

/**
 * What the reading mode is told of the editions: highlight follows the edition that plays (SPEC §4 Highlight), decode
 * the primary one (English decode markup). The columns tell it what their passages have.
 */
export function editionFacts(context: Pick<ReaderSystemContext, 'settings' | 'view' | 'viewport' | 'access'>): EditionFacts {
  const primary = editionOf(context.view, 'primary');
  return {
    editionId: primary?.id ?? null,
    highlightEnabled: editionOf(context.view, playingSlot(context))?.highlightModeEnabled ?? false,
    decodeEnabled: primary?.decodeEnabled ?? false,
    isEnglish: primary?.language.code === 'en',
  };
}

/** The column the other one's aligned highlight follows, and the language it is segmented in. */
export interface FollowedColumn {
  slot: Slot;
  language: string;
}

/**
 * How a column shows its passage: decoded (the primary column in decode mode), with its words lit as they play, or
 * following the other column: in two columns with highlight on, the column that does not play lights what matches
 * the sentence the playing one speaks (src/domain/alignment.ts), when both show the same passage position.
 */
export function columnDisplay(context: ReaderSystemContext, slot: Slot, reader: ReaderFacts): { decoded: boolean; highlight: boolean; follows: FollowedColumn | null } {
  const decoded = isDecoded(slot, reader);
  const highlight = isLit(context, slot, reader);
  const other: Slot = slot === 'primary' ? 'secondary' : 'primary';
  const mine = reader.passages[slot];
  const theirs = reader.passages[other];
  const language = choiceOf(context.view, other)?.language;
  const follows =
    !decoded && !highlight && isLit(context, other, reader) && columnsOf(context).showSecondary && language && mine && theirs && !isBlocked(mine) && !isBlocked(theirs) && mine.position === theirs.position
      ? { slot: other, language }
      : null;
  return { decoded, highlight, follows };
}

/** What the engine reads from the columns, the player and the reading mode for a column's display. */
export interface ReaderFacts {
  playerOpen: boolean;
  mode: ReadingMode;
  /** The passage each column shows. */
  passages: Record<Slot, Passage | null>;
}

const isDecoded = (slot: Slot, reader: ReaderFacts) => slot === 'primary' && reader.mode === 'decode' && reader.passages.primary?.textDecoded != null;
const isLit = (context: ReaderSystemContext, slot: Slot, reader: ReaderFacts) =>
  reader.mode === 'highlight' && !isDecoded(slot, reader) && playingSlot(context) === slot && reader.playerOpen;

/** Two columns: on wide screens only, and not with a class code (SPEC §2 Two-column mode). */
export function columnsOf(context: Pick<ReaderSystemContext, 'view' | 'viewport' | 'access'>): { allowed: boolean; showSecondary: boolean } {
  const allowed = context.viewport.wide && context.access.classCode === null;
  return { allowed, showSecondary: allowed && context.view.secondary !== null };
}

/** The reader asked for two columns and they are allowed: the session opens the second one. */
export const wantsTwoColumns = (context: ReaderSystemContext) => columnsOf(context).allowed && context.settings.readerSettings.columns === 'two-column';

/** The listen flow running for what the listen page opened: its language, for the audio gate. */
export const listenOf = (start: { language?: string | null }) => ({ language: start.language ?? null });


/** The audio player's tracked events (SPEC §4 Audio control state). */
const AUDIO_TRACKING: readonly TrackedEvent[] = ['Opened Audio Player', 'Closed Audio Player', 'Paused Audio', 'Resumed Audio'];

export const isAudioTracking = (event: TrackedEvent) => AUDIO_TRACKING.includes(event);

/** What the root adds to an audio tracking event: the title and the position (the player adds the edition and the seconds heard). */
export const audioTrackingProperties = (context: Pick<ReaderSystemContext, 'view'>) => ({ slug: context.view.publication?.slug, position: context.view.position });

/** A child's tracked event: the player's events also say which title and position play (it adds the edition and the seconds heard). */
export function trackedOf(context: Pick<ReaderSystemContext, 'view'>, tracked: { event: string; properties?: Record<string, unknown> }) {
  const event = tracked.event as TrackedEvent;
  return { event, properties: isAudioTracking(event) ? { ...audioTrackingProperties(context), ...tracked.properties } : tracked.properties };
}

/** Access starts from the stored class code, its visitor features and titles. */
export const accessInput = (settings: StoredSettings): AccessInput => ({ storedCode: settings.groupCode, features: settings.features, classTitleIds: settings.classTitleIds });

/** The reading mode's start: what the editions allow, the DECODE feature and the saved mode; the columns then tell it what they show. */
export function readingInput(context: ReaderSystemContext): HighlightDecodeInput {
  return { ...editionFacts(context), hasSpeechMarks: false, hasDecodedText: false, hasDecodeFeature: hasDecodeFeature(context), savedMode: savedModeOf(context.settings) };
}
