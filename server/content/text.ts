/** Text helpers for the content pipeline: inline markup, escaping and word statistics. */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Escape a paragraph and apply the two inline marks the format allows: **strong** and *emphasis*. */
export function renderInline(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(?=\S)(.+?)(?<=\S)\*\*/g, '<strong>$1</strong>')
    .replace(/\*(?=\S)(.+?)(?<=\S)\*/g, '<em>$1</em>');
}

/** The plain words of a text, using the language's word segmentation (so Chinese splits into words). */
export function segmentWords(text: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
  const out: string[] = [];
  for (const seg of segmenter.segment(text)) if (seg.isWordLike) out.push(seg.segment);
  return out;
}

export function wordStats(texts: readonly string[], language: string): { totalWords: number; uniqueWords: number } {
  let totalWords = 0;
  const unique = new Set<string>();
  for (const text of texts) {
    for (const word of segmentWords(text, language)) {
      totalWords++;
      unique.add(word.toLocaleLowerCase(language));
    }
  }
  return { totalWords, uniqueWords: unique.size };
}
