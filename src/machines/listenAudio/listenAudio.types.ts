/** Listen flow audio (SPEC §4 Audio control state: listen flow; §2 Select-passage page). */

export interface ListenAudioInput {
  /** Whether the listen flow was opened with auto-play flagged (e.g. from 'Start Listening'). */
  autoPlay: boolean;
  /** Whether the current passage is the last page. */
  isLastPage: boolean;
}

export interface ListenAudioContext {
  /** Auto-play: start playing at once, and move on to the next passage when one ends. */
  autoPlay: boolean;
  /** Whether the current passage is the last page; there is nothing to advance to. */
  isLastPage: boolean;
}

export type ListenAudioEvent =
  /** Play/pause. From `finished` it restarts the passage's audio at 0. */
  | { type: 'listen.toggle' }
  /** Sent by the engine when the passage's audio reaches its end. */
  | { type: 'listen.ended' }
  /** Sent by the engine when the auto-advance timer of `finished` fires. */
  | { type: 'listen.advanceDue' }
  /** Sent by the engine when the next passage's audio has been prefetched. */
  | { type: 'listen.nextReady' }
  /** Sent by the engine when the timeout of `loadingNext` fires: advance without waiting any longer. */
  | { type: 'listen.nextTimeout' }
  | { type: 'listen.close' }
  /** Reopen a closed player, paused. */
  | { type: 'listen.open' }
  /** Turn auto-play on or off (the listen page's Auto-play switch). Any state; the state does not change. */
  | { type: 'listen.autoPlay.set'; value: boolean }
  /** Sent by the engine when the page changes. Any state; the state does not change. */
  | { type: 'listen.page.changed'; isLastPage: boolean };

/** The player's controls: the events its view sends (through the listen flow, which passes them on). */
export type ListenAudioCommand = Extract<ListenAudioEvent, { type: 'listen.toggle' | 'listen.close' | 'listen.open' | 'listen.autoPlay.set' }>;

export type ListenAudioState = 'paused' | 'playing' | 'finished' | 'loadingNext' | 'closed';
