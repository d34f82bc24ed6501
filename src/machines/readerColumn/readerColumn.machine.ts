import { assign, fromPromise, setup } from 'xstate';
import { REFRESH_BUTTON_DELAY_MS, SPINNER_DELAY_MS } from '../../domain/constants';
import { failureOf } from '../../domain/failures';
import { isPremiumContentError } from '../../domain/locks';
import type { OnDemandEditionBody, Passage } from '../../domain/schemas';
import type { StateMetaWithTimers } from '../shared/timers';
import type { WordRequest } from '../wordAudio/wordAudio.types';
import { editionKey, isNewFacts, locksItsAudio, missingOf, passageOf, planOf, playFromSeconds, startsPlaying, wordRequestOf, type Plan } from './readerColumn.rules';
import type { ColumnPlan, DecodedTextRequest, PassageRequest, ReaderColumnContext, ReaderColumnDone, ReaderColumnEvent, ReaderColumnInput } from './readerColumn.types';

/**
 * How long after a column shows its passage its neighbours are asked for. Not in the spec: the prefetch's request
 * is set up after the frame that shows a page turn, not inside its key press (docs/performance.md "Page turn").
 * A reader holding an arrow key down turns faster than this, so only where they stop are the neighbours fetched.
 * @default 50
 */
export const PREFETCH_DELAY_MS = 50;

/** The passage shown, for the actions that hand it on. */
const shownPassage = ({ context }: { context: ReaderColumnContext }) => ({ passage: context.passage! });
type WordArgs = { context: ReaderColumnContext; event: { offset: number } };

/**
 * A reader column: it loads the passage the reader system asks for (the load is invoked in `loading`, whose
 * sub-states are the spinner and Refresh delays), shows it or its gate, asks for its neighbours a moment after
 * showing it, and creates a missing edition once per navigation attempt. Asked for the shown passage's decoded text
 * (the reading mode in decode), it loads it in `shown.decoding` and shows the passage with it. It owns what it shows:
 * whenever that changes it tells the player (when it is the column that plays) and the reading mode
 * (readerColumn.rules.ts), and a word tapped in it is said or played from here. What the reader system needs of it
 * ('Premium content', a created edition, 'Play from here', the Audio upgrade) it tells with named actions the system
 * provides.
 */
export const readerColumnMachine = setup({
  types: {} as { context: ReaderColumnContext; events: ReaderColumnEvent | ReaderColumnDone; input: ReaderColumnInput; meta: StateMetaWithTimers },
  actors: {
    /** Provided by the engine: GET /passages (cached; a cached passage answers at once). */
    loadPassage: fromPromise<Passage, PassageRequest>(() => Promise.reject(new Error('provided by the engine'))),
    /** Provided by the engine: POST sources/on-demand. */
    createEdition: fromPromise<unknown, { slug: string; body: OnDemandEditionBody }>(() => Promise.reject(new Error('provided by the engine'))),
    /** Provided by the engine: the passage's decode markup (GET /passages/{id}/decode). */
    loadDecodedText: fromPromise<string, DecodedTextRequest>(() => Promise.reject(new Error('provided by the engine'))),
  },
  actions: {
    /** Provided by the engine: fetch the passages before and after the shown one into its cache, in the background. */
    prefetchNeighbours: (_, _params: PassageRequest) => {},
    /** Provided by the engine: keep a passage that gained its narration or decoded text in the passage cache. */
    cachePassage: (_, _params: { passage: Passage }) => {},
    /** Provided by the engine: log a load that failed without changing what the column shows. */
    logError: (_, _params: { message: string; error?: unknown }) => {},
    /** Provided by the reader system: what the column shows changed; the player (when it plays) and the reading mode hear of it. */
    tellWhatShows: () => {},
    /** Provided by the reader system: the edition of the column that plays changed (the passage it shows has not yet). */
    tellTrack: () => {},
    /** Provided by the reader system: say a tapped word (word audio). */
    sayWord: (_, _params: { request: WordRequest }) => {},
    /** Provided by the reader system: play this column from a tapped word ('Play from here'; null without speech marks). */
    playFrom: (_, _params: { from: { passageId: number; seconds: number } | null }) => {},
    /** Provided by the reader system: the column's language is not voiced for this reader; the Audio upgrade is offered. */
    offerAudioUpgrade: () => {},
    /** Provided by the reader system: this column's Listen turned on; it plays, read along with highlight. */
    listen: () => {},
    /** Provided by the reader system: Listen turned off; the player closes. */
    closePlayer: () => {},
    /** Provided by the reader system: a premium title the reader may not open; the reader leaves for the catalog. */
    leaveForPremium: () => {},
    /** Provided by the reader system: the created edition is in the title now; the title is fetched again. */
    reloadPublication: () => {},
    storeRequest: assign(({ event }) => {
      const { editionId, position, passageCount, edition } = planOf(event) as Plan<'passage'>;
      return { request: { editionId, position, passageCount }, edition, errorStatus: null };
    }),
    storeFacts: assign((_, facts: { plays: boolean; audioLocked: boolean }) => ({ plays: facts.plays, audioLocked: facts.audioLocked })),
    storePassage: assign({ passage: ({ event }) => passageOf(event) }),
    storeError: assign({ passage: null, errorStatus: ({ event }) => failureOf((event as { error?: unknown }).error).status }),
    storeDecodedText: assign({ passage: ({ context, event }) => ({ ...context.passage!, textDecoded: (event as unknown as { output: string }).output }) }),
    storeNarration: assign({ passage: ({ context }, params: { url: string; speechMarks: NonNullable<Passage['audio']>['speechMarks'] }) => ({ ...context.passage!, audio: { url: params.url, speechMarks: params.speechMarks } }) }),
    clearPassage: assign({ passage: null, request: null, edition: null, errorStatus: null }),
    storeMissing: assign(({ context, event }) => {
      const { slug, version, language, level } = missingOf(event);
      const body = { version, languageCode: language, level } as OnDemandEditionBody;
      return { passage: null, request: null, edition: null, missing: { slug, body }, attempts: [...context.attempts, editionKey(language, level)] };
    }),
    forgetAttempts: assign({ passage: null, request: null, edition: null, errorStatus: null, missing: null, attempts: [] }),
  },
  guards: {
    isShownPassage: ({ context }, params: { passageId: number }) => context.passage?.id === params.passageId,
    isNone: ({ event }) => planOf(event)?.kind === 'none',
    isMissing: ({ event }) => planOf(event)?.kind === 'missing',
    /** This language and level was already created once in this attempt, and is still missing. */
    wasTriedAlready: ({ context, event }) => planOf(event)?.kind === 'missing' && context.attempts.includes(editionKey(missingOf(event).language, String(missingOf(event).level))),
    needsLicense: ({ event }) => passageOf(event).licenseRequired === true,
    needsGroupCode: ({ event }) => passageOf(event).groupCodeRequired === true,
    isPremiumContent: ({ event }) => isPremiumContentError((event as { error?: unknown }).error),
    /** Told that it plays, having not played: it tells the player and the reading mode what it shows. */
    startsPlaying: ({ context }, params: { plays: boolean }) => startsPlaying(context, params.plays),
    /** The facts differ from those it keeps (a repeat moves nothing, so the column's snapshot stays the same). */
    isNewFacts: ({ context }, params: { plays: boolean; audioLocked: boolean }) => isNewFacts(context, params),
    isAudioLocked: ({ context }) => context.audioLocked,
    locksItsAudio: ({ context }, params: { plays: boolean; audioLocked: boolean }) => locksItsAudio(context, params),
    isListenOff: (_, params: { on: boolean }) => !params.on,
    hasDecodedText: ({ context }) => context.passage?.textDecoded != null,
  },
}).createMachine({
  id: 'readerColumn',
  initial: 'idle',
  context: ({ input }) => ({ slot: input.slot, request: null, passage: null, errorStatus: null, missing: null, attempts: [], edition: null, plays: input.slot === 'primary', audioLocked: false }),
  on: {
    'column.show': [
      { guard: 'isNone', target: '.idle', actions: ['clearPassage', 'tellWhatShows'] },
      { guard: 'wasTriedAlready', target: '.missing.failed', description: 'Created once in this attempt and still missing.' },
      { guard: 'isMissing', target: '.missing', reenter: true, actions: ['storeMissing', 'tellWhatShows'] },
      {
        target: '.loading',
        reenter: true,
        actions: ['storeRequest', 'tellTrack'],
        description: 'A new load restarts the spinner and refresh timers; the shown passage stays until the next one arrives.',
      },
    ],
    'column.reset': { target: '.idle', actions: ['forgetAttempts', 'tellWhatShows'], description: 'A new navigation attempt may create each edition once again.' },
    'column.facts': [
      { guard: { type: 'locksItsAudio', params: ({ event }) => event }, actions: [{ type: 'storeFacts', params: ({ event }) => event }, 'closePlayer'], description: 'It plays a language not voiced for this reader now: the player closes.' },
      { guard: { type: 'startsPlaying', params: ({ event }) => event }, actions: [{ type: 'storeFacts', params: ({ event }) => event }, 'tellWhatShows'], description: 'This column plays now: the player and highlight hear what it shows.' },
      { guard: { type: 'isNewFacts', params: ({ event }) => event }, actions: { type: 'storeFacts', params: ({ event }) => event } },
    ],
    // The Listen toggle (SPEC §6 Audio): off closes the player; on, a language not voiced for this reader offers the upgrade.
    'audio.listen': [{ guard: { type: 'isListenOff', params: ({ event }) => event }, actions: 'closePlayer' }, { guard: 'isAudioLocked', actions: 'offerAudioUpgrade' }, { actions: 'listen' }],
    // Word mode (src/domain/wordAudio.ts): the Audio gate first; then the word is said, or the player plays from it.
    'word.say': [
      { guard: 'isAudioLocked', actions: 'offerAudioUpgrade' },
      { actions: { type: 'sayWord', params: ({ context, event }: WordArgs) => ({ request: wordRequestOf(context, event.offset) }) } },
    ],
    'word.playFrom': [
      { guard: 'isAudioLocked', actions: 'offerAudioUpgrade' },
      { actions: { type: 'playFrom', params: ({ context, event }: WordArgs) => ({ from: playFromSeconds(context, event.offset) }) } },
    ],
  },
  states: {
    idle: {
      meta: { description: 'The column shows nothing: no title, no edition chosen for it.' },
    },
    loading: {
      initial: 'waiting',
      meta: { description: 'The passage is being fetched; the column shows the loading skeleton.' },
      invoke: {
        id: 'passage',
        src: 'loadPassage',
        input: ({ context }) => context.request!,
        onDone: [
          { guard: 'needsLicense', target: 'gated.license', actions: ['storePassage', 'tellWhatShows'] },
          { guard: 'needsGroupCode', target: 'gated.groupCode', actions: ['storePassage', 'tellWhatShows'] },
          { target: 'shown', actions: ['storePassage', 'tellWhatShows'] },
        ],
        onError: [
          { guard: 'isPremiumContent', target: 'idle', actions: 'leaveForPremium', description: "'Premium content': the reader leaves for the catalog." },
          { target: 'failed', actions: ['storeError', 'tellWhatShows'] },
        ],
      },
      states: {
        waiting: {
          after: { [SPINNER_DELAY_MS]: { target: 'slow' } },
        },
        slow: {
          meta: { description: 'The fetch has taken longer than the spinner delay; a spinner shows.' },
          after: { [REFRESH_BUTTON_DELAY_MS - SPINNER_DELAY_MS]: { target: 'stalled' } },
        },
        stalled: {
          meta: { description: "The fetch has taken longer than the refresh delay; 'Retrieving passage...' shows with a 'Refresh' button." },
          on: { 'passage.refresh': { target: '#readerColumn.loading', reenter: true, description: 'The passage is asked for again.' } },
        },
      },
    },
    shown: {
      initial: 'ready',
      meta: { description: 'The passage is shown; its neighbours are asked for a moment later.' },
      on: {
        'narration.loaded': {
          guard: { type: 'isShownPassage', params: ({ event }) => event },
          actions: [{ type: 'storeNarration', params: ({ event }) => event }, { type: 'cachePassage', params: shownPassage }, 'tellWhatShows'],
          description: "The player loaded this passage's narration: it shows with its speech marks, and the system hears of it.",
        },
      },
      after: { [PREFETCH_DELAY_MS]: { actions: { type: 'prefetchNeighbours', params: ({ context }) => context.request! } } },
      states: {
        ready: {
          meta: { description: 'The passage shows as it was loaded, or with the decoded text it gained.' },
          on: {
            'decodedText.want': [
              { guard: 'hasDecodedText', actions: 'tellWhatShows', description: 'The reading mode asks for what the passage has already: the column tells it.' },
              { target: 'decoding', description: 'The reading mode is in decode and the passage lacks its decoded text.' },
            ],
          },
        },
        decoding: {
          meta: { description: "The passage's decoded text is being fetched; the passage shows as it is meanwhile." },
          invoke: {
            id: 'decodedText',
            src: 'loadDecodedText',
            input: ({ context }) => ({ passageId: context.passage!.id, editionId: context.passage!.editionId, position: context.passage!.position }),
            onDone: {
              target: 'ready',
              actions: ['storeDecodedText', { type: 'cachePassage', params: shownPassage }, 'tellWhatShows'],
              description: 'The passage shows with its decoded text; the system hears of it (and the reading mode through it).',
            },
            onError: { target: 'ready', actions: { type: 'logError', params: ({ event }) => ({ message: 'Decoded text failed', error: event.error }) } },
          },
        },
      },
    },
    gated: {
      initial: 'groupCode',
      meta: { description: 'The passage needs a license or a class code: its panel shows instead of the text.' },
      on: { 'column.reload': { target: 'loading', description: 'Who reads changed: the passage is asked for again.' } },
      states: {
        license: { meta: { description: 'The license-required panel shows over blurred placeholder text.' } },
        groupCode: { meta: { description: 'The group-code panel shows and the bottom bar hides.' } },
      },
    },
    missing: {
      initial: 'creating',
      states: {
        creating: {
          meta: { description: 'The missing edition is being created on demand; the column shows loading.' },
          invoke: {
            id: 'edition',
            src: 'createEdition',
            input: ({ context }) => context.missing!,
            onDone: { target: 'created', actions: 'reloadPublication' },
            onError: { target: 'failed' },
          },
          on: { 'column.show': { guard: 'isMissing', description: 'Still missing while it is being created: nothing new to do.' } },
        },
        created: {
          meta: { description: 'The edition was created; the title is being fetched again.' },
        },
        failed: {
          meta: { description: "The edition could not be created: the column shows 'Passage not found' (404)." },
          on: { 'column.show': { guard: 'isMissing', description: 'Still missing: it stays failed until the next navigation attempt.' } },
        },
      },
    },
    failed: {
      meta: { description: "The fetch failed: the error panel shows 'Not found' for 404, else 'Unavailable'." },
    },
  },
});
