import { setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { ReaderAudioEvent, ReaderAudioInput } from './readerAudio.types';
import { startState } from '../shared/start';

/** The input, read from the `xstate.init` event that carries it (the machine keeps no context). */
function inputOf(event: { type: string }): ReaderAudioInput | undefined {
  return (event as { input?: ReaderAudioInput }).input;
}

/** The open player's transitions: its play/pause toggle does what Play or Pause does in the same state. */
const resume = { target: 'playing', actions: 'trackResumedAudio' } as const;
const pause = { target: 'paused', actions: 'trackPausedAudio' } as const;
const close = { target: 'closed', actions: 'trackClosedAudioPlayer' } as const;

export const readerAudioMachine = setup({
  types: {} as { events: ReaderAudioEvent; input: ReaderAudioInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: tracks 'Opened Audio Player'. */
    trackOpenedAudioPlayer: () => {},
    /** Provided by the engine: tracks 'Closed Audio Player'. */
    trackClosedAudioPlayer: () => {},
    /** Provided by the engine: tracks 'Paused Audio'. */
    trackPausedAudio: () => {},
    /** Provided by the engine: tracks 'Resumed Audio'. */
    trackResumedAudio: () => {},
  },
  guards: {
    /** Only meaningful in `init`, where the event is `xstate.init` with the input. */
    hasSavedSettings: ({ event }) => inputOf(event)?.hasSavedSettings === true,
  },
}).createMachine({
  id: 'readerAudio',
  initial: 'init',
  on: {
    'license.required': {
      target: '.closed',
      description: 'A required license forces the player closed. This is not a user close, so nothing is tracked.',
    },
  },
  states: {
    init: startState('Chooses the start state: paused when saved audio settings exist, otherwise closed.', 'hasSavedSettings', 'paused', 'closed'),
    closed: {
      meta: { description: 'The player is closed; only the Listen control shows.' },
      on: {
        'audio.open': { target: 'playing', actions: 'trackOpenedAudioPlayer' },
        'audio.toggle': { target: 'playing', actions: 'trackOpenedAudioPlayer', description: 'Play from closed opens the player.' },
      },
    },
    paused: {
      meta: { description: "The player is open and paused ('Paused')." },
      on: {
        'audio.play': resume,
        'audio.toggle': resume,
        'audio.close': close,
      },
    },
    playing: {
      meta: { description: "The player is open and the audio plays ('Now Playing')." },
      on: {
        'audio.pause': pause,
        'audio.toggle': pause,
        'audio.ended': { target: 'paused', description: 'The audio reached its end; this is not a user pause, so nothing is tracked.' },
        'audio.close': close,
      },
    },
  },
});
