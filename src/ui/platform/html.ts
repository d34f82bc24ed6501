/** Content HTML (info sections) is sanitized with `xss` before it is rendered (passages: src/domain/passageText.ts). */
import { FilterXSS } from 'xss';

const filter = new FilterXSS({
  whiteList: {
    p: ['dir', 'lang'],
    br: [],
    em: [],
    i: [],
    strong: [],
    b: [],
    u: [],
    s: [],
    small: [],
    sub: [],
    sup: [],
    span: ['lang', 'dir'],
    blockquote: [],
    ul: [],
    ol: [],
    li: [],
    h3: [],
    h4: [],
    a: ['href', 'title'],
  },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'object', 'embed', 'template'],
  onTagAttr(tag, name, value) {
    // Links may only go to http(s), mailto or same-site paths.
    if (tag === 'a' && name === 'href' && !/^(https?:|mailto:|\/(?!\/)|#)/i.test(value.trim())) return '';
    return undefined;
  },
});

export function sanitizeHtml(html: string): string {
  return filter.process(html);
}
