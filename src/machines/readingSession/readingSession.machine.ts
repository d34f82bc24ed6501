/**
 * The reading session ties the reader together (SPEC §2 Reader entry and screen, §4 Passage navigation and
 * Language and level change): which publication, which editions in which columns, which position. Loading and
 * saving go through named actions the engine provides; their outcomes come back as events.
 */
import { assign, setup } from 'xstate';
import { closestForLanguage, closestForLevel, clampPosition, findEdition, pagingMax, pushRecent } from '../../domain/reading';
import type { Edition, Publication } from '../../domain/schemas';
import type { StateMetaWithTimers } from '../shared/timers';
import { RECENT_LANGUAGES_CAP } from '../../domain/settings';
import type { EditionChoice, ReadingSessionContext, ReadingSessionEvent, ReadingSessionInput, Slot } from './readingSession.types';

export { RECENT_LANGUAGES_CAP } from '../../domain/settings';

export function editionFor(publication: Publication | null, choice: EditionChoice | null): Edition | undefined {
  if (!publication || !choice) return undefined;
  return findEdition(publication.editions, choice);
}

/** The largest position paging may reach: the largest passage count over the editions in view. */
export function maxPositionOf(context: Pick<ReadingSessionContext, 'publication' | 'primary' | 'secondary'>): number {
  return pagingMax([editionFor(context.publication, context.primary), editionFor(context.publication, context.secondary)]);
}

const choiceIn = (context: ReadingSessionContext, slot: Slot) => (slot === 'primary' ? context.primary : context.secondary);

/** A column moved to another edition (when there is one), its position kept within the editions now in view. */
function moveColumn(context: ReadingSessionContext, slot: Slot, next: Edition | undefined): Partial<ReadingSessionContext> {
  if (!next) return {};
  const choice = { language: next.language.code, level: next.level };
  return { [slot]: choice, position: clampPosition(context.position, maxPositionOf({ ...context, [slot]: choice })) };
}

/** What paging does: move, put the address and the stored position in step, show the passages, track the view. */
const turnPage = ['assignPosition', 'syncAddress', 'savePosition', 'loadPassages', 'trackViewedPassage'] as const;

function resolveOpen(context: ReadingSessionContext, publication: Publication): Partial<ReadingSessionContext> {
  const request = context.request;
  let primary = request?.primary ?? publication.defaultReader.left;
  let secondary = request?.secondary === undefined ? null : request.secondary;
  if (request?.fallbackToDefault && (!editionFor(publication, primary) || (secondary && !editionFor(publication, secondary)))) {
    primary = publication.defaultReader.left;
    secondary = null;
  }
  const base = { publication, primary, secondary, error: null };
  const primaryEdition = editionFor(publication, primary);
  // A position past the edition's end moves to its last passage; anything not positive becomes 1.
  const max = primaryEdition ? pagingMax([primaryEdition, editionFor(publication, secondary)]) : Number.MAX_SAFE_INTEGER;
  return { ...base, position: clampPosition(request?.position ?? 1, max) };
}

export const readingSessionMachine = setup({
  types: {} as {
    context: ReadingSessionContext;
    events: ReadingSessionEvent;
    input: ReadingSessionInput;
    meta: StateMetaWithTimers;
  },
  actions: {
    /** Provided by the engine: fetch the publication of context.request. */
    loadPublication: () => {},
    /** Provided by the engine: load the passages in view and prefetch their neighbours. */
    loadPassages: () => {},
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
    assignPublication: assign(({ context, event }) =>
      event.type === 'publication.loaded' ? resolveOpen(context, event.publication) : {},
    ),
    assignRequest: assign(({ event }) => (event.type === 'session.open' ? { request: event.request, error: null } : {})),
    assignError: assign(({ event }) => (event.type === 'publication.failed' ? { error: { status: event.status, message: event.message } } : {})),
    assignPosition: assign(({ context, event }) => {
      const max = maxPositionOf(context);
      if (event.type === 'page.next') return { position: clampPosition(context.position + 1, max) };
      if (event.type === 'page.previous') return { position: clampPosition(context.position - 1, max) };
      if (event.type === 'page.goto') return { position: clampPosition(event.position, max) };
      return {};
    }),
    assignLanguage: assign(({ context, event }) => {
      if (event.type !== 'language.change' || !context.publication) return {};
      const level = choiceIn(context, event.slot)?.level ?? context.publication.defaultReader.left.level;
      const moved = moveColumn(context, event.slot, closestForLanguage(context.publication.editions, event.language, level));
      return moved && { ...moved, recentLanguages: pushRecent(context.recentLanguages, event.language, RECENT_LANGUAGES_CAP) };
    }),
    assignLevel: assign(({ context, event }) => {
      if (event.type !== 'level.change' || !context.publication) return {};
      const language = choiceIn(context, event.slot)?.language ?? context.publication.defaultReader.left.language;
      return moveColumn(context, event.slot, closestForLevel(context.publication.editions, event.level, language));
    }),
    assignSecondary: assign(({ context, event }) => {
      if (event.type === 'secondary.clear') return { secondary: null };
      if (event.type !== 'secondary.set') return {};
      const updated = { ...context, secondary: event.choice };
      return { secondary: event.choice, position: clampPosition(context.position, maxPositionOf(updated)) };
    }),
    clearSession: assign({ request: null, publication: null, primary: null, secondary: null, position: 1, error: null }),
  },
  guards: {
    canGoNext: ({ context }) => context.position < maxPositionOf(context),
    canGoPrevious: ({ context }) => context.position > 1,
    /** The address asks for a position below 1, which no edition has (SPEC §8 'Passage not found'). */
    isPositionMissing: ({ context }) => context.request?.position !== undefined && context.request.position < 1,
    isNewPosition: ({ context, event }) =>
      event.type === 'page.goto' && clampPosition(event.position, maxPositionOf(context)) !== context.position,
    hasLanguage: ({ context, event }) =>
      event.type === 'language.change' && !!context.publication?.editions.some((e) => e.language.code === event.language),
    hasLevel: ({ context, event }) => event.type === 'level.change' && !!context.publication?.editions.some((e) => e.level === event.level),
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
  }),
  on: {
    'session.open': { target: '.loading', actions: ['assignRequest', 'loadPublication'] },
    'session.close': { target: '.idle', actions: 'clearSession' },
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
            actions: 'assignPublication',
            description: "Position 0 (or below) is no passage: 'Passage not found', not passage 1.",
          },
          {
            target: 'reading',
            actions: ['assignPublication', 'syncAddress', 'savePosition', 'loadPassages', 'trackViewedPassage'],
          },
        ],
        'publication.failed': { target: 'unavailable', actions: ['assignError', 'leaveToCatalog'] },
      },
    },
    reading: {
      meta: { description: 'Passages are shown; the reader pages and changes editions.' },
      on: {
        'page.next': { guard: 'canGoNext', actions: turnPage },
        'page.previous': { guard: 'canGoPrevious', actions: turnPage },
        'page.goto': { guard: 'isNewPosition', actions: turnPage },
        'language.change': {
          guard: 'hasLanguage',
          actions: ['assignLanguage', 'saveRecentLanguages', 'syncAddress', 'savePosition', 'loadPassages'],
        },
        'level.change': { guard: 'hasLevel', actions: ['assignLevel', 'syncAddress', 'savePosition', 'loadPassages'] },
        'secondary.set': { actions: ['assignSecondary', 'syncAddress', 'savePosition', 'loadPassages'] },
        'secondary.clear': { actions: ['assignSecondary', 'syncAddress', 'savePosition'] },
        'publication.reload': { target: 'refreshing', actions: 'loadPublication' },
      },
    },
    refreshing: {
      meta: { description: 'The publication is fetched again (an edition was created); the passages stay shown.' },
      on: {
        'publication.loaded': { target: 'reading', actions: ['assignPublication', 'syncAddress', 'loadPassages'] },
        'publication.failed': { target: 'reading' },
      },
    },
    unavailable: { meta: { description: 'The publication could not be loaded; the reader leaves for the catalog.' } },
    passageNotFound: { meta: { description: "The address names a position no edition has: the reader shows 'Passage not found'." } },
  },
});
