/**
 * Plain-text offsets to DOM ranges in a rendered passage. Speech-mark offsets index into
 * `passagePlainText(passage.text)` (src/domain/sanitize.ts): each paragraph's text, trimmed, joined by '\n', with
 * <br> read as a space. This walks the rendered element the same way, so an offset finds its text node without
 * the DOM being changed; `offsetOf` goes back, from a DOM position (a tap's caret) to the plain text.
 */
import { wordSpans } from '../../../domain/speechMarks';

interface Piece {
  /** The text node, or null for a <br> (one space in the plain text). */
  node: Text | null;
  /** Where this piece starts in the plain text, and its length there. */
  start: number;
  length: number;
  /** Characters of the node skipped before the piece starts (leading whitespace of a paragraph). */
  skip: number;
}

export interface PassageTextMap {
  /** The plain text as rebuilt from the DOM (equal to passagePlainText of the rendered HTML). */
  text: string;
  /** A DOM range for [start, end) of the plain text, or null when it cannot be placed. */
  range(start: number, end: number): Range | null;
  /**
   * The plain-text offset of a DOM position: `nodeOffset` characters into the text node `node` (the inverse of
   * `range`). Null when the node is not one of the passage's text nodes, or the position lies in whitespace the
   * plain text leaves out (around a paragraph).
   */
  offsetOf(node: Node, nodeOffset: number): number | null;
}

export function mapPassageText(root: HTMLElement): PassageTextMap {
  // Chunks mirror passagePlainText's split at each </p>.
  const chunks: { node: Text | null; text: string }[][] = [[]];
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === Node.TEXT_NODE) chunks[chunks.length - 1].push({ node: child as Text, text: (child as Text).data });
      else if (child.nodeType === Node.ELEMENT_NODE) {
        const tag = (child as Element).tagName;
        if (tag === 'BR') chunks[chunks.length - 1].push({ node: null, text: ' ' });
        else walk(child);
        if (tag === 'P') chunks.push([]);
      }
    }
  };
  walk(root);

  const pieces: Piece[] = [];
  const parts: string[] = [];
  let base = 0;
  for (const chunk of chunks) {
    const full = chunk.map((p) => p.text).join('');
    const trimmed = full.trim();
    if (!trimmed) continue;
    if (parts.length) base += 1; // the '\n' between paragraphs
    const lead = full.length - full.trimStart().length;
    let at = 0; // position in `full`
    for (const p of chunk) {
      const from = Math.max(at, lead);
      const to = Math.min(at + p.text.length, lead + trimmed.length);
      if (to > from) pieces.push({ node: p.node, start: base + (from - lead), length: to - from, skip: from - at });
      at += p.text.length;
    }
    parts.push(trimmed);
    base += trimmed.length;
  }
  const text = parts.join('\n');

  const find = (offset: number, isEnd: boolean): [Node, number] | null => {
    for (const p of pieces) {
      if (!p.node) continue;
      const inside = isEnd ? offset > p.start && offset <= p.start + p.length : offset >= p.start && offset < p.start + p.length;
      if (inside) return [p.node, p.skip + (offset - p.start)];
    }
    return null;
  };

  return {
    text,
    range(start, end) {
      if (end <= start) return null;
      const a = find(start, false);
      const b = find(end, true);
      if (!a || !b) return null;
      const range = document.createRange();
      range.setStart(a[0], a[1]);
      range.setEnd(b[0], b[1]);
      return range;
    },
    offsetOf(node, nodeOffset) {
      for (const p of pieces) {
        if (p.node !== node) continue;
        const at = nodeOffset - p.skip;
        if (at >= 0 && at <= p.length) return p.start + at;
      }
      return null;
    },
  };
}

/**
 * The offset in `to` of the word that has, among the words of `to`, the place the word at `offset` has among the
 * words of `from` (src/domain/speechMarks.ts wordSpans); `offset` itself when the two texts are the same. For a
 * rendering whose text is not the passage's plain text (decoded markup that differs): the tapped word's ordinal
 * finds the passage's word. Null when `offset` is on no word, or `to` has fewer words.
 */
export function mapWordOffset(from: string, to: string, locale: string, offset: number): number | null {
  if (from === to) return offset;
  const words = wordSpans(from, locale);
  const index = words.findIndex((w) => offset >= w.start && offset < w.end);
  if (index < 0) return null;
  return wordSpans(to, locale)[index]?.start ?? null;
}
