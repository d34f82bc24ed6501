/**
 * A small, strict XML reader for the parts of a document package (container.xml, the OPF, the NCX, EPUB content
 * documents). It walks the source character by character: tags, attributes in either quote, self-closing tags,
 * comments, CDATA, processing instructions and a DOCTYPE (with an internal subset) are understood; the five XML
 * entities and numeric references are decoded. Anything else (an unknown entity, a mismatched end tag, text
 * outside the root) throws XmlError, and the caller decides whether to read the part as HTML instead.
 */
import type { DomChild, DomElement } from './dom';
import { MAX_MARKUP_DEPTH } from './limits';

export class XmlError extends Error {}

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const isSpace = (ch: string) => ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r';

/** Decode entity and character references in text or an attribute value. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  let out = '';
  let at = 0;
  for (;;) {
    const amp = text.indexOf('&', at);
    if (amp < 0) return out + text.slice(at);
    out += text.slice(at, amp);
    const semi = text.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) throw new XmlError('a stray & in text');
    const name = text.slice(amp + 1, semi);
    if (name.startsWith('#')) {
      const hex = name[1] === 'x' || name[1] === 'X';
      const digits = name.slice(hex ? 2 : 1);
      const code = Number.parseInt(digits, hex ? 16 : 10);
      if (!digits || Number.isNaN(code) || code > 0x10ffff) throw new XmlError(`a bad character reference &${name};`);
      out += String.fromCodePoint(code);
    } else if (name in XML_ENTITIES) {
      out += XML_ENTITIES[name];
    } else {
      throw new XmlError(`an unknown entity &${name};`);
    }
    at = semi + 1;
  }
}

function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
}

/** Parse an XML document and answer its root element. */
export function parseXml(source: string): DomElement {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const document: DomElement = { name: '#document', attrs: [], children: [] };
  const stack: { element: DomElement; qname: string }[] = [{ element: document, qname: '' }];
  const top = () => stack[stack.length - 1];
  const append = (child: DomChild) => {
    if (stack.length === 1) {
      if (typeof child === 'string') {
        for (const ch of child) if (!isSpace(ch)) throw new XmlError('text outside the root element');
        return;
      }
      if (document.children.length) throw new XmlError('more than one root element');
    }
    top().element.children.push(child);
  };
  const until = (marker: string, from: number) => {
    const end = text.indexOf(marker, from);
    if (end < 0) throw new XmlError(`an unclosed construct (no ${marker})`);
    return end;
  };

  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (lt < 0) {
      append(decodeEntities(text.slice(pos)));
      break;
    }
    if (lt > pos) append(decodeEntities(text.slice(pos, lt)));
    if (text.startsWith('<!--', lt)) {
      pos = until('-->', lt + 4) + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = until(']]>', lt + 9);
      if (stack.length === 1) throw new XmlError('CDATA outside the root element');
      append(text.slice(lt + 9, end));
      pos = end + 3;
    } else if (text.startsWith('<?', lt)) {
      pos = until('?>', lt + 2) + 2;
    } else if (text.startsWith('<!', lt)) {
      // A DOCTYPE: skip to its '>' outside the internal subset and outside quotes.
      let i = lt + 2;
      let depth = 0;
      let quote = '';
      for (; i < text.length; i++) {
        const ch = text[i];
        if (quote) {
          if (ch === quote) quote = '';
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '[') depth++;
        else if (ch === ']') depth--;
        else if (ch === '>' && depth <= 0) break;
      }
      if (i >= text.length) throw new XmlError('an unclosed DOCTYPE');
      pos = i + 1;
    } else if (text[lt + 1] === '/') {
      const end = until('>', lt + 2);
      const qname = text.slice(lt + 2, end).trim();
      if (stack.length === 1 || top().qname !== qname) throw new XmlError(`a mismatched end tag </${qname}>`);
      stack.pop();
      pos = end + 1;
    } else {
      let i = lt + 1;
      const nameStart = i;
      while (i < text.length && !isSpace(text[i]) && text[i] !== '/' && text[i] !== '>') i++;
      const qname = text.slice(nameStart, i);
      if (!qname) throw new XmlError('a tag without a name');
      const element: DomElement = { name: localName(qname), attrs: [], children: [] };
      let selfClosing = false;
      for (;;) {
        while (i < text.length && isSpace(text[i])) i++;
        if (i >= text.length) throw new XmlError(`an unclosed tag <${qname}`);
        if (text[i] === '>') {
          i++;
          break;
        }
        if (text[i] === '/' && text[i + 1] === '>') {
          selfClosing = true;
          i += 2;
          break;
        }
        const attrStart = i;
        while (i < text.length && !isSpace(text[i]) && text[i] !== '=' && text[i] !== '>' && text[i] !== '/') i++;
        const attrName = text.slice(attrStart, i);
        while (i < text.length && isSpace(text[i])) i++;
        if (!attrName || text[i] !== '=') throw new XmlError(`an attribute without a value in <${qname}>`);
        i++;
        while (i < text.length && isSpace(text[i])) i++;
        const quote = text[i];
        if (quote !== '"' && quote !== "'") throw new XmlError(`an unquoted attribute in <${qname}>`);
        const valueEnd = until(quote, i + 1);
        element.attrs.push([attrName, decodeEntities(text.slice(i + 1, valueEnd))]);
        i = valueEnd + 1;
      }
      append(element);
      if (!selfClosing) stack.push({ element, qname });
      if (stack.length > MAX_MARKUP_DEPTH) throw new XmlError('elements nested too deeply');
      pos = i;
    }
  }
  if (stack.length !== 1) throw new XmlError(`an unclosed element <${top().qname}>`);
  const root = document.children[0];
  if (!root || typeof root === 'string') throw new XmlError('no root element');
  return root;
}
