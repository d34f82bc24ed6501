import { assign, cancel, raise, setup } from 'xstate';
import { EDITION_INDICATOR_MS } from '../../domain/constants';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { LevelIndicatorContext, LevelIndicatorEvent, LevelIndicatorInput } from './levelIndicator.types';
import { startState } from '../shared/start';

const pulseTimer = timer('timeout', EDITION_INDICATOR_MS, { type: 'indicator.timeout' as const });

export const levelIndicatorMachine = setup({
  types: {} as { context: LevelIndicatorContext; events: LevelIndicatorEvent; input: LevelIndicatorInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: remembers that the indicator was seen. */
    storeIndicatorSeen: () => {},
    markSeen: assign({ seenBefore: true }),
    startPulseTimer: raise(pulseTimer.event, { delay: pulseTimer.delay, id: pulseTimer.id }),
    cancelPulseTimer: cancel(pulseTimer.id),
  },
  guards: {
    wasSeenBefore: ({ context }) => context.seenBefore,
  },
}).createMachine({
  id: 'levelIndicator',
  initial: 'init',
  context: ({ input }) => ({ seenBefore: input.seenBefore }),
  states: {
    init: startState('Chooses the start state from the stored seen flag.', 'wasSeenBefore', 'seen', 'pulsing'),
    pulsing: {
      entry: 'startPulseTimer',
      exit: 'cancelPulseTimer',
      meta: {
        description: 'The indicator pulses until hovered or for EDITION_INDICATOR_MS.',
        timers: [pulseTimer],
      },
      on: {
        'indicator.hover': { target: 'seen', actions: ['markSeen', 'storeIndicatorSeen'] },
        'indicator.timeout': { target: 'seen', actions: ['markSeen', 'storeIndicatorSeen'] },
      },
    },
    seen: {
      meta: { description: 'Hidden, and remembered as seen.' },
    },
  },
});
