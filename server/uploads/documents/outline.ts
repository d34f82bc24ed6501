/**
 * What every document reader produces: a flat list of headings and paragraphs in reading order. toUploadSource
 * writes it in the Markdown the text uploads use (server/uploads/split.ts), so a document goes through the same
 * splitting, parsing, sanitizing and narration as a .txt or .md file.
 */
import { attr, collapse, isElement, textOf, type DomElement } from './dom';

export type Block =
  | { kind: 'heading'; level: number; text: string; fromText?: boolean }
  | { kind: 'paragraph'; text: string };

/** Elements that hold no reading text. */
const SKIPPED = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'math', 'audio', 'video', 'object', 'iframe', 'button', 'select', 'input', 'textarea']);
/** Pictures: left out, and counted for the upload's notes. */
const PICTURES = new Set(['img', 'svg', 'image']);
/** Elements that end the paragraph before them and start a new one. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'figcaption', 'figure',
  'footer', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot',
  'th', 'thead', 'tr', 'ul',
]);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

export interface CollectOptions {
  /** Blocks to put in front of the element with this id (an EPUB's navigation points into the text). */
  anchor?: (id: string) => Block[] | undefined;
  /** Counts the pictures left out. */
  pictures: { count: number };
}

/** The headings and paragraphs under `root`, in document order. */
export function collectBlocks(root: DomElement, options: CollectOptions): Block[] {
  const blocks: Block[] = [];
  let line: string[] = [];
  const flush = () => {
    const text = collapse(line.join(''));
    line = [];
    if (text) blocks.push({ kind: 'paragraph', text });
  };
  const walk = (element: DomElement) => {
    const id = attr(element, 'id') ?? (element.name === 'a' ? attr(element, 'name') : undefined);
    const anchored = id ? options.anchor?.(id) : undefined;
    if (anchored?.length) {
      flush();
      blocks.push(...anchored);
    }
    if (SKIPPED.has(element.name)) return;
    // An EPUB's page-break markers and note references, and mammoth's footnote marks and back-links, are not text.
    const types = (attr(element, 'type') ?? '').split(/\s+/);
    if (types.includes('pagebreak') || types.includes('noteref')) return;
    if (element.name === 'a' && /^#(footnote|endnote)/.test(attr(element, 'href') ?? '')) return;
    if (PICTURES.has(element.name)) {
      options.pictures.count++;
      return;
    }
    if (element.name === 'br') {
      line.push(' ');
      return;
    }
    const level = HEADINGS[element.name];
    if (level) {
      flush();
      const text = textOf(element);
      if (text) blocks.push({ kind: 'heading', level, text, fromText: true });
      return;
    }
    const block = BLOCKS.has(element.name);
    if (block) flush();
    for (const child of element.children) {
      if (isElement(child)) walk(child);
      else line.push(child);
    }
    if (block) flush();
  };
  walk(root);
  flush();
  return blocks;
}

const sameText = (a: string, b: string) => collapse(a).toLocaleLowerCase() === collapse(b).toLocaleLowerCase();

/**
 * When a navigation document gave the sections, the text's own headings are not sections: one that repeats a
 * section placed since the last paragraph (a part and its first chapter are placed together) is dropped, any
 * other stays as a paragraph.
 */
export function demoteTextHeadings(blocks: Block[]): Block[] {
  const out: Block[] = [];
  let placed: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading' && !block.fromText) {
      placed.push(block.text);
      out.push(block);
    } else if (block.kind === 'heading') {
      if (placed.some((name) => sameText(name, block.text))) continue;
      placed = [];
      out.push({ kind: 'paragraph', text: block.text });
    } else {
      placed = [];
      out.push(block);
    }
  }
  return out;
}

/** Paragraph text the upload parser would otherwise read as markup: a heading, image or comment line, or emphasis. */
function literal(text: string): string {
  // U+2217 looks like an asterisk but is not emphasis; U+2060 (an invisible word joiner) keeps a line from
  // starting with '#', '![' or '<!--'.
  const plain = text.split('*').join('\u2217');
  return plain.startsWith('#') || plain.startsWith('![') || plain.startsWith('<!--') ? `\u2060${plain}` : plain;
}

/** A paragraph with no letters or digits: a scene break such as '* * *'. */
function isOrnament(text: string): boolean {
  return !/[\p{L}\p{N}]/u.test(text);
}

/**
 * The blocks as upload Markdown. When the document uses more than one heading level, its top level becomes parts
 * (`#`) and every deeper level sections (`##`); with one level, every heading is a section. A paragraph that is
 * exactly `---` marks a passage break, as in a text file. Headings with no text after them are dropped.
 */
export function toUploadSource(blocks: readonly Block[]): string {
  const levels = [...new Set(blocks.flatMap((b) => (b.kind === 'heading' ? [b.level] : [])))];
  const top = Math.min(...levels);
  const lines: string[] = [];
  let pendingHeadings: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const name = collapse(block.text);
      if (name) pendingHeadings.push(`${levels.length > 1 && block.level === top ? '#' : '##'} ${literal(name)}`);
      continue;
    }
    const text = collapse(block.text);
    if (text === '---') {
      lines.push('---');
      continue;
    }
    if (isOrnament(text)) continue;
    lines.push(...pendingHeadings, literal(text));
    pendingHeadings = [];
  }
  return lines.join('\n\n');
}

/** Whether the blocks hold any text to read. */
export const hasText = (blocks: readonly Block[]) => blocks.some((b) => b.kind === 'paragraph' && !isOrnament(collapse(b.text)));
