/**
 * The CMU Pronouncing Dictionary (cmu-pronouncing-dictionary 3.0.0: 135k words in ARPAbet), loaded lazily and
 * once: the module is 4.7 MB of source, takes about 0.3 s to load and keeps about 27 MB of heap, so a server
 * that never decodes never pays for it.
 */

/** One pronunciation: phonemes without stress digits, and the stress of each (0, 1, 2; -1 for consonants). */
export interface Pronunciation {
  phones: string[];
  stress: number[];
}

export interface PronouncingDictionary {
  /** Every pronunciation of a word (lower case, ASCII apostrophe), most common first; empty when unknown. */
  lookup(word: string): Pronunciation[];
  has(word: string): boolean;
}

let loading: Promise<PronouncingDictionary> | null = null;
let loaded: PronouncingDictionary | null = null;

function parse(arpabet: string): Pronunciation {
  const phones: string[] = [];
  const stress: number[] = [];
  for (const token of arpabet.trim().split(/\s+/)) {
    const m = /^([A-Z]+)([012])?$/.exec(token);
    if (!m) continue;
    phones.push(m[1]);
    stress.push(m[2] === undefined ? -1 : Number(m[2]));
  }
  return { phones, stress };
}

/** Wrap a word → ARPAbet table (the package's shape, or a test's small one). */
export function dictionaryFrom(table: Readonly<Record<string, string>>): PronouncingDictionary {
  const cache = new Map<string, Pronunciation[]>();
  const lookup = (word: string): Pronunciation[] => {
    const hit = cache.get(word);
    if (hit) return hit;
    const out: Pronunciation[] = [];
    if (Object.hasOwn(table, word)) {
      out.push(parse(table[word]));
      for (let i = 2; Object.hasOwn(table, `${word}(${i})`); i++) out.push(parse(table[`${word}(${i})`]));
    }
    if (cache.size > 50_000) cache.clear();
    cache.set(word, out);
    return out;
  };
  return { lookup, has: (word) => Object.hasOwn(table, word) };
}

/** Load the dictionary (once; concurrent callers share the load). */
export function loadDictionary(): Promise<PronouncingDictionary> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('cmu-pronouncing-dictionary')
    .then((m) => {
      loaded = dictionaryFrom(m.dictionary);
      return loaded;
    })
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The dictionary if it is loaded already, else null. */
export function loadedDictionary(): PronouncingDictionary | null {
  return loaded;
}
