import type { SnapshotFrom } from 'xstate';
import type { highlightDecodeMachine } from './highlightDecode.machine';
import type { HighlightDecodeEvent } from './highlightDecode.types';

/** Tooltip of the decode control when the edition has no decode mode (SPEC §8 Tooltips). */
export const DECODE_UNAVAILABLE_TOOLTIP = 'Decode Mode not available';
/**
 * Tooltip of the decode control otherwise. The spec gives only its meaning ("decode mode visually reinforces
 * phonics and is English only"); the wording is ours, not in the spec.
 */
export const DECODE_PHONICS_NOTE = 'Decode Mode visually reinforces phonics. Available for English passages only.';
/** Tooltip of the highlight control (SPEC §8 Tooltips). */
export const HIGHLIGHT_TOOLTIP = 'Highlight text as audio plays';

export function connectHighlightDecode(snapshot: SnapshotFrom<typeof highlightDecodeMachine>, send: (event: HighlightDecodeEvent) => void) {
  const { highlightEnabled, decodeEnabled, hasDecodeFeature } = snapshot.context;
  return {
    isHighlightOn: snapshot.matches('highlight'),
    isDecodeOn: snapshot.matches('decode'),
    /** The edition allows highlight. */
    canHighlight: highlightEnabled,
    /** The edition allows decode and the user has the DECODE feature. */
    canDecode: decodeEnabled && hasDecodeFeature,
    /** The edition allows decode but the user lacks the feature: the control offers 'Unlock Premium Decode'. */
    decodeLocked: decodeEnabled && !hasDecodeFeature,
    decodeTooltip: decodeEnabled ? DECODE_PHONICS_NOTE : DECODE_UNAVAILABLE_TOOLTIP,
    highlightTooltip: HIGHLIGHT_TOOLTIP,
    toggleHighlight: () => send({ type: 'highlight.toggle' }),
    toggleDecode: () => send({ type: 'decode.toggle' }),
  };
}
