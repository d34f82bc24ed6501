import type { SnapshotFrom } from 'xstate';
import type { listenAudioMachine } from './listenAudio.machine';
import type { ListenAudioCommand, ListenAudioState } from './listenAudio.types';

/** The listen player's status text, by state (SPEC §4 Audio control state: listen flow). */
export const LISTEN_AUDIO_LABELS: Record<ListenAudioState, string> = {
  paused: 'Paused',
  playing: 'Now Playing',
  finished: 'Finished',
  loadingNext: 'Loading Next',
  closed: 'Closed',
};

export function connectListenAudio(snapshot: SnapshotFrom<typeof listenAudioMachine>, send: (event: ListenAudioCommand) => void) {
  const state = snapshot.value as ListenAudioState;
  return {
    /** 'Paused', 'Now Playing', 'Finished', 'Loading Next' or 'Closed'. */
    label: LISTEN_AUDIO_LABELS[state],
    isPlaying: snapshot.matches('playing'),
    /** Whether auto-play is on (for the auto-play switch). */
    autoPlay: snapshot.context.autoPlay,
    /** Play/pause; from Finished, plays again from 0. */
    toggle: () => send({ type: 'listen.toggle' }),
    close: () => send({ type: 'listen.close' }),
    open: () => send({ type: 'listen.open' }),
    setAutoPlay: (value: boolean) => send({ type: 'listen.autoPlay.set', value }),
  };
}
