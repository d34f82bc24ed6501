import { and, assign, not, setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type {
  EditionFacts,
  HighlightDecodeContext,
  HighlightDecodeEvent,
  HighlightDecodeInput,
  PassageFacts,
  PersistModeParams,
  ReadingMode,
  ShowUpgradeParams,
} from './highlightDecode.types';
import { isSameEdition, isToldAlready, withFacts } from './highlightDecode.rules';

type EventOf<T extends HighlightDecodeEvent['type']> = Extract<HighlightDecodeEvent, { type: T }>;

/** Save the mode: in reader settings, and as the mode this machine starts again from. */
const persist = (mode: ReadingMode) => [{ type: 'keepSavedMode', params: { mode } }, { type: 'persistMode', params: { mode } }] as const;
const offerUpgrade = { type: 'showDecodeUpgrade', params: { feature: 'Decode' } } as const;
const storePassage = { type: 'storePassage', params: ({ event }: { event: EventOf<'passage.changed'> }) => event } as const;
const storeEdition = { type: 'storeEdition', params: ({ event }: { event: EventOf<'edition.changed'> }) => event } as const;
const storeFeatures = { type: 'storeFeatures', params: ({ event }: { event: EventOf<'features.changed'> }) => event } as const;
/** Another primary edition: the mode starts again from the saved one. */
const startAgain = { guard: { type: 'isOtherEdition', params: ({ event }: { event: EventOf<'edition.changed'> }) => event }, target: 'init', actions: storeEdition, description: 'Another primary edition: the saved mode again, if it offers it.' } as const;
/** The system tells the editions' facts on every view: facts it already keeps move nothing (the snapshot stays the same). */
const toldAlready = { guard: { type: 'isToldAlready', params: ({ event }: { event: EventOf<'edition.changed'> }) => event }, description: 'Nothing new.' } as const;
/** The feature told again as it is kept moves nothing. */
const featureToldAlready = { guard: { type: 'isFeatureToldAlready', params: ({ event }: { event: EventOf<'features.changed'> }) => event }, description: 'Nothing new.' } as const;
/** Whether the new edition allows highlight, or decode, or the user still has the DECODE feature. */
const highlightOf = ({ event }: { event: EventOf<'edition.changed'> }) => ({ allowed: event.highlightEnabled });
const decodeOf = ({ event }: { event: EventOf<'edition.changed'> }) => ({ allowed: event.decodeEnabled });
/** A new edition while a mode is on: off when the edition does not offer the mode, else the mode again (`entering`). */
const onEditionChanged = (allowedOf: typeof highlightOf, entering: 'enteringHighlight' | 'enteringDecode', description: string) =>
  [
    startAgain,
    toldAlready,
    { guard: { type: 'isSameEdition', params: ({ event }: { event: EventOf<'edition.changed'> }) => event }, actions: storeEdition, description: 'The editions allow what they did: the mode stays.' },
    { guard: { type: 'isWithdrawn', params: allowedOf }, target: 'off', actions: [storeEdition, ...persist('off')], description },
    { target: entering, actions: storeEdition },
  ] as const;

export const highlightDecodeMachine = setup({
  types: {} as { context: HighlightDecodeContext; events: HighlightDecodeEvent; input: HighlightDecodeInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: saves the mode in reader settings. */
    persistMode: (_, _params: PersistModeParams) => {},
    /** Provided by the reader system: asks the player for the passage's narration; its speech marks come back as 'passage.changed'. */
    requestSpeechMarks: () => {},
    /** Provided by the system: asks the primary column for its passage's decoded text; the passage then changes ('passage.changed'). */
    requestDecodedText: () => {},
    /** Provided by the engine: opens the 'Unlock Premium Decode' dialog (Decode Mode requires a school license). */
    showDecodeUpgrade: (_, _params: ShowUpgradeParams) => {},
    storePassage: assign(({ context }, facts: Partial<PassageFacts>) => withFacts(context, facts)),
    storeEdition: assign(({ context }, facts: EditionFacts) => withFacts(context, facts)),
    storeFeatures: assign((_, facts: { hasDecodeFeature: boolean }) => ({ hasDecodeFeature: facts.hasDecodeFeature })),
    keepSavedMode: assign((_, params: { mode: ReadingMode }) => ({ savedMode: params.mode })),
  },
  guards: {
    /** The edition allows highlight. */
    canHighlight: ({ context }) => context.highlightEnabled,
    isDecodeOffered: ({ context }) => context.decodeEnabled,
    hasDecodeFeature: ({ context }) => context.hasDecodeFeature,
    hasSpeechMarks: ({ context }) => context.hasSpeechMarks,
    hasDecodedText: ({ context }) => context.hasDecodedText,
    isEnglish: ({ context }) => context.isEnglish,
    /** In `init` only: highlight was saved in reader settings. */
    wasHighlightSaved: ({ context }) => context.savedMode === 'highlight',
    /** In `init` only: decode was saved in reader settings. */
    wasDecodeSaved: ({ context }) => context.savedMode === 'decode',
    /** The edition allows decode and the user has the DECODE feature. */
    canDecode: and(['isDecodeOffered', 'hasDecodeFeature']),
    /** The edition offers decode but the user lacks the DECODE feature. */
    isDecodeLocked: and(['isDecodeOffered', not('hasDecodeFeature')]),
    /** In `init` only: highlight was saved and the edition allows it. */
    canResumeHighlight: and(['wasHighlightSaved', 'canHighlight']),
    /** In `init` only: decode was saved and is available. */
    canResumeDecode: and(['wasDecodeSaved', 'canDecode']),
    lacksSpeechMarks: not('hasSpeechMarks'),
    /** Decoded text exists for English passages only. */
    lacksDecodedText: and(['isEnglish', not('hasDecodedText')]),
    isSameEdition: ({ context }, facts: EditionFacts) => isSameEdition(context, facts),
    /** A change takes away what the mode needs. */
    isWithdrawn: (_, params: { allowed: boolean }) => !params.allowed,
    isOtherEdition: ({ context }, facts: EditionFacts) => facts.editionId !== context.editionId,
    isToldAlready: ({ context }, facts: EditionFacts) => isToldAlready(context, facts),
    /** The DECODE feature arrives (the user loads after the reader opens): a saved decode mode resumes. */
    gainsDecode: ({ context }, params: { hasDecodeFeature: boolean }) => params.hasDecodeFeature && !context.hasDecodeFeature,
    isFeatureToldAlready: ({ context }, params: { hasDecodeFeature: boolean }) => params.hasDecodeFeature === context.hasDecodeFeature,
  },
}).createMachine({
  id: 'highlightDecode',
  initial: 'init',
  context: ({ input }) => ({ ...input }),
  // Facts are kept up to date in every mode; the modes below add what they need on top.
  on: {
    'passage.changed': { actions: storePassage },
    'features.changed': [featureToldAlready, { actions: storeFeatures }],
  },
  states: {
    init: {
      meta: { description: 'Starts in the saved mode when it is available now, otherwise off.' },
      always: [
        { guard: 'canResumeHighlight', target: 'enteringHighlight' },
        { guard: 'canResumeDecode', target: 'enteringDecode' },
        { target: 'off' },
      ],
    },
    off: {
      meta: { description: 'Neither highlight nor decode is on.' },
      on: {
        'edition.changed': [startAgain, toldAlready, { actions: storeEdition }],
        'features.changed': [featureToldAlready, { guard: { type: 'gainsDecode', params: ({ event }: { event: EventOf<'features.changed'> }) => event }, target: 'init', actions: storeFeatures, description: 'DECODE arrived: a saved decode mode resumes.' }, { actions: storeFeatures }],
        'highlight.toggle': { guard: 'canHighlight', target: 'enteringHighlight', actions: persist('highlight') },
        'highlight.enable': { guard: 'canHighlight', target: 'enteringHighlight', actions: persist('highlight'), description: "A column's Listen turned on: read along." },
        'decode.toggle': [
          { guard: 'canDecode', target: 'enteringDecode', actions: persist('decode') },
          { guard: 'isDecodeLocked', actions: offerUpgrade, description: 'Offer the upgrade.' },
        ],
      },
    },
    enteringHighlight: {
      meta: { description: "Passes on to highlight at once, first asking for the passage's speech marks when it lacks them." },
      always: [{ guard: 'lacksSpeechMarks', target: 'highlight', actions: 'requestSpeechMarks' }, { target: 'highlight' }],
    },
    highlight: {
      meta: { description: 'Words are highlighted as the audio plays.' },
      on: {
        'highlight.toggle': { target: 'off', actions: persist('off') },
        'decode.toggle': [
          { guard: 'canDecode', target: 'enteringDecode', actions: persist('decode'), description: 'Turning decode on turns highlight off.' },
          { guard: 'isDecodeLocked', actions: offerUpgrade, description: 'Offer the upgrade.' },
        ],
        'passage.changed': { target: 'enteringHighlight', actions: storePassage, description: "Another passage: its speech marks, if it lacks them." },
        'edition.changed': onEditionChanged(highlightOf, 'enteringHighlight', 'The new edition has no highlight mode.'),
      },
    },
    enteringDecode: {
      meta: { description: 'Passes on to decode at once, first asking for the decoded text of an English passage that lacks it.' },
      always: [{ guard: 'lacksDecodedText', target: 'decode', actions: 'requestDecodedText' }, { target: 'decode' }],
    },
    decode: {
      meta: { description: 'The text is shown decoded to reinforce phonics.' },
      on: {
        'decode.toggle': { target: 'off', actions: persist('off') },
        'highlight.toggle': { guard: 'canHighlight', target: 'enteringHighlight', actions: persist('highlight'), description: 'Turning highlight on turns decode off.' },
        'passage.changed': { target: 'enteringDecode', actions: storePassage, description: 'Another passage: its decoded text, if it lacks it.' },
        'edition.changed': onEditionChanged(decodeOf, 'enteringDecode', 'The new edition has no decode mode.'),
        'features.changed': [
          featureToldAlready,
          { target: 'off', actions: [storeFeatures, ...persist('off')], description: 'The user lost the DECODE feature (a feature told as it is kept moves nothing).' },
        ],
      },
    },
  },
});
