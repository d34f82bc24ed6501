/**
 * The listen flow (SPEC §4 Audio control state: listen flow): the listen player (`listenAudio`, its child) plus
 * the narration of each passage, the audio port and the address, as one pure machine.
 */
import type { Narration, PlaybackReport } from '../shared/audio';
import type { ListenAudioCommand, ListenAudioContext, ListenAudioState } from '../listenAudio';

/** What the listen page tells the engine when it opens an edition ('listen.start'), plus the audio lock. */
export interface ListenFlowInput {
  /** Opened with auto-play flagged (from 'Start Listening'). */
  autoPlay: boolean;
  /** Whether `position` is the last page. Used when passageCount is not given. */
  isLastPage: boolean;
  /** The edition being listened to. Without it the flow runs with no audio (as before narration existed). */
  editionId?: number;
  /** The passage shown. @default 1 */
  position?: number;
  passageCount?: number;
  /** Whether the edition has narration (edition.audioEnabled). Without it nothing is fetched. @default true */
  audioEnabled?: boolean;
  /** The listen address without the position, e.g. '/listen/{slug}/{version}/{editionSlug}'; advancing pushes `${basePath}/${next}`. */
  basePath?: string;
  /** The edition's language code (SPEC §6 Audio). */
  language?: string;
  /** Whether the language's narration is locked for this reader by the client rule (src/domain/access.ts); the parent computes it. */
  audioLocked: boolean;
}

/** The two narration loads: the passage shown, and the prefetch of the next one (the actor ids). */
export type NarrationSlot = 'narration.current' | 'narration.next';

/** One passage's narration, as far as the flow knows it. A position with no entry has not been asked for. */
export type NarrationAnswer =
  /** Being fetched by the load `by`. */
  | { status: 'loading'; by: NarrationSlot }
  /** `duration` in seconds; 0 when not known. */
  | { status: 'ready'; url: string; duration: number }
  /** The fetch failed (logged only, SPEC §8); paging back to the passage asks again. */
  | { status: 'failed' };

/** The listen player as it last reported itself (syncSnapshot): its state and its auto-play switch. */
export interface ListenPlayerView {
  state: ListenAudioState;
  autoPlay: boolean;
}

export interface ListenFlowContext {
  /** The passage the flow is on. */
  position: number;
  passageCount: number;
  editionId: number;
  /** Whether this edition has narration; false also when no edition was given. */
  audioEnabled: boolean;
  basePath: string | null;
  language: string | null;
  /** The client rule locks this language's narration for the reader (sent by the parent). */
  locked: boolean;
  /** The server refused this flow's narration (license or class-code gate): nothing more is asked for. */
  refused: boolean;
  /** Narration per position for this flow. */
  narrations: Record<number, NarrationAnswer>;
  /** The url loaded into the listen audio port, or null before the first load. */
  loadedUrl: string | null;
  /** Seconds played in the loaded audio, as the playback last reported it (or a seek set it). */
  currentTime: number;
  /** The loaded audio's length in seconds (the narration's until the audio reports its own). */
  duration: number;
  /** The child player as it last reported (`xstate.snapshot.listenAudio`). */
  player: ListenPlayerView;
}

/** The part of the listen player's snapshot the flow reads from its `xstate.snapshot.listenAudio` reports. */
export interface ListenPlayerReport {
  value: ListenAudioState;
  context: ListenAudioContext;
}

/** What the listen player (the child) asks of the flow through its provided actions (sendParent). */
export type ListenPlayerRequest =
  /** Play from Finished: seek the audio to 0. */
  | { type: 'listen.restart' }
  /** Loading Next: fetch the next passage's narration, then answer 'listen.nextReady'. */
  | { type: 'listen.prefetchNext' }
  /** Move on to the next passage. */
  | { type: 'listen.advance' }
  /** The Auto-play switch changed: save it and track it. */
  | { type: 'listen.autoPlayChanged'; autoPlay: boolean };

/** The player's own events, forwarded to it. */
export type ListenForwardedEvent = ListenAudioCommand;

export type ListenFlowEvent =
  | ListenForwardedEvent
  /** The view paged (or followed an advance): switch to that passage's audio. Ignored for the current page or out of range. */
  | { type: 'listen.page'; position: number }
  /** Seek the loaded audio. Ignored before anything is loaded. */
  | { type: 'listen.seek'; seconds: number }
  /** The features in force changed: whether the client rule locks the narration now. */
  | { type: 'listen.locked'; locked: boolean }
  | ListenPlayerRequest
  /** The child player's snapshot (syncSnapshot). */
  | { type: 'xstate.snapshot.listenAudio'; snapshot: ListenPlayerReport }
  /** A narration load answered. */
  | { type: 'xstate.done.actor.narration.current'; output: Narration; actorId: 'narration.current' }
  | { type: 'xstate.done.actor.narration.next'; output: Narration; actorId: 'narration.next' }
  /** A narration load failed; a PortFailure coded license_required or group_code_required is a gate. */
  | { type: 'xstate.error.actor.narration.current'; error: unknown; actorId: 'narration.current' }
  | { type: 'xstate.error.actor.narration.next'; error: unknown; actorId: 'narration.next' }
  | PlaybackReport;

/**
 * The listen flow's stable states: no narration for this edition, narration locked for this reader, or narration in
 * use (nothing playing, or the playback running). `init` and `locking` pass on at once.
 */
export type ListenFlowState = 'silent' | 'locked' | { voiced: 'quiet' | 'sounding' };

/** The listen player's clock and page, for the view. */
export interface ListenPlayer {
  /** The passage the flow is on. */
  position: number;
  /** Seconds played in the current passage (the view shows whole seconds). */
  currentTime: number;
  /** The current passage's length in seconds; 0 until its narration is known. */
  duration: number;
  /**
   * The current passage's narration: being fetched, ready, failed (logged), none (no audio for this edition), or
   * locked (this reader may not hear it: the play control offers 'Unlock Premium Audio').
   */
  audio: 'loading' | 'ready' | 'failed' | 'none' | 'locked';
}
