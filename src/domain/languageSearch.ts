/**
 * The reader's searchable language dropdown (SPEC §2 Reader screen, §5 Language search): a case-insensitive
 * match on the language's name or code, and the two groups 'recently used' and 'all languages'.
 */

export interface SearchableLanguage {
  code: string;
  name: string;
}

/**
 * True when `query` matches the language: case-insensitive, on its name (anywhere in the name) or its code
 * (from the start of the code). Surrounding spaces are ignored; an empty query matches every language.
 */
export function matchesLanguageSearch(language: SearchableLanguage, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === '') return true;
  return language.name.toLowerCase().includes(q) || language.code.toLowerCase().startsWith(q);
}

export interface LanguageGroups<L extends SearchableLanguage> {
  /** The recently used languages that this title offers, most recent first. */
  recent: L[];
  /** Every language the title offers, in the given order. */
  all: L[];
}

/**
 * The dropdown's groups for `query`: recently used (in the order of `recentCodes`, only languages the title
 * offers) and all languages, each filtered by `matchesLanguageSearch`.
 */
export function groupLanguages<L extends SearchableLanguage>(available: readonly L[], recentCodes: readonly string[], query = ''): LanguageGroups<L> {
  const byCode = new Map(available.map((l) => [l.code, l]));
  const recent = [...new Set(recentCodes)].map((code) => byCode.get(code)).filter((l): l is L => l !== undefined);
  const matches = (l: L) => matchesLanguageSearch(l, query);
  return { recent: recent.filter(matches), all: available.filter(matches) };
}
