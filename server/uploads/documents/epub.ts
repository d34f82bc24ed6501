/**
 * EPUB 2 and 3: META-INF/container.xml names the package (OPF); its manifest and spine give the content documents
 * in reading order (non-linear items and the navigation document itself are skipped). The sections come from the
 * navigation document (EPUB 3 `nav epub:type="toc"`) or else the NCX (EPUB 2): each entry becomes a heading where
 * it points (the start of a document or the element with its fragment id). A book without either keeps the
 * headings of its text. DRM (META-INF/rights.xml, or encryption.xml encrypting anything but fonts) is refused.
 */
import path from 'node:path';
import { attr, childrenNamed, findAll, findFirst, isElement, parseHtmlDocument, textOf, type DomElement } from './dom';
import { collectBlocks, demoteTextHeadings, type Block } from './outline';
import { DocumentProblem, DOCUMENT_MESSAGES } from './problems';
import { parseXml, XmlError } from './xml';
import type { ZipArchive } from './zip';

/** Font obfuscation (IDPF and Adobe): the only encryption that leaves the text readable. */
const FONT_OBFUSCATION = new Set(['http://www.idpf.org/2008/embedding', 'http://ns.adobe.com/pdf/enc#RC']);
const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html', 'application/xml']);

interface TocEntry {
  file: string;
  fragment: string;
  label: string;
  depth: number;
}

const corrupt = () => new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.corrupt('epub'));
const noPackage = () => new DocumentProblem(400, 'corrupt_file', DOCUMENT_MESSAGES.notEpub);
const drm = () => new DocumentProblem(422, 'drm_protected', DOCUMENT_MESSAGES.drm);

/** A part of the archive parsed as XML; when it is not well-formed, what `otherwise` makes of its text. */
function partOf(zip: ZipArchive, name: string, otherwise: (text: string) => DomElement): DomElement | null {
  const text = zip.text(name);
  if (text === null) return null;
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) return otherwise(text);
    throw e;
  }
}

/** A package part (container, package document, NCX): XML, or the file is corrupt. */
const xmlPart = (zip: ZipArchive, name: string) =>
  partOf(zip, name, () => {
    throw corrupt();
  });

/** A content document: XML as the format requires, or read as HTML when it is not well-formed. */
const contentPart = (zip: ZipArchive, name: string) => partOf(zip, name, parseHtmlDocument);

/** An href inside the archive, relative to the file it appears in; null for links that leave the archive. */
function resolve(from: string, href: string): { file: string; fragment: string } | null {
  const hash = href.indexOf('#');
  const rawPath = hash >= 0 ? href.slice(0, hash) : href;
  const fragment = hash >= 0 ? href.slice(hash + 1) : '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!decoded) return { file: from, fragment };
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(from), decoded));
  if (file.startsWith('../') || file === '..' || file.startsWith('/')) return null;
  return { file: file.startsWith('./') ? file.slice(2) : file, fragment };
}

function checkDrm(zip: ZipArchive): void {
  if (zip.has('META-INF/rights.xml')) throw drm();
  const encryption = xmlPart(zip, 'META-INF/encryption.xml');
  if (!encryption) return;
  for (const data of findAll(encryption, 'encrypteddata')) {
    const method = findFirst(data, 'encryptionmethod');
    if (!FONT_OBFUSCATION.has(method ? (attr(method, 'algorithm') ?? '') : '')) throw drm();
  }
}

/** The EPUB 3 navigation document's table of contents. */
function navEntries(nav: DomElement, navFile: string): TocEntry[] {
  const navs = findAll(nav, 'nav');
  const toc = navs.find((n) => (attr(n, 'type') ?? '').split(/\s+/).includes('toc')) ?? navs[0];
  const entries: TocEntry[] = [];
  const walkList = (list: DomElement, depth: number) => {
    for (const item of childrenNamed(list, 'li')) {
      const link = item.children.find((c): c is DomElement => isElement(c) && (c.name === 'a' || c.name === 'span'));
      const target = link && link.name === 'a' ? resolve(navFile, attr(link, 'href') ?? '') : null;
      if (link && target) entries.push({ ...target, label: textOf(link), depth });
      for (const nested of childrenNamed(item, 'ol')) walkList(nested, depth + 1);
    }
  };
  const list = toc ? findFirst(toc, 'ol') : null;
  if (list) walkList(list, 1);
  return entries;
}

/** The EPUB 2 NCX's navigation map. */
function ncxEntries(ncx: DomElement, ncxFile: string): TocEntry[] {
  const entries: TocEntry[] = [];
  const walk = (parent: DomElement, depth: number) => {
    for (const point of childrenNamed(parent, 'navpoint')) {
      const label = findFirst(point, 'navlabel');
      const content = childrenNamed(point, 'content')[0];
      const target = content ? resolve(ncxFile, attr(content, 'src') ?? '') : null;
      if (label && target) entries.push({ ...target, label: textOf(label), depth });
      walk(point, depth + 1);
    }
  };
  const map = findFirst(ncx, 'navmap');
  if (map) walk(map, 1);
  return entries;
}

export function readEpub(zip: ZipArchive): { blocks: Block[]; pictures: number } {
  checkDrm(zip);
  const container = xmlPart(zip, 'META-INF/container.xml');
  if (!container) throw noPackage();
  const rootfiles = findAll(container, 'rootfile');
  const rootfile = rootfiles.find((r) => attr(r, 'media-type') === 'application/oebps-package+xml') ?? rootfiles[0];
  const opfFile = rootfile ? resolve('', attr(rootfile, 'full-path') ?? '')?.file : undefined;
  const opf = opfFile ? xmlPart(zip, opfFile) : null;
  if (!opfFile || !opf) throw noPackage();

  const manifest = new Map<string, { file: string; type: string; properties: string[] }>();
  for (const item of findAll(opf, 'item')) {
    const id = attr(item, 'id');
    const target = resolve(opfFile, attr(item, 'href') ?? '');
    if (id && target) manifest.set(id, { file: target.file, type: attr(item, 'media-type') ?? '', properties: (attr(item, 'properties') ?? '').split(/\s+/) });
  }
  const spine = findFirst(opf, 'spine');
  if (!spine) throw noPackage();

  const navItem = [...manifest.values()].find((m) => m.properties.includes('nav'));
  const ncxItem = manifest.get(attr(spine, 'toc') ?? '') ?? [...manifest.values()].find((m) => m.type === 'application/x-dtbncx+xml');
  let toc: TocEntry[] = [];
  if (navItem) {
    const nav = contentPart(zip, navItem.file);
    if (nav) toc = navEntries(nav, navItem.file);
  }
  if (!toc.length && ncxItem) {
    const ncx = xmlPart(zip, ncxItem.file);
    if (ncx) toc = ncxEntries(ncx, ncxItem.file);
  }

  const pictures = { count: 0 };
  const blocks: Block[] = [];
  for (const ref of childrenNamed(spine, 'itemref')) {
    if (attr(ref, 'linear') === 'no') continue;
    const item = manifest.get(attr(ref, 'idref') ?? '');
    if (!item || item === navItem || !XHTML_TYPES.has(item.type)) continue;
    const document = contentPart(zip, item.file);
    if (!document) continue;
    const heading = (e: TocEntry): Block => ({ kind: 'heading', level: e.depth, text: e.label });
    const here = toc.filter((e) => e.file === item.file);
    const atStart = here.filter((e) => !e.fragment);
    const byId = new Map<string, TocEntry[]>();
    for (const e of here) if (e.fragment) byId.set(e.fragment, [...(byId.get(e.fragment) ?? []), e]);
    const placed = new Set<string>();
    blocks.push(...atStart.map(heading));
    const body = findFirst(document, 'body') ?? document;
    blocks.push(
      ...collectBlocks(body, {
        pictures,
        anchor: (id) => {
          const entries = byId.get(id);
          if (!entries || placed.has(id)) return undefined;
          placed.add(id);
          return entries.map(heading);
        },
      }),
    );
    // Entries whose fragment is not in the text head whatever follows.
    for (const [id, entries] of byId) if (!placed.has(id)) blocks.push(...entries.map(heading));
  }
  return { blocks: toc.length ? demoteTextHeadings(blocks) : blocks, pictures: pictures.count };
}
