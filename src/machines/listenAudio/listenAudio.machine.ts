import { assign, cancel, raise, setup } from 'xstate';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ListenAudioContext, ListenAudioEvent, ListenAudioInput } from './listenAudio.types';
import { startState } from '../shared/start';

/** Delay in `finished` before auto-play moves on to the next passage. Not in the spec ("not shown"). @default 1500 */
export const LISTEN_AUTO_ADVANCE_DELAY_MS = 1500;
/** Longest wait in `loadingNext` for the next passage's audio before advancing anyway. Not in the spec ("not shown"). @default 5000 */
export const LISTEN_NEXT_AUDIO_TIMEOUT_MS = 5000;

const advanceTimer = timer('autoAdvance', LISTEN_AUTO_ADVANCE_DELAY_MS, { type: 'listen.advanceDue' as const });
const nextTimer = timer('nextTimeout', LISTEN_NEXT_AUDIO_TIMEOUT_MS, { type: 'listen.nextTimeout' as const });

const close = { target: 'closed', description: 'Close the listen player.' } as const;

export const listenAudioMachine = setup({
  types: {} as { context: ListenAudioContext; events: ListenAudioEvent; input: ListenAudioInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: seeks the audio to 0 before it plays again. */
    restartAudio: () => {},
    /** Provided by the engine: fetches the next passage's audio, then sends 'listen.nextReady'. */
    prefetchNextAudio: () => {},
    /** Provided by the engine: moves to the next passage (its audio starts at 0). */
    advanceToNextPassage: () => {},
    /** Provided by the owner of the settings: the Auto-play switch changed (saved as `autoPlay`, tracked as 'Changed Audio Settings'). */
    reportAutoPlay: (_, _params: { autoPlay: boolean }) => {},
    storeAutoPlay: assign({ autoPlay: ({ context, event }) => (event.type === 'listen.autoPlay.set' ? event.value : context.autoPlay) }),
    startAdvanceTimer: raise(advanceTimer.event, { delay: advanceTimer.delay, id: advanceTimer.id }),
    cancelAdvanceTimer: cancel(advanceTimer.id),
    startNextTimer: raise(nextTimer.event, { delay: nextTimer.delay, id: nextTimer.id }),
    cancelNextTimer: cancel(nextTimer.id),
    storeIsLastPage: assign({ isLastPage: ({ context, event }) => (event.type === 'listen.page.changed' ? event.isLastPage : context.isLastPage) }),
  },
  guards: {
    isAutoPlayOn: ({ context }) => context.autoPlay,
    /** The switch moves to the other value (the same value again changes nothing). */
    isAutoPlayChange: ({ context, event }) => event.type === 'listen.autoPlay.set' && event.value !== context.autoPlay,
    /** Auto-play is on and there is a next passage. */
    shouldAutoAdvance: ({ context }) => context.autoPlay && !context.isLastPage,
  },
}).createMachine({
  id: 'listenAudio',
  initial: 'init',
  context: ({ input }) => ({ autoPlay: input.autoPlay, isLastPage: input.isLastPage }),
  on: {
    'listen.autoPlay.set': {
      guard: 'isAutoPlayChange',
      actions: ['storeAutoPlay', { type: 'reportAutoPlay', params: ({ event }) => ({ autoPlay: event.value }) }],
      description: 'The Auto-play switch, in any state: kept, and reported so it is saved and tracked.',
    },
    'listen.page.changed': { actions: 'storeIsLastPage' },
  },
  states: {
    init: startState('Chooses the start state: playing when auto-play is flagged, else paused.', 'isAutoPlayOn', 'playing', 'paused'),
    paused: {
      meta: { description: "The passage's audio is paused ('Paused')." },
      on: {
        'listen.toggle': { target: 'playing' },
        'listen.close': close,
      },
    },
    playing: {
      meta: { description: "The passage's audio plays ('Now Playing')." },
      on: {
        'listen.toggle': { target: 'paused' },
        'listen.ended': { target: 'finished' },
        'listen.close': close,
      },
    },
    finished: {
      entry: 'startAdvanceTimer',
      exit: 'cancelAdvanceTimer',
      meta: {
        description: "The passage's audio has ended ('Finished'); with auto-play on and a next passage, it moves on after a delay.",
        timers: [advanceTimer],
      },
      on: {
        'listen.toggle': { target: 'playing', actions: 'restartAudio', description: 'Play from Finished restarts at 0.' },
        'listen.advanceDue': { guard: 'shouldAutoAdvance', target: 'loadingNext', description: 'Ignored without auto-play or on the last page.' },
        'listen.page.changed': [
          {
            guard: 'isAutoPlayOn',
            target: 'playing',
            actions: 'storeIsLastPage',
            description: 'A page chosen by hand cancels the pending advance; with auto-play its passage plays from 0.',
          },
          { target: 'paused', actions: 'storeIsLastPage', description: 'A page chosen by hand cancels the pending advance; its passage waits at 0.' },
        ],
        'listen.close': close,
      },
    },
    loadingNext: {
      entry: ['prefetchNextAudio', 'startNextTimer'],
      exit: 'cancelNextTimer',
      meta: {
        description: "Waits for the next passage's audio to be prefetched ('Loading Next'); a timeout forces the advance.",
        timers: [nextTimer],
      },
      on: {
        'listen.nextReady': { target: 'playing', actions: 'advanceToNextPassage' },
        'listen.nextTimeout': { target: 'playing', actions: 'advanceToNextPassage', description: 'Advance without the prefetched audio.' },
        'listen.page.changed': {
          target: 'playing',
          actions: 'storeIsLastPage',
          description: 'A page chosen by hand replaces the advance: its passage plays from 0.',
        },
        'listen.close': close,
      },
    },
    closed: {
      meta: { description: "The listen player is closed ('Closed')." },
      on: { 'listen.open': { target: 'paused' } },
    },
  },
});
