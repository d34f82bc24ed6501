/**
 * The small Markdown subset of the legal texts (`content/legal/*.md`): `#`–`###` headings, paragraphs, `-` lists,
 * `**strong**`, `*emphasis*`, `` `code` `` and `[text](href)` links. It parses to plain data, never to HTML, so the view renders
 * React elements and nothing in the text can inject markup. A link keeps only a same-origin path (`/…`), an
 * `https:` address or a `mailto:` address; any other target is shown as its text alone.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'em'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; items: Inline[][] };

/** A link target the legal pages may use: a same-origin path, an https address or a mailto address. */
export function isSafeHref(href: string): boolean {
  if (/^\/(?!\/)[^\s\\]*$/.test(href)) return true;
  return /^https:\/\/[^\s/\\]+[^\s]*$/.test(href) || /^mailto:[^\s@]+@[^\s@]+$/.test(href);
}

const INLINE = /`([^`]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*|\*(?=\S)(.+?)(?<=\S)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** One line's inline marks. Unmatched markers stay as text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const push = (node: Inline) => {
    const last = out[out.length - 1];
    if (node.kind === 'text' && last?.kind === 'text') last.text += node.text;
    else if (node.kind !== 'text' || node.text) out.push(node);
  };
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    push({ kind: 'text', text: text.slice(at, m.index) });
    if (m[1] !== undefined) push({ kind: 'code', text: m[1] });
    else if (m[2] !== undefined) push({ kind: 'strong', text: m[2] });
    else if (m[3] !== undefined) push({ kind: 'em', text: m[3] });
    else if (isSafeHref(m[5]!)) push({ kind: 'link', text: m[4]!, href: m[5]! });
    else push({ kind: 'text', text: m[4]! });
    at = m.index + m[0].length;
  }
  push({ kind: 'text', text: text.slice(at) });
  return out;
}

/**
 * Blocks of a legal text. Lines that follow each other join into one paragraph (or one list item, when indented
 * under it); a blank line, a heading or a list marker starts a new block.
 */
export function parseLegalMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] | null = null;
  let list: string[][] | null = null;
  const flush = () => {
    if (paragraph) blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
    if (list) blocks.push({ kind: 'list', items: list.map((item) => parseInline(item.join(' '))) });
    paragraph = null;
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.+?)\s*#*$/.exec(line);
    const item = /^[-*]\s+(.+)$/.exec(line);
    if (!line) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, content: parseInline(heading[2]!) });
    } else if (item) {
      if (paragraph) flush();
      (list ??= []).push([item[1]!]);
    } else if (list && /^\s/.test(raw)) list[list.length - 1]!.push(line);
    else {
      if (list) flush();
      (paragraph ??= []).push(line);
    }
  }
  flush();
  return blocks;
}

/** The plain text of inline content (for a heading's id or a test). */
export function inlineText(content: readonly Inline[]): string {
  return content.map((node) => node.text).join('');
}

/** The text of the document's first `#` heading: the page's title. */
export function legalTitle(blocks: readonly Block[]): string | null {
  const first = blocks.find((b) => b.kind === 'heading' && b.level === 1);
  return first && first.kind === 'heading' ? inlineText(first.content) : null;
}
