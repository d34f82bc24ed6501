/**
 * Catalog search (SPEC §5): a publication matches when every typed word is the start of some word in the
 * title or author, case-insensitive. This is the one place the rule is written; the server uses it to
 * filter and the tests pin it down.
 */

/** Split text into lower-cased words. Letters and digits of any script form words; everything else separates them. */
export function words(text: string): string[] {
  return text
    .toLocaleLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Pre-split the searchable words of a title and author, for repeated matching. */
export function searchableWords(title: string, author: string): string[] {
  return [...new Set([...words(title), ...words(author)])];
}

/** True when every word of `query` is a prefix of some word in `candidates`. An empty query matches all. */
export function matchesWords(queryWords: readonly string[], candidates: readonly string[]): boolean {
  return queryWords.every((q) => candidates.some((c) => c.startsWith(q)));
}

export function matchesSearch(query: string, title: string, author: string): boolean {
  return matchesWords(words(query), searchableWords(title, author));
}
