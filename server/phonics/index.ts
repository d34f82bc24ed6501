/**
 * Decode mode for English passages (SPEC §4 Decode): `decodeText(passage)` gives the passage as markup whose
 * spans carry phonics cues. The CMU dictionary is loaded on first use.
 */
import { WordAnalyzer } from './analyze';
import { loadDictionary } from './cmu';
import { decodeMarkup } from './markup';

export { WordAnalyzer, notation, type Cue, type Syllable, type WordAnalysis } from './analyze';
export { loadDictionary } from './cmu';
export { DECODE_CLASSES, decodeMarkup, looksLikeHtml, stripDecodeMarkup } from './markup';
export { DECODE_LEGEND, DECODE_NOT_AVAILABLE, DECODE_PHONICS_NOTE } from './legend';
export { HEART_WORDS } from './heartWords';

let analyzer: Promise<WordAnalyzer> | null = null;

/** The shared analyzer (its word cache is shared too). */
export function wordAnalyzer(): Promise<WordAnalyzer> {
  analyzer ??= loadDictionary().then(
    (dict) => new WordAnalyzer(dict),
    (error: unknown) => {
      analyzer = null;
      throw error;
    },
  );
  return analyzer;
}

/**
 * Decode markup for a passage, given as its HTML paragraphs or as plain text ('auto': HTML if it has a tag or an
 * entity).
 */
export async function decodeText(passage: string, format: 'auto' | 'html' | 'text' = 'auto'): Promise<string> {
  return decodeMarkup(passage, await wordAnalyzer(), format);
}
