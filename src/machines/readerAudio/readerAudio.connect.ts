import type { SnapshotFrom } from 'xstate';
import type { readerAudioMachine } from './readerAudio.machine';
import type { ReaderAudioEvent } from './readerAudio.types';

/** The player's status text, by state (SPEC §4 Audio control state). */
export const READER_AUDIO_LABELS = { closed: 'Closed', paused: 'Paused', playing: 'Now Playing' } as const;

export function connectReaderAudio(snapshot: SnapshotFrom<typeof readerAudioMachine>, send: (event: ReaderAudioEvent) => void) {
  const isPlaying = snapshot.matches('playing');
  const isOpen = !snapshot.matches('closed');
  return {
    isOpen,
    isPlaying,
    /** 'Closed', 'Paused' or 'Now Playing'. */
    label: isPlaying ? READER_AUDIO_LABELS.playing : isOpen ? READER_AUDIO_LABELS.paused : READER_AUDIO_LABELS.closed,
    open: () => send({ type: 'audio.open' }),
    close: () => send({ type: 'audio.close' }),
    play: () => send({ type: 'audio.play' }),
    pause: () => send({ type: 'audio.pause' }),
    toggle: () => send({ type: 'audio.toggle' }),
  };
}
