/**
 * What the machines that play narration (the reader system, the listen flow) ask of their two I/O actors. The
 * actors are named in each machine's `setup({ actors })` with these placeholders and provided by the engine
 * from its ports (src/engine/audioActors.ts): `loadNarration` asks for a passage's narration until it is ready,
 * `playback` plays an audio port while it runs.
 */
import { fromCallback, fromPromise } from 'xstate';
import type { SpeechMark } from '../../domain/speechMarks';

/** Which narration to load: by passage (the reader) or by edition and position (the listen flow). */
export interface NarrationInput {
  passageId: number;
  editionId: number;
  position: number;
  /** The head of a narration still being made will do (it plays while the rest is made). @default false */
  partial?: boolean;
}

/** A ready narration. */
export interface Narration {
  url: string;
  speechMarks: SpeechMark[];
  /** Seconds; 0 when not known. */
  duration: number;
  /**
   * Present on the head of a narration still being made: the second where its speech ends and the whole
   * narration, the same audio and marks up to there, goes on.
   */
  seam?: number;
}

/** What a playback actor reports to the machine that runs it. */
export type PlaybackReport =
  /** The audio's time and length, in seconds, every AUDIO_TICK_MS while it plays. */
  | { type: 'playback.time'; time: number; duration: number }
  /** The audio reached its end. */
  | { type: 'playback.ended' }
  /** The browser refused to start playing without a gesture. */
  | { type: 'playback.refused' };

/** Rejects until the engine provides the real actor. */
export const loadNarrationPlaceholder = fromPromise<Narration, NarrationInput>(() => Promise.reject(new Error('loadNarration is provided by the engine')));

/** Does nothing until the engine provides the real actor. */
export const playbackPlaceholder = fromCallback<{ type: 'playback.noop' }, void>(() => () => {});
