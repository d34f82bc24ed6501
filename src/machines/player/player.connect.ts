import type { SnapshotFrom } from 'xstate';
import type { playerMachine } from './player.machine';
import type { PlayerControlState, PlayerViewEvent } from './player.types';

/** The player's status text, by state (SPEC §4 Audio control state). */
export const PLAYER_LABELS = { closed: 'Closed', paused: 'Paused', playing: 'Now Playing' } as const;

/** The state the player shows and saves: held by a word, it shows 'Paused'. */
export function playerState(snapshot: Pick<SnapshotFrom<typeof playerMachine>, 'matches'>): PlayerControlState {
  if (snapshot.matches({ control: 'closed' }) || snapshot.matches({ control: 'init' })) return 'closed';
  return snapshot.matches({ control: { open: { mode: 'playing' } } }) ? 'playing' : 'paused';
}

export function connectPlayer(snapshot: Pick<SnapshotFrom<typeof playerMachine>, 'matches'>, send: (event: PlayerViewEvent) => void) {
  const state = playerState(snapshot);
  return {
    isOpen: state !== 'closed',
    isPlaying: state === 'playing',
    /** 'Closed', 'Paused' or 'Now Playing'. */
    label: PLAYER_LABELS[state],
    open: () => send({ type: 'audio.open' }),
    close: () => send({ type: 'audio.close' }),
    play: () => send({ type: 'audio.play' }),
    pause: () => send({ type: 'audio.pause' }),
    toggle: () => send({ type: 'audio.toggle' }),
    seek: (seconds: number) => send({ type: 'audio.seek', seconds }),
    setSpeed: (speed: number) => send({ type: 'audio.speed', speed }),
  };
}
