/**
 * The reading session ties the reader together (SPEC §2 Reader entry and screen, §4 Passage navigation and
 * Language and level change): which publication, which editions in which columns, which position. The reader
 * system loads the publication and tells the session the outcome; saving goes through named actions it provides.
 * The session owns the view: told the reader's world ('reader.facts': who reads, the screen, the columns chosen), it
 * tells each column what to show and whether it plays, and the reading mode what the editions allow
 * (readingSession.rules.ts). A locked level or language is not chosen: it offers its upgrade (SPEC §5, §6). An
 * address that names the open title pages within it; another one the system opens.
 */
import { assign, setup } from 'xstate';
import type { PremiumFeature } from '../../domain/locks';
import type { Publication } from '../../domain/schemas';
import { RECENT_LANGUAGES_CAP } from '../../domain/settings';
import type { StateMetaWithTimers } from '../shared/timers';
import { choiceUpgrade, hasLanguage, hasLevel, isPositionMissing, isSameFacts, isSameReading, languageMove, levelMove, maxPositionOf, NO_FACTS, opensSecondColumn, positionWithin, resolveOpen, secondColumnMove, secondaryMove, type ColumnChoice } from './readingSession.rules';
import type { EditionChoice, ReaderFacts, ReadingSessionContext, ReadingSessionEvent, ReadingSessionInput, SessionRequest } from './readingSession.types';

export { RECENT_LANGUAGES_CAP } from '../../domain/settings';
export { editionFor, maxPositionOf } from './readingSession.rules';

type Args<T extends ReadingSessionEvent['type']> = { context: ReadingSessionContext; event: Extract<ReadingSessionEvent, { type: T }> };
const requestOf = ({ event }: Args<'reader.sync'>) => event.request;

/** An address the session does not show: the system opens it. */
const reopen = { type: 'reopen', params: ({ event }: Args<'reader.sync'>) => ({ request: event.request }) } as const;

/** What paging does: move, put the address and the stored position in step, show the passages, track the view. */
const turnTo = <T extends 'page.next' | 'page.previous' | 'page.goto' | 'reader.sync'>(position: (args: Args<T>) => number) =>
  [{ type: 'assignPosition', params: (args: Args<T>) => ({ position: positionWithin(args.context, position(args)) }) }, 'syncAddress', 'savePosition', 'loadPassages', 'trackViewedPassage'] as const;

/** A locked choice offers its upgrade instead of moving the column (the guard, then the upgrade it names). */
const offerUpgrade = <T extends 'language.change' | 'level.change'>(choice: (event: Args<T>['event']) => ColumnChoice, description: string) => ({
  guard: { type: 'offersUpgrade', params: ({ event }: Args<T>) => choice(event) },
  actions: { type: 'showUpgrade', params: ({ context, event }: Args<T>) => ({ feature: choiceUpgrade(context, choice(event))! }) },
  description,
}) as const;

export const readingSessionMachine = setup({
  types: {} as {
    context: ReadingSessionContext;
    events: ReadingSessionEvent;
    input: ReadingSessionInput;
    meta: StateMetaWithTimers;
  },
  actions: {
    /** Provided by the system: each column shows its passage of the view (or creates its missing edition), and the facts follow. */
    loadPassages: () => {},
    /** Provided by the system: each column hears whether it plays and whether its audio is locked, the reading mode what the editions allow. */
    tellFacts: () => {},
    /** Provided by the system: open an address the session does not show. */
    reopen: (_, _params: { request: SessionRequest }) => {},
    /** Provided by the engine: remember the position for this publication. */
    savePosition: () => {},
    /** Provided by the engine: remember the recently used languages. */
    saveRecentLanguages: () => {},
    /** Provided by the engine: put the canonical reader URL in the address. */
    syncAddress: () => {},
    /** Provided by the engine: the publication cannot be read; go to the catalog. */
    leaveToCatalog: () => {},
    /** Provided by the engine: tracking of 'Viewed Passage'. */
    trackViewedPassage: () => {},
    /** Provided by the system: open the 'Unlock Premium {feature}' dialog. */
    showUpgrade: (_, _params: { feature: PremiumFeature }) => {},
    assignFacts: assign((_, facts: ReaderFacts) => ({ facts: { access: facts.access, wide: facts.wide, columns: facts.columns, editionSelected: facts.editionSelected } })),
    assignPublication: assign(({ context }, params: { publication: Publication }) => resolveOpen(context, params.publication)),
    assignRequest: assign((_, params: { request: SessionRequest }) => ({ request: params.request, error: null })),
    assignError: assign((_, params: { status: number; message: string }) => ({ error: { status: params.status, message: params.message } })),
    assignPosition: assign((_, params: { position: number }) => ({ position: params.position })),
    /** A column moved to another edition (languageMove, levelMove, secondaryMove in readingSession.rules.ts). */
    assignMove: assign((_, moved: Partial<ReadingSessionContext>) => moved),
    clearSecondary: assign({ secondary: null }),
    clearSession: assign({ request: null, publication: null, primary: null, secondary: null, position: 1, error: null }),
  },
  guards: {
    canGoNext: ({ context }) => context.position < maxPositionOf(context),
    canGoPrevious: ({ context }) => context.position > 1,
    /** The address asks for a position below 1, which no edition has (SPEC §8 'Passage not found'). */
    isPositionMissing: ({ context }) => isPositionMissing(context.request),
    isNewPosition: ({ context }, params: { position: number }) => positionWithin(context, params.position) !== context.position,
    hasLanguage: ({ context }, params: { language: string }) => hasLanguage(context.publication, params.language),
    hasLevel: ({ context }, params: { level: string }) => hasLevel(context.publication, params.level),
    /** The choice is locked for who reads: it offers an upgrade instead. */
    offersUpgrade: ({ context }, params: ColumnChoice) => choiceUpgrade(context, params) !== null,
    opensSecondColumn: ({ context }) => opensSecondColumn(context),
    /** Told the reader's world as it keeps it: a repeat moves nothing (the snapshot stays the same). */
    isSameFacts: ({ context }, facts: ReaderFacts) => isSameFacts(context.facts, facts),
    /** The address names the title and editions shown: only the position may have moved. */
    isSameReading: ({ context }, request: SessionRequest) => isSameReading(context, request),
    /** The address names the title and editions shown at another position. */
    movesWithin: ({ context }, request: SessionRequest) => isSameReading(context, request) && positionWithin(context, request.position ?? 1) !== context.position,
    hasSecondary: ({ context }) => context.secondary !== null,
  },
}).createMachine({
  id: 'readingSession',
  initial: 'idle',
  context: ({ input }) => ({
    request: null,
    publication: null,
    primary: null,
    secondary: null,
    position: 1,
    recentLanguages: (input?.recentLanguages ?? []).slice(0, RECENT_LANGUAGES_CAP),
    error: null,
    facts: NO_FACTS,
  }),
  on: {
    // The reader system loads the publication and tells the session how it went (publication.loaded / .failed).
    'session.open': { target: '.loading', actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) } },
    'session.close': { target: '.idle', actions: 'clearSession' },
    'reader.facts': [
      { guard: { type: 'isSameFacts', params: ({ event }) => event }, description: 'Nothing new.' },
      { actions: [{ type: 'assignFacts', params: ({ event }) => event }, 'tellFacts'] },
    ],
    'reader.sync': { actions: reopen, description: 'An address the session does not show: the system opens it.' },
  },
  states: {
    idle: { meta: { description: 'No publication is open.' } },
    loading: {
      meta: { description: 'The publication is being fetched.' },
      on: {
        'publication.loaded': [
          {
            guard: 'isPositionMissing',
            target: 'passageNotFound',
            actions: { type: 'assignPublication', params: ({ event }) => ({ publication: event.publication }) },
            description: "Position 0 (or below) is no passage: 'Passage not found', not passage 1.",
          },
          {
            target: 'reading',
            actions: [{ type: 'assignPublication', params: ({ event }) => ({ publication: event.publication }) }, 'syncAddress', 'savePosition', 'loadPassages', 'trackViewedPassage'],
          },
        ],
        'publication.failed': { target: 'unavailable', actions: [{ type: 'assignError', params: ({ event }) => ({ status: event.status, message: event.message }) }, 'leaveToCatalog'] },
      },
    },
    reading: {
      meta: { description: 'Passages are shown; the reader pages and changes editions.' },
      always: {
        guard: 'opensSecondColumn',
        actions: [{ type: 'assignMove', params: ({ context }) => secondColumnMove(context) }, 'syncAddress', 'savePosition', 'loadPassages'],
        description: 'Two columns are wanted and one shows: the second opens with its default edition.',
      },
      on: {
        'page.next': { guard: 'canGoNext', actions: turnTo<'page.next'>(({ context }) => context.position + 1) },
        'page.previous': { guard: 'canGoPrevious', actions: turnTo<'page.previous'>(({ context }) => context.position - 1) },
        'page.goto': { guard: { type: 'isNewPosition', params: ({ event }) => ({ position: event.position }) }, actions: turnTo<'page.goto'>(({ event }) => event.position) },
        'reader.sync': [
          {
            guard: { type: 'movesWithin', params: requestOf },
            actions: turnTo<'reader.sync'>(({ event }) => event.request.position ?? 1),
            description: 'The address names the title and editions shown at another position: page there.',
          },
          { guard: { type: 'isSameReading', params: requestOf }, description: 'The address the session shows; another one the system opens.' },
        ],
        'language.change': [
          offerUpgrade<'language.change'>((event) => ({ language: event.language }), 'A greyed language, or any on a premium title, offers its upgrade.'),
          {
            guard: { type: 'hasLanguage', params: ({ event }) => ({ language: event.language }) },
            actions: [{ type: 'assignMove', params: ({ context, event }) => languageMove(context, event.slot, event.language) }, 'saveRecentLanguages', 'syncAddress', 'savePosition', 'loadPassages'],
          },
        ],
        'level.change': [
          offerUpgrade<'level.change'>((event) => ({ level: event.level }), 'A locked level, or any on a premium title, offers its upgrade.'),
          {
            guard: { type: 'hasLevel', params: ({ event }) => ({ level: event.level }) },
            actions: [{ type: 'assignMove', params: ({ context, event }) => levelMove(context, event.slot, event.level) }, 'syncAddress', 'savePosition', 'loadPassages'],
          },
        ],
        'secondary.set': { actions: [{ type: 'assignMove', params: ({ context, event }) => secondaryMove(context, event.choice as EditionChoice) }, 'syncAddress', 'savePosition', 'loadPassages'] },
        'secondary.clear': { guard: 'hasSecondary', actions: ['clearSecondary', 'syncAddress', 'savePosition', 'tellFacts'] },
        'publication.reload': { target: 'refreshing' },
      },
    },
    refreshing: {
      meta: { description: 'The publication is fetched again (an edition was created); the passages stay shown.' },
      on: {
        'reader.sync': { guard: { type: 'isSameReading', params: requestOf }, description: 'The address the session shows; another one the system opens.' },
        'publication.loaded': { target: 'reading', actions: [{ type: 'assignPublication', params: ({ event }) => ({ publication: event.publication }) }, 'syncAddress', 'loadPassages'] },
        'publication.failed': { target: 'reading', actions: 'loadPassages', description: 'The columns are told the view again: a created edition the title does not list yet stays missing (its column says so).' },
      },
    },
    unavailable: { meta: { description: 'The publication could not be loaded; the reader leaves for the catalog.' } },
    passageNotFound: { meta: { description: "The address names a position no edition has: the reader shows 'Passage not found'." } },
  },
});
