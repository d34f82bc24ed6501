/**
 * One small element tree for every markup a document brings in: XML parts (container.xml, OPF, NCX, EPUB
 * content documents) through ./xml.ts, and HTML (mammoth's output, XHTML that is not well-formed XML) through
 * parse5. Element names are lower-case local names (`navPoint` → `navpoint`, `dc:title` → `title`).
 */
import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { MAX_MARKUP_DEPTH } from './limits';

export interface DomElement {
  name: string;
  attrs: [name: string, value: string][];
  children: DomChild[];
}
export type DomChild = DomElement | string;

export const isElement = (node: DomChild): node is DomElement => typeof node !== 'string';

/** An attribute by its local name (`epub:type` answers to 'type'), case-insensitively. */
export function attr(element: DomElement, local: string): string | undefined {
  const wanted = local.toLowerCase();
  for (const [name, value] of element.attrs) {
    const colon = name.lastIndexOf(':');
    if ((colon >= 0 ? name.slice(colon + 1) : name).toLowerCase() === wanted) return value;
  }
  return undefined;
}

/** The element's child elements named `name`. */
export const childrenNamed = (element: DomElement, name: string): DomElement[] =>
  element.children.filter((c): c is DomElement => isElement(c) && c.name === name);

/** The first descendant (or the element itself) named `name`, depth first. */
export function findFirst(element: DomElement, name: string): DomElement | null {
  if (element.name === name) return element;
  for (const child of element.children) {
    if (!isElement(child)) continue;
    const found = findFirst(child, name);
    if (found) return found;
  }
  return null;
}

/** Every descendant named `name`, in document order. */
export function findAll(element: DomElement, name: string, into: DomElement[] = []): DomElement[] {
  for (const child of element.children) {
    if (!isElement(child)) continue;
    if (child.name === name) into.push(child);
    findAll(child, name, into);
  }
  return into;
}

/** The text inside an element, with its white space collapsed. */
export function textOf(element: DomElement): string {
  const parts: string[] = [];
  const walk = (node: DomElement) => {
    for (const child of node.children) {
      if (isElement(child)) walk(child);
      else parts.push(child);
    }
  };
  walk(element);
  return collapse(parts.join(''));
}

/** White space runs become one space; the ends are trimmed. */
export const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

type P5Node = DefaultTreeAdapterMap['node'];

function localName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon >= 0 ? name.slice(colon + 1) : name).toLowerCase();
}

function fromParse5(node: P5Node, name: string, depth = 0): DomElement {
  const element: DomElement = {
    name,
    attrs: 'attrs' in node ? node.attrs.map((a) => [a.prefix ? `${a.prefix}:${a.name}` : a.name, a.value] as [string, string]) : [],
    children: [],
  };
  // Markup nested deeper than MAX_MARKUP_DEPTH is cut off there: the walks over the tree recurse.
  const children = depth >= MAX_MARKUP_DEPTH || node.nodeName === 'template' ? [] : 'childNodes' in node ? node.childNodes : [];
  for (const child of children) {
    if (child.nodeName === '#text') element.children.push((child as DefaultTreeAdapterMap['textNode']).value);
    else if ('tagName' in child) element.children.push(fromParse5(child, localName(child.tagName), depth + 1));
  }
  return element;
}

/** A whole HTML document: its `html` element. */
export function parseHtmlDocument(source: string): DomElement {
  const document = fromParse5(parse(source), '#document');
  return document.children.find(isElement) ?? { name: 'html', attrs: [], children: [] };
}

/** An HTML fragment (mammoth's output), as the children of a `body` element. */
export function parseHtmlFragment(source: string): DomElement {
  return fromParse5(parseFragment(source), 'body');
}
