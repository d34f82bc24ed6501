/** The reading mode's rules as pure functions of its facts. */
import type { EditionFacts, HighlightDecodeContext } from './highlightDecode.types';

/** The editions allow what they allowed: a repeated 'edition.changed' (the system tells it on every view) moves nothing. */
export const isSameEdition = (context: HighlightDecodeContext, facts: EditionFacts) =>
  context.highlightEnabled === facts.highlightEnabled && context.decodeEnabled === facts.decodeEnabled && context.isEnglish === facts.isEnglish;
