import type { SnapshotFrom } from 'xstate';
import type { TextSpan } from '../../domain/speechMarks';
import { wordAt } from '../../domain/wordAudio';
import type { Slot } from '../readingSession/readingSession.types';
import type { wordAudioMachine } from './wordAudio.machine';
import type { WordAudioStatus } from './wordAudio.types';

/** What the views show of the word being said: waiting or speaking, and which word of the passage's plain text. */
export interface WordAudioView {
  status: WordAudioStatus;
  /** The column of the word being said, or null when idle. */
  slot: Slot | null;
  /** The word being said, as a span of its passage's plain text; null when idle. */
  word: TextSpan | null;
}

export function wordAudioStatus(snapshot: SnapshotFrom<typeof wordAudioMachine>): WordAudioView {
  const status: WordAudioStatus = snapshot.matches({ active: 'waiting' }) ? 'waiting' : snapshot.matches({ active: 'speaking' }) ? 'speaking' : 'idle';
  const request = status === 'idle' ? null : snapshot.context.request;
  return { status, slot: request?.slot ?? null, word: request ? wordAt(request.target.text, request.target.locale, request.target.offset) : null };
}
