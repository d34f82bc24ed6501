import { assign, setup } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { CreateEditionParams, MissingEditionContext, MissingEditionEvent, MissingEditionInput } from './missingEdition.types';

/** The key of an edition within an attempt: lower-case language, upper-case level, e.g. 'en:B1'. */
export function editionKey(language: string, level: string): string {
  return `${language.toLowerCase()}:${level.toUpperCase()}`;
}

export const missingEditionMachine = setup({
  types: {} as { context: MissingEditionContext; events: MissingEditionEvent; input: MissingEditionInput; meta: StateMetaWithTimers },
  actions: {
    /** Provided by the engine: asks the API to create the edition, then sends 'edition.created' or 'edition.creationFailed'. */
    createEdition: (_, _params: CreateEditionParams) => {},
    /** Provided by the engine: refetches the publication (and so the column's edition) now that the edition exists. */
    refreshPublication: (_, _params: { slot: MissingEditionContext['slot'] }) => {},
    storeMissing: assign(({ event }) => (event.type === 'edition.missing' ? { language: event.language, level: event.level } : {})),
    recordAttempt: assign(({ context, event }) =>
      event.type === 'edition.missing' ? { attempts: [...context.attempts, editionKey(event.language, event.level)] } : {},
    ),
    clearAttempts: assign({ attempts: [], language: null, level: null }),
  },
  guards: {
    /** This language and level was already created once in this attempt. */
    wasTriedAlready: ({ context, event }) => event.type === 'edition.missing' && context.attempts.includes(editionKey(event.language, event.level)),
  },
}).createMachine({
  id: 'missingEdition',
  initial: 'idle',
  context: ({ input }) => ({ slot: input.slot, attempts: [], language: null, level: null }),
  on: {
    'edition.reset': { target: '.idle', actions: 'clearAttempts', description: 'A new navigation attempt may create each edition once again.' },
  },
  states: {
    idle: {
      meta: { description: 'Nothing is missing, or a created edition is being fetched again.' },
      on: {
        'edition.missing': [
          { guard: 'wasTriedAlready', target: 'failed', actions: 'storeMissing', description: 'Created once in this attempt and still missing.' },
          {
            target: 'creating',
            actions: [
              'storeMissing',
              'recordAttempt',
              { type: 'createEdition', params: ({ context }) => ({ slot: context.slot, language: context.language ?? '', level: context.level ?? '' }) },
            ],
          },
        ],
      },
    },
    creating: {
      meta: { description: 'The missing edition is being created on demand; the column shows loading.' },
      on: {
        'edition.created': { target: 'idle', actions: { type: 'refreshPublication', params: ({ context }) => ({ slot: context.slot }) } },
        'edition.creationFailed': { target: 'failed' },
      },
    },
    failed: {
      meta: { description: "The edition could not be created: the column shows 'Passage not found' (404)." },
    },
  },
});
