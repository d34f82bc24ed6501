/**
 * One passage as EPUB markup: its paragraphs with a span and an id on every sentence and, where the speech marks
 * give them, on every spoken word; and the sentence fragments with the clip of the narration that speaks each.
 *
 * Offsets line up with the speech-mark contract (docs/narration.md): the passage's plain text is
 * `passagePlainText(text)`, its paragraphs joined by '\n', and a mark's `offset` is a JavaScript string index into
 * it. The paragraphs here are cut from the same HTML the same way, so a sentence's character range holds exactly
 * the words whose marks fall in it. Inline *emphasis* and **strong** are kept, closed and reopened at each span
 * edge so the markup stays well formed.
 */
import { passagePlainText } from '../../src/domain/sanitize';
import type { SpeechMark } from '../narration/speechMarks';
import { xmlAttr, xmlText } from './xml';

const EM = 1;
const STRONG = 2;

/** A paragraph of the plain text: its characters, each one's inline formatting, and where it starts. */
interface Paragraph {
  text: string;
  formats: number[];
  start: number;
}

/** The entities a passage's HTML carries, decoded in src/domain/sanitize.ts's order (&amp; last). */
function decode(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** One `<p>…` chunk of passage HTML as characters with formatting, before trimming. */
function chunkCharacters(chunk: string): { text: string; formats: number[] } {
  let text = '';
  const formats: number[] = [];
  let em = 0;
  let strong = 0;
  const push = (piece: string) => {
    const format = (em > 0 ? EM : 0) | (strong > 0 ? STRONG : 0);
    text += piece;
    for (let i = 0; i < piece.length; i++) formats.push(format);
  };
  for (const token of chunk.split(/(<[^>]*>)/)) {
    if (!token) continue;
    const tag = /^<\s*(\/?)\s*([a-z0-9]+)/i.exec(token);
    if (!token.startsWith('<') || !token.endsWith('>') || !tag) {
      push(decode(token));
      continue;
    }
    const closing = tag[1] === '/';
    const name = tag[2].toLowerCase();
    if (name === 'br') push(' ');
    else if (name === 'em' || name === 'i') em = Math.max(0, em + (closing ? -1 : 1));
    else if (name === 'strong' || name === 'b') strong = Math.max(0, strong + (closing ? -1 : 1));
  }
  return { text, formats };
}

/** The passage's paragraphs, cut as passagePlainText cuts them. */
export function paragraphsOf(html: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let start = 0;
  for (const chunk of html.split(/<\/p>/i)) {
    const { text, formats } = chunkCharacters(chunk);
    const trimmed = text.trim();
    if (!trimmed) continue;
    const lead = text.length - text.trimStart().length;
    paragraphs.push({ text: trimmed, formats: formats.slice(lead, lead + trimmed.length), start });
    start += trimmed.length + 1;
  }
  // Markup this walk does not know would shift offsets: then the plain paragraphs, without formatting.
  if (paragraphs.map((p) => p.text).join('\n') !== passagePlainText(html)) {
    start = 0;
    return passagePlainText(html)
      .split('\n')
      .map((text) => {
        const p = { text, formats: new Array<number>(text.length).fill(0), start };
        start += text.length + 1;
        return p;
      });
  }
  return paragraphs;
}

/** A sentence that narration speaks: its element id and the clip of the passage's MP3, in ms. */
export interface SpokenFragment {
  id: string;
  clipBeginMs: number;
  clipEndMs: number;
}

export interface PassageMarkup {
  /** The paragraphs as XHTML (`<p>` elements). */
  xhtml: string;
  /** The spoken sentences in reading order; empty without narration. */
  fragments: SpokenFragment[];
}

export interface PassageMarkupInput {
  /** The passage's HTML paragraphs (passages.text). */
  html: string;
  position: number;
  /** The Intl.Segmenter locale of the edition's language. */
  locale: string;
  narration?: { speechMarks: readonly SpeechMark[]; durationMs: number } | null;
}

/** Text with its formatting runs, escaped. */
function formatted(p: Paragraph, from: number, to: number): string {
  let out = '';
  let i = from;
  while (i < to) {
    const format = p.formats[i];
    let j = i + 1;
    while (j < to && p.formats[j] === format) j++;
    let piece = xmlText(p.text.slice(i, j));
    if (format & EM) piece = `<em>${piece}</em>`;
    if (format & STRONG) piece = `<strong>${piece}</strong>`;
    out += piece;
    i = j;
  }
  return out;
}

/** Sentence ids are `s<position>-<n>` and word ids `w<position>-<n>`: stable for a given text and its marks. */
export function sentenceId(position: number, n: number): string {
  return `s${position}-${n}`;
}
export function wordId(position: number, n: number): string {
  return `w${position}-${n}`;
}

/** The passage's paragraphs with sentence and word spans, and its spoken fragments. */
export function passageMarkup(input: PassageMarkupInput): PassageMarkup {
  const paragraphs = paragraphsOf(input.html);
  const plain = paragraphs.map((p) => p.text).join('\n');
  const marks = input.narration?.speechMarks ?? [];
  const wordSegmenter = new Intl.Segmenter(input.locale, { granularity: 'word' });
  const sentenceSegmenter = new Intl.Segmenter(input.locale, { granularity: 'sentence' });

  // Each mark's word: the word-like segment starting at its offset (the contract says one starts there).
  const wordEnd = new Map<number, number>();
  for (const segment of wordSegmenter.segment(plain)) {
    if (segment.isWordLike) wordEnd.set(segment.index, segment.index + segment.segment.length);
  }
  const words = marks.map((mark, i) => ({ id: wordId(input.position, i + 1), start: mark.offset, end: wordEnd.get(mark.offset) ?? mark.offset + 1, time: mark.time }));

  const sentences: { id: string; firstMark: number | null }[] = [];
  let markAt = 0;
  let xhtml = '';
  for (const p of paragraphs) {
    let body = '';
    for (const s of sentenceSegmenter.segment(p.text)) {
      const from = p.start + s.index;
      const to = from + s.segment.length;
      const id = sentenceId(input.position, sentences.length + 1);
      while (markAt < words.length && words[markAt].start < from) markAt++;
      const first = markAt < words.length && words[markAt].start < to ? markAt : null;
      sentences.push({ id, firstMark: first });
      let inner = '';
      let at = from;
      while (markAt < words.length && words[markAt].start < to) {
        const w = words[markAt];
        const end = Math.min(w.end, to);
        inner += formatted(p, at - p.start, w.start - p.start);
        inner += `<span id="${xmlAttr(w.id)}">${formatted(p, w.start - p.start, end - p.start)}</span>`;
        at = end;
        markAt++;
      }
      inner += formatted(p, at - p.start, to - p.start);
      body += `<span class="sentence" id="${xmlAttr(id)}">${inner}</span>`;
    }
    xhtml += `<p>${body}</p>\n`;
  }

  const fragments: SpokenFragment[] = [];
  if (input.narration && marks.length) {
    const spoken = sentences.filter((s) => s.firstMark !== null) as { id: string; firstMark: number }[];
    spoken.forEach((s, i) => {
      const next = spoken[i + 1];
      const clipBeginMs = marks[s.firstMark].time;
      const clipEndMs = next ? marks[next.firstMark].time : input.narration!.durationMs;
      if (clipEndMs > clipBeginMs) fragments.push({ id: s.id, clipBeginMs, clipEndMs });
    });
  }
  return { xhtml, fragments };
}
