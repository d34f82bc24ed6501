import { assign, cancel, raise, setup } from 'xstate';
import { EDITION_INDICATOR_MS } from '../../domain/constants';
import { timer, type StateMetaWithTimers } from '../shared/timers';
import type { LevelIndicatorContext, LevelIndicatorEvent, LevelIndicatorInput } from './levelIndicator.types';
import { startState } from '../shared/start';

const pulseTimer = timer('timeout', EDITION_INDICATOR_MS, { type: 'indicator.timeout' as const });

/**
 * The pulse runs while the indicator is on screen: the engine starts with the app (a signed-in user's or a class-code
 * holder's catalog), long before a reader shows the dropdown, so the view says when it shows it ('indicator.shown').
 */
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
    init: startState('Chooses the start state from the stored seen flag.', 'wasSeenBefore', 'seen', 'waiting'),
    waiting: {
      meta: { description: 'Not seen yet, and not on screen: the pulse waits for the view to show the dropdown.' },
      on: { 'indicator.shown': { target: 'pulsing' } },
    },
    pulsing: {
      entry: 'startPulseTimer',
      exit: 'cancelPulseTimer',
      meta: {
        description: 'On screen, the indicator pulses until hovered or for EDITION_INDICATOR_MS.',
        timers: [pulseTimer],
      },
      on: {
        'indicator.hover': { target: 'seen', actions: ['markSeen', 'storeIndicatorSeen'] },
        'indicator.timeout': { target: 'seen', actions: ['markSeen', 'storeIndicatorSeen'], description: 'The pulse ran its course: remembered as seen.' },
        'indicator.hidden': { target: 'waiting', description: 'Gone from the screen before its time: not remembered, it pulses again when shown.' },
      },
    },
    seen: {
      meta: { description: 'Hidden, and remembered as seen.' },
    },
  },
});
