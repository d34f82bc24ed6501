/**
 * The 'Unlock Premium {feature}' dialog (SPEC §5 Premium features, §6 Audio): closed, or open with the feature it
 * offers. A dialog opened in the reader closes with the reader; the one that tells why a premium title could not be
 * opened (`refused`) stays over the library the reader leaves for (docs/decisions.md).
 */
import { assign, setup } from 'xstate';
import type { PremiumFeature } from '../../domain/locks';
import type { PremiumDialogContext, PremiumDialogEvent } from './premiumDialog.types';

const keepFeature = { type: 'keepFeature', params: ({ event }: { event: { feature: PremiumFeature } }) => event } as const;

export const premiumDialogMachine = setup({
  types: {} as { context: PremiumDialogContext; events: PremiumDialogEvent },
  actions: {
    keepFeature: assign((_, params: { feature: PremiumFeature }) => ({ feature: params.feature })),
    forgetFeature: assign({ feature: null }),
  },
}).createMachine({
  id: 'premiumDialog',
  initial: 'closed',
  context: { feature: null },
  on: {
    'premiumDialog.open': { target: '.open', actions: keepFeature },
    'premiumDialog.refused': { target: '.refused', actions: keepFeature },
    'premiumDialog.close': { target: '.closed', actions: 'forgetFeature' },
  },
  states: {
    closed: { meta: { description: 'No upgrade is offered.' } },
    open: {
      meta: { description: "'Unlock Premium {feature}' shows over the page it was opened on." },
      on: { 'reader.closed': { target: 'closed', actions: 'forgetFeature', description: 'The reader it was opened in closed.' } },
    },
    refused: { meta: { description: "'Unlock Premium Novels' says why the title could not be opened; it stays as the reader leaves." } },
  },
});
