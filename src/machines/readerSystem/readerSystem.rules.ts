/**
 * The reader system's rules as pure functions of its context and of the views the session tells it: who reads in
 * general (the listen flow's gate, the reading mode's start), what is saved, what is tracked, the address. What each
 * column and the reading mode are told of the open title is the session's (readingSession.rules.ts).
 */
import { featuresOnTitle, isAudioLocked } from '../../domain/access';
import type { TrackedEvent } from '../../domain/analytics';
import { buildReaderPath } from '../../domain/readerUrl';
import type { ReaderPosition, ReaderSettings, StoredSettings } from '../../domain/settings';
import type { AccessInput } from '../access';
import type { HighlightDecodeInput, ReadingMode } from '../highlightDecode';
import type { PlayerTrack } from '../player';
import { editionFor, type ReaderFacts, type SessionRequest, type Slot } from '../readingSession';
import type { ReaderSystemContext, SessionView } from './readerSystem.types';

export const SLOTS: readonly Slot[] = ['primary', 'secondary'];

/** The features in force with no title open: the signed-in user's, else the class code's (featuresOnTitle). */
export const generalFeatures = (access: ReaderSystemContext['access']) => [...featuresOnTitle(access.features, access.titleIds, undefined)];

/** The listen flow's narration is locked for this reader (once the system knows who reads). */
export function isListenLocked(context: Pick<ReaderSystemContext, 'access'>, language: string | null): boolean {
  return context.access.known && language !== null && isAudioLocked(language, generalFeatures(context.access));
}

/** What the session is told of the reader's world: who reads, the screen, the columns chosen and the one chosen to play. */
export function readerFactsOf(context: ReaderSystemContext): ReaderFacts {
  return {
    access: context.access,
    wide: context.viewport.wide,
    columns: context.settings.readerSettings.columns,
    editionSelected: context.settings.audioSettings?.editionSelected ?? null,
  };
}

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

/** The canonical reader address of a view, or null while nothing is open. */
export function readerPathOf(view: SessionView): string | null {
  if (!view.publication || !view.primary) return null;
  return buildReaderPath({ slug: view.publication.slug, version: view.publication.version, primary: view.primary, secondary: view.secondary, position: view.position });
}

/** What 'Viewed Passage' says of a view. */
export const viewedPassageProperties = (view: SessionView) => ({
  slug: view.publication?.slug,
  editionId: editionFor(view.publication, view.primary)?.id,
  position: view.position,
  language: view.primary?.language,
  level: view.primary?.level,
});

/** The stored positions a view adds: its own, by its title's slug; none while nothing is open. */
export function positionsOf(view: SessionView): Record<string, ReaderPosition> {
  const entry = positionEntry(view);
  return entry ? { [entry.publicationSlug]: entry } : {};
}

/** Choosing one column closes the second (the session closes it when one is open). */
export const closesSecondColumn = (patch: Partial<ReaderSettings>) => patch.columns === 'one-column';

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

/** The listen flow running for what the listen page opened: its language, for the audio gate. */
export const listenOf = (start: { language?: string | null }) => ({ language: start.language ?? null });

/** The audio player's tracked events (SPEC §4 Audio control state). */
const AUDIO_TRACKING: readonly TrackedEvent[] = ['Opened Audio Player', 'Closed Audio Player', 'Paused Audio', 'Resumed Audio'];

export const isAudioTracking = (event: TrackedEvent) => AUDIO_TRACKING.includes(event);

/** A player's tracked event: the audio events also say which title and position play (the player adds the edition and the seconds heard). */
export function audioTrackingOf(track: PlayerTrack, tracked: { event: TrackedEvent; properties?: Record<string, unknown> }) {
  const where = { slug: track.slug ?? undefined, position: track.passage?.position };
  return { event: tracked.event, properties: isAudioTracking(tracked.event) ? { ...where, ...tracked.properties } : tracked.properties };
}

/** Access starts from the stored class code, its visitor features and titles. */
export const accessInput = (settings: StoredSettings): AccessInput => ({ storedCode: settings.groupCode, features: settings.features, classTitleIds: settings.classTitleIds });

/** The reading mode's start: no edition yet, the DECODE feature and the saved mode; the session and the columns then tell it what they show. */
export function readingInput(context: ReaderSystemContext): HighlightDecodeInput {
  return {
    editionId: null,
    highlightEnabled: false,
    decodeEnabled: false,
    isEnglish: false,
    hasSpeechMarks: false,
    hasDecodedText: false,
    hasDecodeFeature: generalFeatures(context.access).includes('DECODE'),
    savedMode: savedModeOf(context.settings),
  };
}
