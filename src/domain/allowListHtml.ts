/**
 * A strict allow-list filter for the reader's HTML (passage text and decoded text), small enough for the reader's
 * start-up path: the output is rebuilt from scratch, so it can only hold the allowed tags, written by us, with the
 * attributes a tag's rule returns, and text in which every `<` and `>` is escaped.
 *
 * - A comment is removed.
 * - A tag in `dropWithContent` is removed with everything up to its closing tag (to the end when it has none).
 * - Any other tag not in `tags` is removed; its text stays.
 * - An allowed tag is written again by name, lower case, with only what its rule returns (nothing by default).
 * - Entities in text are kept as they are (the text is already HTML).
 *
 * Rich text elsewhere (info sections, links) goes through `xss` (src/domain/sanitize.ts, src/ui/platform/html.ts):
 * it has attributes with URLs, which this filter never lets through.
 */

/** An allowed tag's attributes, parsed (names lower case), to the attribute text to write ('' for none). */
export type AttributeRule = (attributes: ReadonlyMap<string, string>) => string;

export interface AllowList {
  /** Allowed tags (lower case), each with its attribute rule, or null for "no attributes". */
  tags: Readonly<Record<string, AttributeRule | null>>;
  /** Tags removed together with their content (lower case). */
  dropWithContent: readonly string[];
}

/** A comment (to its end, or the end of the input), or a tag with its attributes (quoted values may hold `>`; a bare `<` ends it as text). */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^<>"']|"[^"]*"|'[^']*')*)>/;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function escapeText(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function parseAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) {
    const name = m[1].toLowerCase();
    if (!attributes.has(name)) attributes.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attributes;
}

export function createAllowListFilter({ tags, dropWithContent }: AllowList): (html: string) => string {
  const dropped = new Set(dropWithContent);
  return (html) => {
    const markup = new RegExp(MARKUP.source, 'g');
    let out = '';
    let at = 0;
    for (let m = markup.exec(html); m !== null; m = markup.exec(html)) {
      out += escapeText(html.slice(at, m.index));
      at = markup.lastIndex;
      const name = m[2]?.toLowerCase();
      if (name === undefined) continue; // a comment
      const closing = m[1] === '/';
      if (dropped.has(name)) {
        if (closing) continue;
        const end = new RegExp(`</${name}\\s*>`, 'i').exec(html.slice(at));
        at = end ? at + end.index + end[0].length : html.length;
        markup.lastIndex = at;
        continue;
      }
      if (!Object.hasOwn(tags, name)) continue;
      if (closing) {
        out += `</${name}>`;
        continue;
      }
      const rule = tags[name];
      const attributes = rule ? rule(parseAttributes(m[3])) : '';
      out += attributes ? `<${name} ${attributes}>` : `<${name}>`;
    }
    return out + escapeText(html.slice(at));
  };
}
