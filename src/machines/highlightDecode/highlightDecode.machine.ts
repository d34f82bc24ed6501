import { assign, enqueueActions, setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type {
  HighlightDecodeContext,
  HighlightDecodeEvent,
  HighlightDecodeInput,
  PersistModeParams,
  ReadingMode,
  ShowUpgradeParams,
} from './highlightDecode.types';

/** The saved mode, read from the `xstate.init` event that carries the input (it is not kept in context). */
function savedModeOf(event: { type: string }): ReadingMode {
  return (event as { input?: HighlightDecodeInput }).input?.savedMode ?? 'off';
}

const persist = (mode: ReadingMode) => ({ type: 'persistMode', params: { mode } }) as const;

const highlightDecodeSetup = setup({
  types: {} as { context: HighlightDecodeContext; events: HighlightDecodeEvent; input: HighlightDecodeInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: saves the mode in reader settings. */
    persistMode: (_, _params: PersistModeParams) => {},
    /** Provided by the engine: requests the passage's speech marks, stores them into the cached passage, then sends 'speechMarks.loaded'. */
    requestSpeechMarks: () => {},
    /** Provided by the engine: requests the passage's decoded text, merges it into the cached passage, then sends 'decodedText.loaded'. */
    requestDecodedText: () => {},
    /** Provided by the engine: opens the 'Unlock Premium Decode' dialog (Decode Mode requires a school license). */
    showDecodeUpgrade: (_, _params: ShowUpgradeParams) => {},
    storePassage: assign(({ event }) =>
      event.type === 'passage.changed' ? { hasSpeechMarks: event.hasSpeechMarks, hasDecodedText: event.hasDecodedText, isEnglish: event.isEnglish } : {},
    ),
    storeEdition: assign(({ event }) =>
      event.type === 'edition.changed'
        ? {
            highlightEnabled: event.highlightEnabled,
            decodeEnabled: event.decodeEnabled,
            hasSpeechMarks: event.hasSpeechMarks,
            hasDecodedText: event.hasDecodedText,
            isEnglish: event.isEnglish,
          }
        : {},
    ),
    storeFeatures: assign(({ event }) => (event.type === 'features.changed' ? { hasDecodeFeature: event.hasDecodeFeature } : {})),
    markSpeechMarksLoaded: assign({ hasSpeechMarks: true }),
    markDecodedTextLoaded: assign({ hasDecodedText: true }),
  },
  guards: {
    canHighlight: ({ context }) => context.highlightEnabled,
    canDecode: ({ context }) => context.decodeEnabled && context.hasDecodeFeature,
    /** The edition offers decode but the user lacks the DECODE feature. */
    isDecodeLocked: ({ context }) => context.decodeEnabled && !context.hasDecodeFeature,
    /** In `init` only: highlight was saved and the edition allows it. */
    canResumeHighlight: ({ context, event }) => savedModeOf(event) === 'highlight' && context.highlightEnabled,
    /** In `init` only: decode was saved and is available. */
    canResumeDecode: ({ context, event }) => savedModeOf(event) === 'decode' && context.decodeEnabled && context.hasDecodeFeature,
    /** The new edition does not allow highlight. */
    isHighlightWithdrawn: ({ event }) => event.type === 'edition.changed' && !event.highlightEnabled,
    /** The new edition does not allow decode. */
    isDecodeWithdrawn: ({ event }) => event.type === 'edition.changed' && !event.decodeEnabled,
    /** The user no longer has the DECODE feature. */
    isDecodeFeatureLost: ({ event }) => event.type === 'features.changed' && !event.hasDecodeFeature,
  },
});

/** Requests speech marks only when the passage lacks them. */
const requestMissingSpeechMarks = highlightDecodeSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (!context.hasSpeechMarks) enqueue('requestSpeechMarks');
  }),
);
/** Requests decoded text only for an English passage that lacks it. */
const requestMissingDecodedText = highlightDecodeSetup.createAction(
  enqueueActions(({ context, enqueue }) => {
    if (context.isEnglish && !context.hasDecodedText) enqueue('requestDecodedText');
  }),
);

// The conditional requests are built with `createAction` and added with `extend`: inside `setup` itself, an
// `enqueueActions` cannot be typed against sibling actions that take params (persistMode, showDecodeUpgrade).
const withRequests = highlightDecodeSetup.extend({ actions: { requestMissingSpeechMarks, requestMissingDecodedText } });

export const highlightDecodeMachine = withRequests.createMachine({
  id: 'highlightDecode',
  initial: 'init',
  context: ({ input }) => ({
    highlightEnabled: input.highlightEnabled,
    decodeEnabled: input.decodeEnabled,
    hasDecodeFeature: input.hasDecodeFeature,
    hasSpeechMarks: input.hasSpeechMarks,
    hasDecodedText: input.hasDecodedText,
    isEnglish: input.isEnglish,
  }),
  // Facts are kept up to date in every mode; the modes below add what they need on top.
  on: {
    'passage.changed': { actions: 'storePassage' },
    'edition.changed': { actions: 'storeEdition' },
    'features.changed': { actions: 'storeFeatures' },
    'speechMarks.loaded': { actions: 'markSpeechMarksLoaded' },
    'decodedText.loaded': { actions: 'markDecodedTextLoaded' },
  },
  states: {
    init: {
      meta: { description: 'Starts in the saved mode when it is available now, otherwise off.' },
      always: [{ guard: 'canResumeHighlight', target: 'highlight' }, { guard: 'canResumeDecode', target: 'decode' }, { target: 'off' }],
    },
    off: {
      meta: { description: 'Neither highlight nor decode is on.' },
      on: {
        'highlight.toggle': { guard: 'canHighlight', target: 'highlight', actions: persist('highlight') },
        'decode.toggle': [
          { guard: 'canDecode', target: 'decode', actions: persist('decode') },
          { guard: 'isDecodeLocked', actions: { type: 'showDecodeUpgrade', params: { feature: 'Decode' } }, description: 'Offer the upgrade.' },
        ],
      },
    },
    highlight: {
      entry: 'requestMissingSpeechMarks',
      meta: { description: 'Words are highlighted as the audio plays; missing speech marks are requested.' },
      on: {
        'highlight.toggle': { target: 'off', actions: persist('off') },
        'decode.toggle': [
          { guard: 'canDecode', target: 'decode', actions: persist('decode'), description: 'Turning decode on turns highlight off.' },
          { guard: 'isDecodeLocked', actions: { type: 'showDecodeUpgrade', params: { feature: 'Decode' } }, description: 'Offer the upgrade.' },
        ],
        'passage.changed': { actions: ['storePassage', 'requestMissingSpeechMarks'] },
        'edition.changed': [
          { guard: 'isHighlightWithdrawn', target: 'off', actions: ['storeEdition', persist('off')], description: 'The new edition has no highlight mode.' },
          { actions: ['storeEdition', 'requestMissingSpeechMarks'] },
        ],
      },
    },
    decode: {
      entry: 'requestMissingDecodedText',
      meta: { description: 'The text is shown decoded to reinforce phonics; missing decoded text is requested for English passages.' },
      on: {
        'decode.toggle': { target: 'off', actions: persist('off') },
        'highlight.toggle': { guard: 'canHighlight', target: 'highlight', actions: persist('highlight'), description: 'Turning highlight on turns decode off.' },
        'passage.changed': { actions: ['storePassage', 'requestMissingDecodedText'] },
        'edition.changed': [
          { guard: 'isDecodeWithdrawn', target: 'off', actions: ['storeEdition', persist('off')], description: 'The new edition has no decode mode.' },
          { actions: ['storeEdition', 'requestMissingDecodedText'] },
        ],
        'features.changed': [{ guard: 'isDecodeFeatureLost', target: 'off', actions: ['storeFeatures', persist('off')] }, { actions: 'storeFeatures' }],
      },
    },
  },
});
