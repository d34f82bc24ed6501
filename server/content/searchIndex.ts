/**
 * A prefix index over the catalog's searchable words, so that a search does not test every title.
 *
 * The rule stays the one in src/domain/search.ts (`matchesWords`): an entry matches when every query word is the
 * start of some word of the entry. Here the distinct words of all entries are kept sorted by UTF-16 code units,
 * the order in which every word starting with a prefix forms one contiguous run (the same comparison
 * `String.prototype.startsWith` makes); each word lists the entries that have it. A query word is found by binary
 * search, and the entries of its run are counted; an entry matches when every distinct query word counted it.
 */

export class PrefixIndex {
  /** Distinct words, sorted by code units. */
  private readonly sortedWords: string[];
  /** For sortedWords[i], the entries (by number) that have it, ascending. */
  private readonly postings: Int32Array[];

  /** `entryWords[n]` are the searchable words of entry n (`searchableWords`: lower-cased, each once). */
  constructor(private readonly entryWords: readonly (readonly string[])[]) {
    const byWord = new Map<string, number[]>();
    entryWords.forEach((list, n) => {
      for (const w of list) {
        const entries = byWord.get(w);
        if (entries === undefined) byWord.set(w, [n]);
        else if (entries[entries.length - 1] !== n) entries.push(n);
      }
    });
    // The default sort compares UTF-16 code units, as startsWith does.
    this.sortedWords = [...byWord.keys()].sort();
    this.postings = this.sortedWords.map((w) => Int32Array.from(byWord.get(w)!));
  }

  get size(): number {
    return this.entryWords.length;
  }

  /** Distinct words indexed. */
  get wordCount(): number {
    return this.sortedWords.length;
  }

  /** The first position in sortedWords whose word is not below `prefix`. */
  private lowerBound(prefix: string): number {
    let lo = 0;
    let hi = this.sortedWords.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedWords[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Which entries match `queryWords` (as `words(query)` gives them): a mask by entry number, 1 for a match. An
   * empty query matches every entry, as `matchesWords` does.
   */
  match(queryWords: readonly string[]): Uint8Array {
    const n = this.entryWords.length;
    const mask = new Uint8Array(n);
    const distinct = [...new Set(queryWords)];
    if (distinct.length === 0) return mask.fill(1);
    // counts[e]: how many of the query words so far entry e has matched; an entry that missed one is never
    // counted again, so after the last word, counts[e] === distinct.length exactly for the matches.
    const counts = distinct.length === 1 ? mask : new Uint16Array(n);
    for (let k = 0; k < distinct.length; k++) {
      const q = distinct[k];
      let any = false;
      for (let i = this.lowerBound(q); i < this.sortedWords.length && this.sortedWords[i].startsWith(q); i++) {
        const list = this.postings[i];
        for (let j = 0; j < list.length; j++) {
          const e = list[j];
          // Count once per query word (an entry may have several words with this prefix), and only entries
          // that matched every earlier word.
          if (counts[e] === k) {
            counts[e] = k + 1;
            any = true;
          }
        }
      }
      if (!any) return mask.fill(0);
    }
    if (counts === mask) return mask;
    for (let e = 0; e < n; e++) if (counts[e] === distinct.length) mask[e] = 1;
    return mask;
  }
}
