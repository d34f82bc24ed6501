/** Highlight and Decode reading modes, which exclude each other (SPEC §4 Highlight, §4 Decode, §8 Tooltips). */

/** The reading mode kept in reader settings. */
export type ReadingMode = 'off' | 'highlight' | 'decode';

export interface HighlightDecodeContext {
  /** The selected edition's `highlightModeEnabled`: highlight is possible only then. */
  highlightEnabled: boolean;
  /** The selected edition's `decodeEnabled`. */
  decodeEnabled: boolean;
  /** Whether the user has the DECODE feature (a school license). */
  hasDecodeFeature: boolean;
  /** Whether the current passage has its speech marks (needed to highlight). */
  hasSpeechMarks: boolean;
  /** Whether the current passage has its decoded text (needed to decode). */
  hasDecodedText: boolean;
  /** Whether the current passage is English; decoded text exists for English only. */
  isEnglish: boolean;
  /** The mode saved in reader settings (kept as the machine saves it). A saved mode that is not available starts `off`. */
  savedMode: ReadingMode;
  /** The primary edition the facts are for: another one starts the mode again from the saved one. */
  editionId: number | null;
}

export type HighlightDecodeInput = HighlightDecodeContext;

/** What the current passages have: the speech marks of the one that plays, the decoded text of the primary one. */
export interface PassageFacts {
  hasSpeechMarks: boolean;
  hasDecodedText: boolean;
  isEnglish: boolean;
}

/** What the editions allow (highlight: the one that plays; decode: the primary one, and whether it is English). */
export interface EditionFacts extends Partial<PassageFacts> {
  editionId: number | null;
  highlightEnabled: boolean;
  decodeEnabled: boolean;
  isEnglish: boolean;
}

/** Params of `persistMode`: the engine saves the mode in reader settings. */
export interface PersistModeParams {
  mode: ReadingMode;
}

/** Params of `showDecodeUpgrade`: the engine opens the 'Unlock Premium {feature}' dialog. */
export interface ShowUpgradeParams {
  feature: 'Decode';
}

export type HighlightDecodeEvent =
  /** The highlight control: on (turning decode off) when the edition allows it, or off. */
  | { type: 'highlight.toggle' }
  /** A column's Listen turned on: highlight comes on when the mode is off and the edition allows it; otherwise nothing moves. */
  | { type: 'highlight.enable' }
  /** The decode control: on (turning highlight off) when allowed; without the DECODE feature it offers the upgrade. */
  | { type: 'decode.toggle' }
  /** Sent by a column when what it shows changes: the facts it knows (the column that plays, the primary column). */
  | ({ type: 'passage.changed' } & Partial<PassageFacts>)
  /** Sent by the reader system on each view: what the editions allow. */
  | ({ type: 'edition.changed' } & EditionFacts)
  /** Sent by the reader system when the user's features change (sign-in, class code): DECODE arriving resumes a saved decode mode. */
  | { type: 'features.changed'; hasDecodeFeature: boolean };

export type HighlightDecodeState = ReadingMode;
