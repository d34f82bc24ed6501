/** The reading mode's rules as pure functions of its facts. */
import type { EditionFacts, HighlightDecodeContext } from './highlightDecode.types';

/** The editions allow what they allowed: a repeated 'edition.changed' (the system tells it on every view) moves nothing. */
export const isSameEdition = (context: HighlightDecodeContext, facts: EditionFacts) =>
  context.highlightEnabled === facts.highlightEnabled && context.decodeEnabled === facts.decodeEnabled && context.isEnglish === facts.isEnglish;

/** The facts with the ones told applied: a column tells only what it knows (the marks it plays, the primary's decoded text). */
export function withFacts(context: HighlightDecodeContext, facts: Partial<HighlightDecodeContext>): HighlightDecodeContext {
  return { ...context, ...Object.fromEntries(toldFacts(context, facts)) };
}

/** The facts of an event the machine keeps (an event carries its type besides them, and a column only what it knows). */
const toldFacts = (context: HighlightDecodeContext, facts: Partial<HighlightDecodeContext>) =>
  Object.entries(facts).filter(([key, value]) => key in context && value !== undefined) as [keyof HighlightDecodeContext, unknown][];

/** Every fact told is one the machine keeps already. */
export const isToldAlready = (context: HighlightDecodeContext, facts: Partial<HighlightDecodeContext>) => toldFacts(context, facts).every(([key, value]) => context[key] === value);
