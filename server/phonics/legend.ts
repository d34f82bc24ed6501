/**
 * What decode mode shows, in words: the legend of its cue classes and the tooltips of its control (SPEC §8).
 * The reader can show these beside the text; docs/phonics.md explains each cue.
 */
import { DECODE_CLASSES } from './markup';

/** The decode control's tooltip when the edition has no decode mode (SPEC §8). */
export const DECODE_NOT_AVAILABLE = 'Decode Mode not available';
/** The phonics note (SPEC §8): decode mode visually reinforces phonics and is English only. Our wording. */
export const DECODE_PHONICS_NOTE = 'Decode Mode visually reinforces phonics. Available for English passages only.';

export interface LegendEntry {
  /** The class on the marked letters (or word, or syllable). */
  className: string;
  label: string;
  description: string;
  example: string;
}

export const DECODE_LEGEND: readonly LegendEntry[] = [
  { className: DECODE_CLASSES.syllable, label: 'Syllables', description: 'Each beat of the word, split by how it sounds.', example: 'ti·ger, rab·bit' },
  { className: DECODE_CLASSES.digraph, label: 'Two letters, one sound', description: 'Consonant digraphs: sh, ch, th, ph, wh, ck, ng, and tch, dge.', example: 'ship, duck, catch' },
  { className: DECODE_CLASSES.team, label: 'Vowel team', description: 'Vowels that work together to make one sound.', example: 'rain, boat, night' },
  { className: DECODE_CLASSES.r, label: 'Bossy r', description: 'An r-controlled vowel: the r changes the vowel’s sound.', example: 'car, bird, fur' },
  { className: DECODE_CLASSES.silent, label: 'Silent letter', description: 'A letter you see but do not say, like the final silent e.', example: 'cake, knee, lamb' },
  { className: DECODE_CLASSES.cle, label: 'Consonant + le', description: 'A last syllable of a consonant and le.', example: 'ta·ble, lit·tle' },
  { className: DECODE_CLASSES.heart, label: 'Heart word', description: 'A word to learn by heart: it does not follow the usual rules.', example: 'said, one, of' },
];
