/**
 * Decode mode as the reader shows it (SPEC §4 Decode, §8 Tooltips; docs/phonics.md): the classes of the decoded
 * markup the server emits, the legend of those cues, and the allow-list that lets exactly that markup through.
 * The server's phonics code imports the legend from here, so the reader and the server cannot disagree.
 */
import { createAllowListFilter } from './allowListHtml';

/** Every class the decoder puts on its spans (server/phonics/markup.ts emits these). */
export const DECODE_CLASSES = {
  word: 'dc-word',
  heart: 'dc-heart',
  syllable: 'dc-syl',
  cle: 'dc-cle',
  digraph: 'dc-digraph',
  team: 'dc-team',
  r: 'dc-r',
  silent: 'dc-silent',
  silentE: 'dc-silent-e',
} as const;

const KNOWN = new Set<string>(Object.values(DECODE_CLASSES));

export interface LegendEntry {
  /** The class on the marked letters (or word, or syllable). */
  className: string;
  label: string;
  description: string;
  example: string;
}

/** The legend shown beside decoded text. */
export const DECODE_LEGEND: readonly LegendEntry[] = [
  { className: DECODE_CLASSES.syllable, label: 'Syllables', description: 'Each beat of the word, split by how it sounds.', example: 'ti·ger, rab·bit' },
  { className: DECODE_CLASSES.digraph, label: 'Two letters, one sound', description: 'Consonant digraphs: sh, ch, th, ph, wh, ck, ng, and tch, dge.', example: 'ship, duck, catch' },
  { className: DECODE_CLASSES.team, label: 'Vowel team', description: 'Vowels that work together to make one sound.', example: 'rain, boat, night' },
  { className: DECODE_CLASSES.r, label: 'Bossy r', description: 'An r-controlled vowel: the r changes the vowel’s sound.', example: 'car, bird, fur' },
  { className: DECODE_CLASSES.silent, label: 'Silent letter', description: 'A letter you see but do not say, like the final silent e.', example: 'cake, knee, lamb' },
  { className: DECODE_CLASSES.cle, label: 'Consonant + le', description: 'A last syllable of a consonant and le.', example: 'ta·ble, lit·tle' },
  { className: DECODE_CLASSES.heart, label: 'Heart word', description: 'A word to learn by heart: it does not follow the usual rules.', example: 'said, one, of' },
];

/**
 * Decoded passage HTML through the passage allow-list plus `<span class="dc-…">`: p, em, strong and br without
 * attributes, and span with only the decoder's classes (any other class is dropped). Script and style go with
 * their content; other tags go, their text stays.
 */
const decodedFilter = createAllowListFilter({
  tags: {
    p: null,
    em: null,
    strong: null,
    br: null,
    // A span keeps the decoder's own classes and nothing else.
    span: (attributes) => {
      const classes = (attributes.get('class') ?? '').split(/\s+/).filter((c) => KNOWN.has(c));
      return classes.length ? `class="${classes.join(' ')}"` : '';
    },
  },
  dropWithContent: ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript'],
});

export function sanitizeDecodedHtml(html: string): string {
  return decodedFilter(html).trim();
}
