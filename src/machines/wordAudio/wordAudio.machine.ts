import { assign, cancel, fromPromise, raise, setup, spawnChild, stopChild } from 'xstate';
import { AUDIO_NOT_AVAILABLE } from '../../domain/constants';
import type { SpeechMark } from '../../domain/speechMarks';
import { WORD_WAIT_MS, wordTimesAt } from '../../domain/wordAudio';
import { loadNarrationPlaceholder } from '../shared/audio';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { ToastRequest } from '../toasts/toasts.types';
import type { WordAudioContext, WordAudioDone, WordAudioEvent, WordClip, WordRequest } from './wordAudio.types';

/** The toast when a word cannot be said (SPEC §8 Tooltips' wording for missing audio). */
export const WORD_AUDIO_UNAVAILABLE = AUDIO_NOT_AVAILABLE;

const waitTimer = timer('wait', WORD_WAIT_MS, { type: 'wordAudio.waitOver' as const });
const unavailable: ToastRequest = { kind: 'error', message: WORD_AUDIO_UNAVAILABLE };

/** The stretch of a ready narration that says the request's word, or null when no mark says it. */
export function clipOf(request: WordRequest, narration: { url: string; speechMarks: readonly SpeechMark[]; duration: number }): WordClip | null {
  const times = wordTimesAt(request.target, narration.speechMarks, narration.duration);
  return times ? { url: narration.url, ...times } : null;
}

const readyClip = (request: WordRequest) => (request.narration ? clipOf(request, request.narration) : null);

/**
 * Say one word of a passage. A word whose narration is ready is said at once; one whose
 * narration is still being made waits for it up to WORD_WAIT_MS; one with no narration, or none that says it,
 * gets the 'Audio not available' toast. While it waits or speaks the reader's player is held, and plays on when
 * it ends if it was playing. A new word replaces the one being said. The narration load and the clip's playback
 * are actors the engine provides from its ports.
 */
const base = setup({
  types: {} as { context: WordAudioContext; events: WordAudioEvent | WordAudioDone; meta: StateMetaWithTimers },
  actors: {
    /** Provided by the engine: the passage's narration (asks again while it is being made). */
    loadNarration: loadNarrationPlaceholder,
    /** Provided by the engine: plays one stretch of a narration on the word's own audio port, and ends with it. */
    sayClip: fromPromise<void, WordClip>(() => Promise.reject(new Error('sayClip is provided by the engine'))),
  },
  actions: {
    /** Provided by the reader system: hold the reader's player (a playing one waits for the word; the player decides). */
    pauseReader: () => {},
    /** Provided by the reader system: let the reader's player go (it plays on if it was held). */
    resumeReader: () => {},
    /** Provided by the reader system: a toast. */
    showToast: (_, _params: ToastRequest) => {},
    startWaitTimer: raise(waitTimer.event, { delay: waitTimer.delay, id: waitTimer.id }),
    cancelWaitTimer: cancel(waitTimer.id),
    // The actors are spawned and stopped by name (not invoked), so the machine stays walkable by createTestModel.
    loadNarration: spawnChild('loadNarration', { id: 'wordNarration', input: ({ context }) => context.request!.load! }),
    stopNarration: stopChild('wordNarration'),
    playClip: spawnChild('sayClip', { id: 'wordClip', input: ({ context }) => context.clip! }),
    stopClip: stopChild('wordClip'),
    take: assign(({ event }) => (event.type === 'wordAudio.say' ? { request: event.request, clip: readyClip(event.request) } : {})),
  },
  guards: {
    isReady: ({ event }) => event.type === 'wordAudio.say' && readyClip(event.request) !== null,
    canWait: ({ event }) => event.type === 'wordAudio.say' && event.request.narration === null && event.request.load !== null,
    hasClip: ({ context, event }) => event.type === 'xstate.done.actor.wordNarration' && context.request !== null && clipOf(context.request, event.output) !== null,
  },
});

export const wordAudioMachine = base.createMachine({
  id: 'wordAudio',
  context: { request: null, clip: null },
  initial: 'idle',
  states: {
    idle: {
      meta: { description: 'No word is being said.' },
      on: {
        'wordAudio.say': [
          { guard: 'isReady', target: 'active.speaking', actions: 'take' },
          { guard: 'canWait', target: 'active.waiting', actions: 'take' },
          { actions: { type: 'showToast', params: unavailable } },
        ],
      },
    },
    active: {
      meta: { description: "A word is asked for: the reader's player is paused until it is said." },
      entry: 'pauseReader',
      exit: 'resumeReader',
      initial: 'waiting',
      on: {
        // Another word replaces this one; the player stays held until the last word is said.
        'wordAudio.say': [
          { guard: 'isReady', target: '.speaking', actions: 'take' },
          { guard: 'canWait', target: '.waiting', actions: 'take' },
          { target: 'idle', actions: { type: 'showToast', params: unavailable } },
        ],
        'wordAudio.cancel': { target: 'idle' },
      },
      states: {
        waiting: {
          meta: { description: 'The narration is still being made: the word waits up to WORD_WAIT_MS.', timers: [waitTimer] },
          entry: ['startWaitTimer', 'loadNarration'],
          exit: ['cancelWaitTimer', 'stopNarration'],
          on: {
            'xstate.done.actor.wordNarration': [
              { guard: 'hasClip', target: 'speaking', actions: assign({ clip: ({ context, event }) => clipOf(context.request!, event.output) }) },
              { target: '#wordAudio.idle', actions: { type: 'showToast', params: unavailable } },
            ],
            'xstate.error.actor.wordNarration': { target: '#wordAudio.idle', actions: { type: 'showToast', params: unavailable } },
            'wordAudio.waitOver': { target: '#wordAudio.idle', actions: { type: 'showToast', params: unavailable } },
          },
        },
        speaking: {
          meta: { description: "The word's stretch of the narration plays on the word's own audio port." },
          entry: 'playClip',
          exit: 'stopClip',
          on: {
            'xstate.done.actor.wordClip': { target: '#wordAudio.idle' },
            'xstate.error.actor.wordClip': { target: '#wordAudio.idle' },
          },
        },
      },
    },
  },
});
