/**
 * What decode mode shows, in words: the legend of its cue classes and the tooltips of its control (SPEC §8).
 * The reader can show these beside the text; docs/phonics.md explains each cue.
 */

/** The decode control's tooltip when the edition has no decode mode (SPEC §8). */
export const DECODE_NOT_AVAILABLE = 'Decode Mode not available';
/** The phonics note (SPEC §8): decode mode visually reinforces phonics and is English only. Our wording. */
export const DECODE_PHONICS_NOTE = 'Decode Mode visually reinforces phonics. Available for English passages only.';

// The legend lives in src/domain/decode.ts, so the reader shows exactly what the server documents.
export { DECODE_LEGEND, type LegendEntry } from '../../src/domain/decode';
