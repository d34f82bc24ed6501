/**
 * The reader's player (SPEC §4 Audio control state: reader audio player; §4 Tracked events): what it is told, what
 * it keeps and the events it takes.
 */
import type { PlaybackSpeedMap } from '../../domain/playbackSpeed';
import type { Passage } from '../../domain/schemas';
import type { AudioSettings } from '../../domain/settings';
import type { TrackedEvent } from '../../domain/analytics';
import type { Slot } from '../readingSession/readingSession.types';
import type { Narration, PlaybackReport } from '../shared/audio';
import type { ActorOutcome } from '../shared/outcome';

/** What the player needs of the edition it plays. */
export interface PlayerEdition {
  id: number;
  audioEnabled: boolean;
  /** The edition's whole narration, in seconds. */
  audioTotalLength: number;
}

/** What plays: the column that plays, the passage it shows and its edition. That column tells it ('player.track'). */
export interface PlayerTrack {
  slot: Slot;
  /** The title's slug, named in the player's tracking; null before any passage is shown. */
  slug?: string | null;
  passage: Passage | null;
  edition: PlayerEdition | null;
}

/**
 * A passage's narration as far as the player knows it. A ready one with a `seam` is the head of a narration still
 * being made (seconds where its speech ends): it plays while the whole is loaded, which goes on from the seam.
 */
export type NarrationState = { status: 'loading' } | { status: 'ready'; url: string; duration: number; seam?: number } | { status: 'failed' };

export interface PlayerInput {
  /** Audio settings were saved on an earlier visit: the player starts `paused`, else `closed`. */
  hasSavedSettings: boolean;
  /** The saved playback speeds, by edition id. */
  speeds: PlaybackSpeedMap;
}

/** The state the player saves: a player held by a word counts as paused. */
export type PlayerControlState = 'closed' | 'paused' | 'playing';

export interface PlayerContext {
  track: PlayerTrack;
  speeds: PlaybackSpeedMap;
  /** Narration per passage id. */
  narration: Record<number, NarrationState>;
  /** The passage whose narration the `narration.loading` state loads. */
  loadingFor: number | null;
  /** The passage whose speech marks highlight asked for ('narration.wantMarks'). */
  marksFor: number | null;
  /** `${passageId}|${url}` in the audio port, or null. */
  loadedKey: string | null;
  /** The seam of the narration head in the audio port, in seconds; null when the port holds a whole narration or none. */
  loadedSeam: number | null;
  /** Seconds played, to the shown second; and the length. */
  currentTime: number;
  duration: number;
  /**
   * Seconds heard since the last 'Paused Audio' or 'Closed Audio Player' (which report and reset it): each shown
   * second the player moves forward while playing, so a seek or a page turn adds nothing.
   */
  heard: number;
  /** A 'Play from here' time in one passage's narration, waiting for that narration to be in the audio port. */
  pendingSeek: { passageId: number; seconds: number } | null;
  /** Audio settings exist: until they do, nothing is saved before the player is used. */
  hasSavedSettings: boolean;
}

/** What the views send the player. */
export type PlayerViewEvent =
  /** Open the player from `closed`; it starts playing. Tracked as 'Opened Audio Player'. */
  | { type: 'audio.open' }
  /** Close the player. Tracked as 'Closed Audio Player'. */
  | { type: 'audio.close' }
  /** Pause playback. Tracked as 'Paused Audio'. */
  | { type: 'audio.pause' }
  /** Resume playback from `paused`. Tracked as 'Resumed Audio'. */
  | { type: 'audio.play' }
  /** The play/pause control: pauses when playing, resumes when paused, opens and plays when closed. */
  | { type: 'audio.toggle' }
  /** Go to a time of the passage's narration, in seconds (clamped to its length). */
  | { type: 'audio.seek'; seconds: number }
  /** A new playback speed for the edition that plays: saved, applied and tracked ('Changed Audio Settings'). */
  | { type: 'audio.speed'; speed: number };

/** What the reader system and its other children tell the player. */
export type PlayerFactEvent =
  | { type: 'player.track'; track: PlayerTrack }
  /** A column's Listen turned on: open the player, or resume it. */
  | { type: 'player.listen' }
  /** 'Play from here': as Listen, then go to this time once the passage's narration is in the audio port. */
  | { type: 'player.playFrom'; at: { passageId: number; seconds: number } | null }
  /** The reader closed: a playing player pauses (tracked as 'Paused Audio'). */
  | { type: 'player.leave' }
  /** Highlight is on and the passage lacks speech marks: load its narration. */
  | { type: 'narration.wantMarks' }
  /** A tapped word is said: a playing player waits for it, and plays on after ('word.release'). */
  | { type: 'word.hold' }
  | { type: 'word.release' }
  /** The address's playbackSpeed parameter, read when a reader opens (docs/decisions.md). */
  | { type: 'address.speeds'; param: string | null };

export type PlayerEvent = PlayerViewEvent | PlayerFactEvent | PlaybackReport | ActorOutcome<'narration', Narration>;

/** What the player tells the reader system (the engine provides these actions). */
export interface PlayerTrackParams {
  event: TrackedEvent;
  properties: Record<string, unknown>;
}
export type PlayerSaveParams = Partial<AudioSettings>;
/** A narration arrived: the columns that show its passage gain its speech marks. */
export interface NarrationLoadedParams {
  passageId: number;
  url: string;
  speechMarks: Narration['speechMarks'];
}
