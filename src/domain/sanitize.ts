/** The one HTML allow-list for rich text we store and show (info sections). */
import { FilterXSS } from 'xss';

const filter = new FilterXSS({
  whiteList: {
    p: [],
    br: [],
    em: [],
    strong: [],
    b: [],
    i: [],
    ul: [],
    ol: [],
    li: [],
    h3: [],
    h4: [],
    blockquote: [],
    a: ['href', 'title'],
  },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style'],
  safeAttrValue(tag, name, value) {
    if (tag === 'a' && name === 'href') {
      return /^(https?:|mailto:|\/)/i.test(value.trim()) ? value.replace(/"/g, '&quot;') : '';
    }
    return value.replace(/"/g, '&quot;');
  },
});

export function sanitizeRichText(html: string): string {
  return filter.process(html).trim();
}

/**
 * The text of HTML: line breaks as spaces, tags removed, and the entities for <, >, ", ' and & decoded (&amp;
 * last, so '&amp;lt;' stays '&lt;'). Whitespace is left as it is.
 */
function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Plain text of an HTML fragment: tags removed, entities for &, <, >, " and ' decoded, whitespace collapsed. */
export function stripTags(html: string): string {
  return htmlText(html.replace(/<\/(p|li|h\d|blockquote)>/gi, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The plain text of a passage as the reader shows it: each paragraph's text (tags removed, entities decoded),
 * paragraphs joined by a newline. Speech-mark offsets are JavaScript string indices into this text, so the
 * server that makes them and the client that highlights with them agree on every character.
 */
export function passagePlainText(html: string): string {
  return html
    .split(/<\/p>/i)
    .map((p) => htmlText(p).trim())
    .filter(Boolean)
    .join('\n');
}
