/**
 * Splits a teacher's text into passages (docs/content-format.md, "Uploads"). The result is always an edition in
 * the library's own Markdown format, parsed by server/content/parse.ts, so the rules for headings, paragraphs,
 * comments and passage length live in one place:
 *  - a text with `---` lines is split exactly there (the author chose the passages);
 *  - otherwise blank-line paragraphs are grouped into passages of about PASSAGE_TARGET_WORDS, never more than
 *    PASSAGE_MAX_WORDS (a longer paragraph is cut at sentence ends), and a `#` or `##` heading starts a passage.
 */
import { parseEditionFile, type ParsedEdition } from '../content/parse';
import { segmentWords } from '../content/text';
import type { LanguageCode } from '../../src/domain/languages';

/** A passage is closed once it holds this many words (and the next paragraph would not fit). @default 60 */
export const PASSAGE_MIN_WORDS = 60;
/** A passage grows past PASSAGE_MIN_WORDS only up to this many words. @default 150 */
export const PASSAGE_MAX_WORDS = 150;

export type SplitResult = { ok: true; edition: ParsedEdition } | { ok: false; reasons: string[] };

const MARKER_RE = /^\s*---\s*$/m;
const HEADING_RE = /^#{1,6}(\s|$)/;
const SENTENCE_END_RE = /(?<=[.!?。！？؟۔…]["'”’)\]]*)\s+/u;

const countWords = (text: string, language: LanguageCode) => segmentWords(text, language).length;

/** Cut a paragraph longer than PASSAGE_MAX_WORDS at sentence ends (or, for one endless sentence, at words). */
function cutParagraph(paragraph: string, language: LanguageCode): string[] {
  if (countWords(paragraph, language) <= PASSAGE_MAX_WORDS) return [paragraph];
  const pieces: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const sentence of paragraph.split(SENTENCE_END_RE)) {
    const n = countWords(sentence, language);
    if (n > PASSAGE_MAX_WORDS) {
      if (current.length) pieces.push(current.join(' '));
      current = [];
      words = 0;
      const tokens = sentence.split(/\s+/);
      for (let i = 0; i < tokens.length; i += PASSAGE_MAX_WORDS) pieces.push(tokens.slice(i, i + PASSAGE_MAX_WORDS).join(' '));
      continue;
    }
    if (words > 0 && words + n > PASSAGE_MAX_WORDS) {
      pieces.push(current.join(' '));
      current = [];
      words = 0;
    }
    current.push(sentence);
    words += n;
  }
  if (current.length) pieces.push(current.join(' '));
  return pieces;
}

/** Group paragraphs into passages and write them in the edition format (`---` between passages). */
export function groupIntoPassages(text: string, language: LanguageCode): string {
  const blocks = text
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  const passages: string[][] = [];
  let current: string[] = [];
  let words = 0;
  const flush = () => {
    if (current.some((b) => !HEADING_RE.test(b))) passages.push(current);
    else if (current.length) return; // headings only so far: keep them for the next text
    current = [];
    words = 0;
  };
  for (const block of blocks) {
    const lines = block.split('\n').map((l) => l.trim());
    // Headings at the top of a block start a new passage; the rest of the block is a paragraph.
    const headings: string[] = [];
    while (lines.length && HEADING_RE.test(lines[0])) headings.push(lines.shift()!);
    if (headings.length) {
      flush();
      current.push(...headings);
    }
    if (!lines.length) continue;
    for (const paragraph of cutParagraph(lines.join(' '), language)) {
      const n = countWords(paragraph, language);
      if (words > 0 && (words >= PASSAGE_MIN_WORDS || words + n > PASSAGE_MAX_WORDS)) flush();
      current.push(paragraph);
      words += n;
    }
  }
  if (current.length) passages.push(current);
  // A heading is its own line, directly above the passage's first paragraph (parse.ts reads it as a heading).
  return passages.map((blocksOf) => blocksOf.join('\n\n').replace(/^(#{1,6}[^\n]*)\n\n/gm, '$1\n')).join('\n\n---\n\n');
}

/** Split an upload into an edition; the reasons are parse.ts's, without a file name. */
export function splitUpload(text: string, language: LanguageCode): SplitResult {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const source = MARKER_RE.test(normalized) ? normalized : groupIntoPassages(normalized, language);
  const parsed = parseEditionFile('upload', source, language, 'ORIGINAL', () => false);
  if (!parsed.value) {
    const reasons = parsed.problems.map((p) => (MARKER_RE.test(normalized) ? `Line ${p.line}: ${p.reason}` : p.reason));
    return { ok: false, reasons };
  }
  return { ok: true, edition: parsed.value };
}
