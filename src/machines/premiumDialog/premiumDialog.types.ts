/** The 'Unlock Premium {feature}' dialog (SPEC §5, §6): the feature it offers, and the events it takes. */
import type { PremiumFeature } from '../../domain/locks';

/** The feature the open dialog offers; null while it is closed. @default null */
export type PremiumDialogContext = { feature: PremiumFeature | null };

export type PremiumDialogEvent =
  /** A view or a child offers an upgrade: the dialog opens for its feature. */
  | { type: 'premiumDialog.open'; feature: PremiumFeature }
  /** The reader could not open a premium title: the dialog says why, and stays when the reader closes. */
  | { type: 'premiumDialog.refused'; feature: PremiumFeature }
  /** The reader closes it, or the listen page opens another edition. */
  | { type: 'premiumDialog.close' }
  /** The reader closed: a dialog opened in it closes with it. */
  | { type: 'reader.closed' };
