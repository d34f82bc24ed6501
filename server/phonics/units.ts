/**
 * Spelling units: the letter groups English uses to spell a sound (or a short run of sounds), with the ARPAbet
 * phonemes each can stand for and a cost. The aligner (align.ts) picks the cheapest way to cut a word into units
 * whose phonemes spell out the dictionary pronunciation, so common correspondences cost little, rare ones more,
 * and a silent letter the most. The kind of a unit decides its phonics cue.
 */

export type UnitKind =
  /** A consonant digraph or trigraph (sh ch th ph wh ck ng tch dge). */
  | 'digraph'
  /** A vowel team: two or more letters for one vowel sound (ai ee oa igh ow …). */
  | 'team'
  /** An r-controlled vowel (ar er ir or ur, air ear our …). */
  | 'r'
  /** The 'le' of a consonant + le syllable. */
  | 'le'
  /** An -ed ending. */
  | 'ed'
  /** A plain letter or letter group with no cue (b, ll, qu, x …). */
  | 'plain';

export interface SpellingUnit {
  /** The letters, lower case. */
  letters: string;
  /** The phonemes (no stress digits); empty for a silent letter. */
  phones: string[];
  cost: number;
  kind: UnitKind;
  /** Indices of letters in the unit that are silent (the k of kn, the b of mb). All of them when phones is empty. */
  silent: number[];
  /** Where the unit may stand. */
  at: 'any' | 'start' | 'end' | 'notStart' | 'endOrS';
}

const VOWEL_PHONES = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']);
export const isVowelPhone = (p: string): boolean => VOWEL_PHONES.has(p);

type Row = [letters: string, phones: string, cost: number, kind?: UnitKind, silent?: number[], at?: SpellingUnit['at']];

const ROWS: Row[] = [
  // ---- consonants ----
  ['b', 'B', 1], ['bb', 'B', 1],
  ['c', 'K', 1], ['c', 'S', 1], ['cc', 'K', 1], ['cc', 'K S', 1.5], ['c', 'SH', 2.5],
  ['d', 'D', 1], ['dd', 'D', 1], ['d', 'JH', 2.5], ['d', 'T', 2.5],
  ['f', 'F', 1], ['ff', 'F', 1], ['f', 'V', 2.5],
  ['g', 'G', 1], ['g', 'JH', 1], ['gg', 'G', 1], ['g', 'ZH', 2.5],
  ['h', 'HH', 1],
  ['j', 'JH', 1], ['j', 'Y', 2.5], ['j', 'HH', 2.5],
  ['k', 'K', 1], ['kk', 'K', 1.5],
  ['l', 'L', 1], ['ll', 'L', 1], ['l', 'AH L', 2.5],
  ['m', 'M', 1], ['mm', 'M', 1], ['m', 'AH M', 2.5],
  ['n', 'N', 1], ['nn', 'N', 1], ['n', 'NG', 1.2], ['n', 'AH N', 2.5],
  ['p', 'P', 1], ['pp', 'P', 1],
  ['q', 'K', 2],
  ['r', 'R', 1], ['rr', 'R', 1], ['r', 'ER', 2],
  ['s', 'S', 1], ['s', 'Z', 1], ['ss', 'S', 1], ['ss', 'Z', 2], ['s', 'SH', 2], ['s', 'ZH', 2],
  ['t', 'T', 1], ['tt', 'T', 1], ['t', 'CH', 2], ['t', 'SH', 2.5], ['t', 'D', 2.5],
  ['v', 'V', 1], ['vv', 'V', 1.5],
  ['w', 'W', 1],
  ['x', 'K S', 1], ['x', 'G Z', 1.2], ['x', 'Z', 2], ['x', 'K SH', 2],
  ['y', 'Y', 1],
  ['z', 'Z', 1], ['zz', 'Z', 1], ['z', 'S', 2], ['zz', 'T S', 2], ['z', 'ZH', 2.5],
  // letter groups that make one consonant sound, with no cue
  ['qu', 'K W', 1], ['qu', 'K', 1.5], ['gu', 'G', 1.5, 'plain', [1], 'notStart'], ['gu', 'G W', 1.5],
  ['gue', 'G', 1.2, 'plain', [1, 2], 'end'], ['que', 'K', 1.2, 'plain', [1, 2], 'end'],
  ['gh', 'G', 1.5, 'plain', [1], 'start'], ['gh', 'G', 2], ['gh', 'F', 1.5],
  ['ti', 'SH', 1.2], ['ci', 'SH', 1.3], ['si', 'ZH', 1.3], ['si', 'SH', 1.5], ['ssi', 'SH', 1.3], ['sci', 'SH', 1.8],
  ['ce', 'SH', 2], ['ge', 'JH', 1.8, 'plain', [1], 'notStart'],
  // consonant digraphs and trigraphs (the phonics cue)
  ['sh', 'SH', 1, 'digraph'], ['ch', 'CH', 1, 'digraph'], ['ch', 'K', 1.3, 'digraph'], ['ch', 'SH', 1.5, 'digraph'],
  ['th', 'TH', 1, 'digraph'], ['th', 'DH', 1, 'digraph'], ['th', 'T', 2, 'digraph'],
  ['ph', 'F', 1, 'digraph'], ['ph', 'V', 2, 'digraph'],
  ['wh', 'W', 1, 'digraph'], ['wh', 'HH', 1.3, 'digraph'],
  ['ck', 'K', 1, 'digraph'], ['ng', 'NG', 1, 'digraph'], ['tch', 'CH', 1, 'digraph'], ['dge', 'JH', 1, 'digraph'],
  ['dg', 'JH', 1.2],
  // a consonant with a silent partner
  ['kn', 'N', 1, 'plain', [0], 'start'], ['wr', 'R', 1, 'plain', [0], 'start'], ['gn', 'N', 1.3, 'plain', [0]],
  ['mb', 'M', 1.3, 'plain', [1]], ['mn', 'M', 1.8, 'plain', [1], 'end'], ['sc', 'S', 1.5, 'plain', [1], 'start'],
  ['rh', 'R', 1.5, 'plain', [1]], ['gh', 'HH', 2.5, 'plain', [1]],
  // ---- single vowels ----
  ['a', 'AE', 1], ['a', 'EY', 1], ['a', 'AH', 1.2], ['a', 'AA', 1.3], ['a', 'AO', 1.5], ['a', 'EH', 2], ['a', 'IH', 2],
  ['a', 'ER', 2.5], ['a', 'EY AH', 2.5],
  ['e', 'EH', 1], ['e', 'IY', 1], ['e', 'IH', 1.2], ['e', 'AH', 1.2], ['e', 'EY', 2], ['e', 'ER', 2.5], ['e', 'Y', 2.5],
  ['i', 'IH', 1], ['i', 'AY', 1], ['i', 'IY', 1.5], ['i', 'AH', 1.3], ['i', 'Y', 2], ['i', 'ER', 2.5],
  ['o', 'AA', 1], ['o', 'OW', 1], ['o', 'AH', 1.2], ['o', 'AO', 1.2], ['o', 'UW', 1.5], ['o', 'UH', 1.8], ['o', 'IH', 2.5],
  ['o', 'W AH', 2.5], ['o', 'ER', 2.5],
  ['u', 'AH', 1], ['u', 'UW', 1], ['u', 'Y UW', 1.2], ['u', 'UH', 1.2], ['u', 'Y UH', 1.5], ['u', 'Y AH', 1.8],
  ['u', 'IH', 2], ['u', 'EH', 2.5], ['u', 'W', 2], ['u', 'ER', 2.5],
  ['y', 'IY', 1], ['y', 'AY', 1], ['y', 'IH', 1.2], ['y', 'AH', 2.5],
  // ---- vowel teams ----
  ['ai', 'EY', 1, 'team'], ['ai', 'EH', 2, 'team'], ['ai', 'AH', 2, 'team'], ['ai', 'IH', 2, 'team'], ['ay', 'EY', 1, 'team'],
  ['ay', 'IY', 2, 'team'],
  ['ee', 'IY', 1, 'team'], ['ee', 'IH', 1.5, 'team'], ['ea', 'IY', 1, 'team'], ['ea', 'EH', 1, 'team'], ['ea', 'EY', 1.5, 'team'],
  ['oa', 'OW', 1, 'team'], ['oa', 'AO', 1.5, 'team'], ['oe', 'OW', 1, 'team'], ['oe', 'UW', 1.5, 'team'],
  ['ow', 'OW', 1, 'team'], ['ow', 'AW', 1, 'team'],
  ['ou', 'AW', 1, 'team'], ['ou', 'UW', 1.2, 'team'], ['ou', 'AH', 1.2, 'team'], ['ou', 'UH', 1.5, 'team'], ['ou', 'OW', 1.5, 'team'],
  ['ou', 'AO', 2, 'team'],
  ['oo', 'UW', 1, 'team'], ['oo', 'UH', 1, 'team'], ['oo', 'AH', 1.5, 'team'], ['oo', 'OW', 2, 'team'],
  ['ue', 'UW', 1, 'team'], ['ue', 'Y UW', 1.2, 'team'], ['ui', 'UW', 1.2, 'team'], ['ui', 'IH', 2, 'team'],
  ['ew', 'UW', 1, 'team'], ['ew', 'Y UW', 1.2, 'team'], ['ew', 'OW', 2, 'team'],
  ['ie', 'IY', 1, 'team'], ['ie', 'AY', 1, 'team'], ['ie', 'IH', 2, 'team'], ['ei', 'EY', 1, 'team'], ['ei', 'IY', 1.2, 'team'],
  ['ei', 'AY', 1.5, 'team'], ['ey', 'EY', 1, 'team'], ['ey', 'IY', 1, 'team'],
  ['oi', 'OY', 1, 'team'], ['oy', 'OY', 1, 'team'],
  ['au', 'AO', 1, 'team'], ['au', 'AA', 1.2, 'team'], ['aw', 'AO', 1, 'team'], ['aw', 'AA', 1.2, 'team'],
  ['igh', 'AY', 1, 'team'], ['eigh', 'EY', 1, 'team'], ['eigh', 'AY', 1.5, 'team'], ['augh', 'AO', 1, 'team'], ['aigh', 'EY', 1.5, 'team'],
  ['ough', 'AO', 1, 'team'], ['ough', 'OW', 1.2, 'team'], ['ough', 'UW', 1.2, 'team'], ['ough', 'AW', 1.5, 'team'],
  ['ough', 'AH F', 1.5, 'team'], ['ough', 'AO F', 1.5, 'team'], ['augh', 'AE F', 2, 'team'],
  ['eau', 'OW', 1.5, 'team'], ['eo', 'IY', 2, 'team'], ['uy', 'AY', 1.5, 'team'], ['ye', 'AY', 1.5, 'team', [], 'end'],
  // ---- r-controlled vowels (vowel + r). A unit ending in the consonant R may not stand before a vowel sound. ----
  ['ar', 'AA R', 1, 'r'], ['ar', 'ER', 1.2, 'r'], ['ar', 'AO R', 1.2, 'r'], ['ar', 'EH R', 1.2, 'r'],
  ['er', 'ER', 1, 'r'], ['er', 'EH R', 1.2, 'r'], ['er', 'IH R', 1.2, 'r'], ['er', 'IY R', 1.2, 'r'],
  ['ir', 'ER', 1, 'r'], ['ir', 'AY ER', 1.2, 'r'], ['ir', 'AY R', 1.2, 'r'], ['ir', 'IH R', 1.5, 'r'],
  ['or', 'AO R', 1, 'r'], ['or', 'ER', 1.2, 'r'], ['or', 'OW R', 1.2, 'r'],
  ['ur', 'ER', 1, 'r'], ['ur', 'UH R', 1.3, 'r'], ['ur', 'Y UH R', 1.3, 'r'], ['ur', 'Y ER', 1.5, 'r'],
  ['yr', 'ER', 1.5, 'r'], ['yr', 'AY ER', 1.5, 'r'],
  ['ear', 'ER', 1, 'r'], ['ear', 'IH R', 1, 'r'], ['ear', 'EH R', 1.2, 'r'], ['ear', 'AA R', 1.5, 'r'],
  ['ear', 'IY R', 1.2, 'r'], ['air', 'EH R', 1, 'r'], ['eer', 'IH R', 1, 'r'], ['eer', 'IY R', 1.2, 'r'], ['ier', 'IH R', 1.5, 'r'], ['oar', 'AO R', 1, 'r'],
  ['our', 'AW ER', 1, 'r'], ['our', 'AW R', 1.2, 'r'], ['our', 'AO R', 1, 'r'], ['our', 'ER', 1.2, 'r'], ['our', 'UH R', 1.5, 'r'],
  ['oor', 'AO R', 1, 'r'], ['oor', 'UH R', 1, 'r'],
  ['urr', 'ER', 1.2, 'r'], ['irr', 'ER', 1.2, 'r'], ['orr', 'ER', 1.2, 'r'], ['err', 'ER', 1.5, 'r'],
  // the dictionary's a-rrive (ER AY V): no r-controlled vowel, so no cue
  ['arr', 'ER', 2],
  // ---- endings ----
  ['le', 'AH L', 1, 'le', [], 'endOrS'],
  ['ed', 'T', 1, 'ed', [], 'end'], ['ed', 'D', 1, 'ed', [], 'end'], ['ed', 'IH D', 1, 'ed', [], 'end'], ['ed', 'AH D', 1, 'ed', [], 'end'],
  // ---- silent letters ----
  ['e', '', 0.6, 'plain', [0], 'endOrS'], ['e', '', 1.6, 'plain', [0], 'notStart'],
  ['h', '', 2.5], ['w', '', 2.5], ['b', '', 2.5], ['t', '', 2.5], ['l', '', 2.5], ['k', '', 3], ['g', '', 3], ['d', '', 3],
  ['n', '', 3], ['p', '', 3], ['c', '', 3], ['s', '', 3.2], ['u', '', 2.5], ['a', '', 3], ['i', '', 3], ['o', '', 3],
  ['gh', '', 2.5], ['ue', '', 2.5, 'plain', [0, 1], 'end'],
  // an apostrophe sounds nothing and is no cue
  ["'", '', 0],
];

export const UNITS: readonly SpellingUnit[] = ROWS.map(([letters, phones, cost, kind = 'plain', silent, at = 'any']) => {
  const ph = phones ? phones.split(' ') : [];
  return {
    letters,
    phones: ph,
    cost,
    kind,
    // Every letter of a soundless unit is silent, except an apostrophe, which is no letter at all.
    silent: ph.length === 0 && letters !== "'" ? [...letters].map((_, i) => i) : (silent ?? []),
    at,
  };
});

/** Units by first letter, for the aligner. */
export const UNITS_BY_FIRST: ReadonlyMap<string, readonly SpellingUnit[]> = (() => {
  const map = new Map<string, SpellingUnit[]>();
  for (const u of UNITS) {
    const list = map.get(u.letters[0]) ?? [];
    list.push(u);
    map.set(u.letters[0], list);
  }
  return map;
})();

/** The consonant digraphs and trigraphs decode mode marks. */
export const CUE_DIGRAPHS = new Set(['sh', 'ch', 'th', 'ph', 'wh', 'ck', 'ng', 'tch', 'dge']);
