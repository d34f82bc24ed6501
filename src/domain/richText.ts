/**
 * The one HTML allow-list for rich text we store and show (info sections): `xss`, as links keep a checked href.
 * Not in the reader's start-up path (the reader's own filter is src/domain/allowListHtml.ts).
 */
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

