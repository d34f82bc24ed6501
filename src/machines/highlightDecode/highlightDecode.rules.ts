/** The reading mode's rules as pure functions of its facts. */
import type { EditionFacts, HighlightDecodeContext } from './highlightDecode.types';

/** The editions allow what they allowed: a repeated 'edition.changed' (the system tells it on every view) moves nothing. */
export const isSameEdition = (context: HighlightDecodeContext, facts: EditionFacts) =>
  context.highlightEnabled === facts.highlightEnabled && context.decodeEnabled === facts.decodeEnabled && context.isEnglish === facts.isEnglish;

/** The facts with the ones told applied: a column tells only what it knows (the marks it plays, the primary's decoded text). */
export function withFacts(context: HighlightDecodeContext, facts: Partial<HighlightDecodeContext>): HighlightDecodeContext {
  const told = Object.entries(facts).filter(([key, value]) => key in context && typeof value === 'boolean');
  return { ...context, ...Object.fromEntries(told) };
}
