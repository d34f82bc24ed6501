/** Tap a word to hear it (src/domain/wordAudio.ts). */
import type { WordTarget, WordTimes } from '../../domain/wordAudio';
import type { Narration, NarrationInput } from '../shared/audio';
import type { Slot } from '../readingSession/readingSession.types';
import type { ActorOutcome } from '../shared/outcome';

/** A word to say: where it is, and where its narration is (ready, or to be asked for). */
export interface WordRequest {
  /** The column the word is in (shown by the views while it is said). */
  slot: Slot;
  target: WordTarget;
  /** The narration's url and speech marks when the passage has them; else null. */
  narration: { url: string; speechMarks: Narration['speechMarks']; duration: number } | null;
  /** Which narration to ask for when it is not ready; null when the passage has none (no audio for its edition). */
  load: NarrationInput | null;
}

/** A stretch of one narration to play. */
export interface WordClip extends WordTimes {
  url: string;
}

export interface WordAudioContext {
  request: WordRequest | null;
  clip: WordClip | null;
}

export type WordAudioEvent =
  /** Sent by the reader system: say this word. */
  | { type: 'wordAudio.say'; request: WordRequest }
  /** Sent by the reader system: stop (the reader closed). */
  | { type: 'wordAudio.cancel' }
  /** Raised WORD_WAIT_MS after the word began waiting for its narration. */
  | { type: 'wordAudio.waitOver' };

export type WordAudioDone =
  | ActorOutcome<'wordNarration', Narration>
  | ActorOutcome<'wordClip', unknown>;

export type WordAudioStatus = 'idle' | 'waiting' | 'speaking';
