/**
 * The reader system's rules as pure functions of its context: the features in force, what each column shows,
 * what the reader's audio plays, what is saved. The machine's guards and actions call these, and so do the
 * engine's selectors, so each rule is written once.
 */
import { classCodeFeatures, isAudioLocked } from '../../domain/access';
import { columnLocks, languageUpgrade, levelUpgrade, NO_LOCKS, type ColumnLocks, type PremiumFeature } from '../../domain/locks';
import { speedFor } from '../../domain/playbackSpeed';
import { buildReaderPath } from '../../domain/readerUrl';
import type { Edition, Passage } from '../../domain/schemas';
import type { AudioSettings, ReaderPosition, StoredSettings } from '../../domain/settings';
import type { PassageFacts, ReadingMode } from '../highlightDecode';
import { defaultSecondEdition } from '../../domain/readerColumns';
import { playingEdition } from '../../domain/playingEdition';
import type { ColumnPlan } from '../readerColumn';
import { editionFor, type EditionChoice, type SessionRequest, type Slot } from '../readingSession';
import type { NarrationState, ReaderSystemContext, SessionView } from './readerSystem.types';
import { LISTENING_EVENTS, type TrackedEvent } from '../../domain/analytics';
import { passagePlainText } from '../../domain/sanitize';
import { wordTimesAt, type WordTarget } from '../../domain/wordAudio';
import type { WordRequest } from '../wordAudio';

export const SLOTS: readonly Slot[] = ['primary', 'secondary'];

/**
 * The features in force for the open title (or in general, when none is open), as access tells them: the signed-in
 * user's, else the class code's, which reach only the titles the code opens (classCodeFeatures, as the server
 * applies them).
 */
export function featuresOf(context: Pick<ReaderSystemContext, 'access' | 'view'>): string[] {
  const { features, titleIds } = context.access;
  const titleId = context.view.publication?.id;
  if (titleIds === null || titleId === undefined) return features;
  return [...classCodeFeatures(features, titleIds.includes(titleId))];
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

/** The upgrade a level or language choice offers instead of being chosen, once the system knows who reads. */
export function choiceUpgrade(context: ReaderSystemContext, choice: { level: EditionChoice['level'] } | { language: string }): PremiumFeature | null {
  if (!context.access.known) return null;
  const features = featuresOf(context);
  return 'level' in choice ? levelUpgrade(context.view.publication, choice.level, features) : languageUpgrade(context.view.publication, choice.language, features);
}

/** What a column should load for a view: nothing, a missing edition (to create), or a passage by edition and position. */
export function columnPlan(view: SessionView, slot: Slot): ColumnPlan {
  const choice = choiceOf(view, slot);
  if (!choice || !view.publication) return { kind: 'none' };
  const edition = editionOf(view, slot);
  if (!edition) return { kind: 'missing', slug: view.publication.slug, version: view.publication.version, language: choice.language, level: choice.level };
  const position = Math.min(view.position, edition.passageCount);
  return { kind: 'passage', key: `${edition.id}:${position}`, editionId: edition.id, position, passageCount: edition.passageCount };
}

/** The passage needs a license or a class code: it carries no text. */
export const isBlocked = (passage: Passage | null) => Boolean(passage && (passage.licenseRequired || passage.groupCodeRequired));

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

/** Saved audio settings with a change applied (defaults for a first save). */
export function audioSettingsWith(current: AudioSettings | null, patch: Partial<AudioSettings>): AudioSettings {
  return {
    audioControlState: current?.audioControlState ?? 'closed',
    autoPlay: current?.autoPlay ?? false,
    currentTime: current?.currentTime ?? 0,
    editionSelected: current?.editionSelected ?? 'primary',
    playbackSpeed: current?.playbackSpeed ?? {},
    highlight: current?.highlight ?? false,
    ...patch,
  };
}

/** The mode saved for the highlight/decode machine's start. */
export function savedModeOf(settings: StoredSettings): ReadingMode {
  if (settings.readerSettings.decodeEnabled) return 'decode';
  return settings.audioSettings?.highlight ? 'highlight' : 'off';
}

/** What the reader's player plays: its column, that column's passage and edition, and its narration. */
export interface ReaderPlayback {
  slot: Slot;
  passage: Passage | null;
  edition: Edition | undefined;
  /** The edition has narration and the passage is readable. */
  enabled: boolean;
  narration: NarrationState | undefined;
  /** What the audio port should hold: `${passageId}|${url}` while the player is open with ready narration. */
  key: string | null;
  url: string | null;
  speed: number;
}

export const isPlayerOpen = (state: string) => state === 'paused' || state === 'playing';

/** The player plays the secondary column only when it is shown and chosen (src/domain/playingEdition.ts). */
export function playingSlot(context: Pick<ReaderSystemContext, 'settings' | 'view' | 'viewport' | 'access'>): Slot {
  return playingEdition(context.settings.audioSettings?.editionSelected, columnsOf(context).showSecondary);
}

/** The narration known for a passage: an earlier answer, or the url the passage came with. */
export function narrationFor(context: ReaderSystemContext, passage: Passage): NarrationState | undefined {
  return context.audio.narration[passage.id] ?? (passage.audio?.url ? { status: 'ready', url: passage.audio.url, duration: 0 } : undefined);
}

export function readerPlayback(context: ReaderSystemContext): ReaderPlayback {
  const slot = playingSlot(context);
  const passage = context.columns[slot].passage;
  const edition = editionOf(context.view, slot);
  const enabled = Boolean(edition?.audioEnabled && passage && !isBlocked(passage));
  const narration = enabled && passage ? narrationFor(context, passage) : undefined;
  const ready = narration?.status === 'ready' ? narration : null;
  const key = isPlayerOpen(context.audio.state) && passage && ready ? `${passage.id}|${ready.url}` : null;
  return { slot, passage, edition, enabled, narration, key, url: key ? ready!.url : null, speed: speedFor(context.settings.audioSettings?.playbackSpeed ?? {}, edition?.id) };
}

/**
 * What the highlight/decode machine is told: highlight follows the column that plays (its edition allows
 * highlight, its passage has speech marks; SPEC §4 Highlight), decode the primary column (English decode markup).
 */
export function readingFacts(context: Pick<ReaderSystemContext, 'settings' | 'view' | 'columns' | 'viewport' | 'access'>): PassageFacts & { highlightEnabled: boolean; decodeEnabled: boolean } {
  const playing = playingSlot(context);
  const primary = editionOf(context.view, 'primary');
  return {
    highlightEnabled: editionOf(context.view, playing)?.highlightModeEnabled ?? false,
    decodeEnabled: primary?.decodeEnabled ?? false,
    hasSpeechMarks: Boolean(context.columns[playing].passage?.audio?.speechMarks.length),
    hasDecodedText: context.columns.primary.passage?.textDecoded != null,
    isEnglish: primary?.language.code === 'en',
  };
}

/** The editions' part of the reading facts, as a key: it changes when the playing or the primary edition does. */
export const editionFactsKey = (context: Pick<ReaderSystemContext, 'settings' | 'view' | 'columns' | 'viewport' | 'access'>) => {
  const { highlightEnabled, decodeEnabled, isEnglish } = readingFacts(context);
  return JSON.stringify([highlightEnabled, decodeEnabled, isEnglish]);
};

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
export function columnDisplay(context: ReaderSystemContext, slot: Slot): { decoded: boolean; highlight: boolean; follows: FollowedColumn | null } {
  const decoded = isDecoded(context, slot);
  const highlight = isLit(context, slot);
  const other: Slot = slot === 'primary' ? 'secondary' : 'primary';
  const mine = context.columns[slot].passage;
  const theirs = context.columns[other].passage;
  const language = choiceOf(context.view, other)?.language;
  const follows =
    !decoded && !highlight && isLit(context, other) && columnsOf(context).showSecondary && language && mine && theirs && !isBlocked(mine) && !isBlocked(theirs) && mine.position === theirs.position
      ? { slot: other, language }
      : null;
  return { decoded, highlight, follows };
}

const isDecoded = (context: ReaderSystemContext, slot: Slot) => slot === 'primary' && context.reading.mode === 'decode' && context.columns.primary.passage?.textDecoded != null;
const isLit = (context: ReaderSystemContext, slot: Slot) =>
  context.reading.mode === 'highlight' && !isDecoded(context, slot) && playingSlot(context) === slot && isPlayerOpen(context.audio.state);

/** Two columns: on wide screens only, and not with a class code (SPEC §2 Two-column mode). */
export function columnsOf(context: Pick<ReaderSystemContext, 'view' | 'viewport' | 'access'>): { allowed: boolean; showSecondary: boolean } {
  const allowed = context.viewport.wide && context.access.classCode === null;
  return { allowed, showSecondary: allowed && context.view.secondary !== null };
}

/** The reader asked for two columns, they are allowed, and the second one is not open yet. */
export function wantsSecondColumn(context: ReaderSystemContext): boolean {
  const { publication, primary, secondary } = context.view;
  return columnsOf(context).allowed && context.settings.readerSettings.columns === 'two-column' && publication !== null && primary !== null && secondary === null;
}

/** The edition a second column opens with (src/domain/readerColumns.ts). */
export function secondColumnChoice(context: ReaderSystemContext): EditionChoice | null {
  const { publication, primary } = context.view;
  return publication ? defaultSecondEdition(publication.defaultReader, publication.editions, primary) : null;
}

/**
 * The playing column's passage needs its narration: the player is open and nothing is known yet, or highlight is
 * on and the passage lacks speech marks that have not been asked for.
 */
export function wantsNarration(context: ReaderSystemContext): boolean {
  const plan = readerPlayback(context);
  if (!plan.enabled || !plan.passage || context.audio.loadingFor !== null) return false;
  const asked = context.audio.narration[plan.passage.id] !== undefined;
  const open = isPlayerOpen(context.audio.state) && plan.narration === undefined;
  const marks = context.reading.mode === 'highlight' && !plan.passage.audio?.speechMarks.length && !asked;
  return open || marks;
}

/** The audio port should play now. */
export const shouldPlay = (context: ReaderSystemContext) => context.audio.state === 'playing' && readerPlayback(context).key !== null;

/** The audio port holds another passage or url than the plan (or holds one while the player is closed). */
export const isOtherAudio = (context: ReaderSystemContext) => readerPlayback(context).key !== context.audio.loadedKey;

/** Where a word of a column's passage was tapped (word mode): its plain text, language and the offset; null without a passage. */
export function wordTargetOf(context: ReaderSystemContext, slot: Slot, offset: number): WordTarget | null {
  const passage = context.columns[slot]?.passage ?? null;
  if (!passage || isBlocked(passage)) return null;
  return { text: passagePlainText(passage.text), locale: editionOf(context.view, slot)?.language.code ?? 'en', offset };
}

/**
 * A word to say: the column's narration when its passage has it with speech marks, else which
 * narration to ask for (when the edition has audio), else neither ('Audio not available').
 */
export function wordRequestOf(context: ReaderSystemContext, slot: Slot, offset: number): WordRequest {
  const passage = context.columns[slot]?.passage ?? null;
  const target = wordTargetOf(context, slot, offset) ?? { text: '', locale: 'en', offset };
  if (!passage || isBlocked(passage)) return { slot, target, narration: null, load: null };
  const known = narrationFor(context, passage);
  const marks = passage.audio?.speechMarks ?? [];
  const narration = passage.audio?.url && marks.length ? { url: passage.audio.url, speechMarks: marks, duration: known?.status === 'ready' ? known.duration : 0 } : null;
  const load = editionOf(context.view, slot)?.audioEnabled ? { passageId: passage.id, editionId: passage.editionId, position: passage.position } : null;
  return { slot, target, narration, load };
}

/** Where 'Play from here' starts the player: the tapped word's time in its passage's narration, or null without speech marks. */
export function playFromSeconds(context: ReaderSystemContext, slot: Slot, offset: number): { passageId: number; seconds: number } | null {
  const passage = context.columns[slot]?.passage ?? null;
  const marks = passage?.audio?.speechMarks;
  const target = wordTargetOf(context, slot, offset);
  const times = passage && marks?.length && target ? wordTimesAt(target, marks, 0) : null;
  return passage && times ? { passageId: passage.id, seconds: times.start } : null;
}

/** The player has a 'Play from here' time to go to, and the narration it applies to is in the audio port. */
export function canApplyPendingSeek(context: ReaderSystemContext): boolean {
  const plan = readerPlayback(context);
  return context.audio.pendingSeek !== null && plan.key !== null && plan.key === context.audio.loadedKey && plan.passage?.id === context.audio.pendingSeek.passageId;
}

/** The audio player's tracked events (SPEC §4 Audio control state). */
const AUDIO_TRACKING: readonly TrackedEvent[] = ['Opened Audio Player', 'Closed Audio Player', 'Paused Audio', 'Resumed Audio'];

export const isAudioTracking = (event: TrackedEvent) => AUDIO_TRACKING.includes(event);

/**
 * What an audio tracking event says: the title, the edition that plays and the position; the events that
 * end a stretch of listening ('Paused Audio', 'Closed Audio Player') add the seconds heard since the last of them.
 */
export function audioTrackingProperties(context: ReaderSystemContext, event: TrackedEvent): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    slug: context.view.publication?.slug,
    editionId: editionOf(context.view, playingSlot(context))?.id,
    position: context.view.position,
  };
  if (LISTENING_EVENTS.includes(event)) properties.seconds = context.audio.heard;
  return properties;
}

/**
 * The seconds of audio heard between the shown second and a new audio time: the forward step while the player
 * plays, when it is a step of playback (at most 2 s); a seek, a page turn or a paused player add nothing.
 */
export function heardStep(audio: Pick<ReaderSystemContext['audio'], 'state' | 'currentTime'>, time: number): number {
  const step = Math.floor(time) - audio.currentTime;
  return audio.state === 'playing' && step > 0 && step <= 2 ? step : 0;
}
