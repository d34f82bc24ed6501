/**
 * The EPUB 3 of one edition, from plain values (no database, no narration service): the package document with its
 * accessibility and media-overlay metadata, a navigation document, a cover page, one XHTML document per section
 * (a run of passages under one part and section heading) and, for every section with narration, a SMIL media
 * overlay that pairs each spoken sentence with its clip of the passage's MP3. docs/epub.md says what is in it and
 * why. The zip is written with fflate: `mimetype` first and stored, MP3s stored, the rest deflated.
 */
import crypto from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import type { LanguageCode } from '../../src/domain/languages';
import { languageInfo } from '../../src/domain/languages';
import type { SpeechMark } from '../narration/speechMarks';
import { passageMarkup, type SpokenFragment } from './passageMarkup';
import { clockFull, clockSeconds, xmlAttr, xmlText } from './xml';

/** The class a reading system puts on the sentence being spoken (media:active-class). */
export const ACTIVE_CLASS = '-epub-media-overlay-active';
export const EPUB_MEDIA_TYPE = 'application/epub+zip';
/** The conformance claim of the package (EPUB Accessibility 1.1). */
export const A11Y_CONFORMANCE = 'EPUB Accessibility 1.1 - WCAG 2.1 Level AA';

/** BCP 47 tags of the spec's languages where they differ from its codes: the spec's `ha` is Haitian Creole. */
const LANGUAGE_TAGS: Partial<Record<LanguageCode, string>> = { ha: 'ht' };
export const languageTag = (code: LanguageCode): string => LANGUAGE_TAGS[code] ?? code;

export interface EpubImage {
  bytes: Uint8Array;
  mediaType: string;
}

export interface EpubNarration {
  mp3: Uint8Array;
  durationMs: number;
  speechMarks: readonly SpeechMark[];
  /** The voice that spoke ('flite-slt', 'espeak-es', …). */
  voice: string;
}

export interface EpubPassage {
  position: number;
  /** The passage's HTML paragraphs. */
  html: string;
  partName: string | null;
  sectionName: string | null;
  /** The illustration, by its file name in the title's folder ('images/owl.svg'). */
  image: { file: string; alt: string } | null;
  narration: EpubNarration | null;
}

export interface EpubInput {
  slug: string;
  version: number;
  title: string;
  author: string;
  language: LanguageCode;
  level: string;
  /** The title's date (YYYY-MM-DD). */
  createdAt: string;
  /** dcterms:modified. */
  modified: Date;
  cover: { file: string; image: EpubImage } | null;
  /** Every illustration the passages name, by file. */
  images: ReadonlyMap<string, EpubImage>;
  passages: readonly EpubPassage[];
  /** The Intl.Segmenter locale of the language (server/narration/voices.ts SEGMENTER_LOCALES). */
  segmenterLocale: string;
}

/** A built book: its bytes and what it holds, for the caller's messages and tests. */
export interface BuiltEpub {
  bytes: Uint8Array;
  sections: number;
  narratedPassages: number;
  durationMs: number;
}

interface Section {
  file: string;
  id: string;
  part: string | null;
  name: string | null;
  passages: EpubPassage[];
}

const CSS = `body { font-family: serif; line-height: 1.6; margin: 0 5%; }
h1, h2 { line-height: 1.25; }
figure { margin: 1em 0; text-align: center; }
figure img { max-width: 100%; height: auto; }
.cover { text-align: center; }
.cover img { max-width: 100%; max-height: 95vh; }
.${ACTIVE_CLASS} { background-color: #ffe58a; color: #000000; }
`;

const pad = (n: number) => String(n).padStart(3, '0');

/** A stable identifier of the edition: the same title, version, language and level give the same URN. */
function identifier(input: EpubInput): string {
  const hex = crypto.createHash('sha256').update(`lectern:${input.slug}:v${input.version}:${input.language}:${input.level}`).digest('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function sectionsOf(passages: readonly EpubPassage[]): Section[] {
  const sections: Section[] = [];
  for (const p of passages) {
    const last = sections.at(-1);
    const starts = !last || p.partName !== last.part || p.sectionName !== last.name;
    if (starts) {
      const n = sections.length + 1;
      sections.push({ file: `text/section-${pad(n)}.xhtml`, id: `section-${pad(n)}`, part: p.partName, name: p.sectionName, passages: [p] });
    } else last.passages.push(p);
  }
  return sections;
}

function htmlOpen(lang: string, rtl: boolean, title: string, cssHref: string, epubNs = false): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n' +
    `<html xmlns="http://www.w3.org/1999/xhtml"${epubNs ? ' xmlns:epub="http://www.idpf.org/2007/ops"' : ''} xml:lang="${lang}" lang="${lang}" dir="${rtl ? 'rtl' : 'ltr'}">\n` +
    `<head>\n<meta charset="utf-8"/>\n<title>${xmlText(title)}</title>\n<link rel="stylesheet" type="text/css" href="${cssHref}"/>\n</head>\n`
  );
}

const mp3File = (position: number) => `audio/passage-${pad(position)}.mp3`;
const imageFile = (file: string) => `images/${file.replace(/^images\//, '')}`;

/** Sum of whole milliseconds, so each overlay's duration and the total agree exactly. */
const clipsMs = (fragments: readonly { clipBeginMs: number; clipEndMs: number }[]) =>
  fragments.reduce((sum, f) => sum + (Math.round(f.clipEndMs) - Math.round(f.clipBeginMs)), 0);

export function buildEpub(input: EpubInput): BuiltEpub {
  const lang = languageTag(input.language);
  const rtl = languageInfo(input.language).rightToLeft;
  const sections = sectionsOf(input.passages);
  const files: Zippable = {};
  const manifest: string[] = [];
  const spine: string[] = [];
  const durations: string[] = [];
  let totalMs = 0;
  let narratedPassages = 0;
  const voices = new Set<string>();

  files.mimetype = [new TextEncoder().encode(EPUB_MEDIA_TYPE), { level: 0 }];
  files['META-INF/container.xml'] = new TextEncoder().encode(
    '<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n' +
      '<rootfiles><rootfile full-path="EPUB/package.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n',
  );
  const put = (name: string, data: string | Uint8Array, stored = false) => {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    files[`EPUB/${name}`] = stored ? [bytes, { level: 0 }] : bytes;
  };

  put('css/book.css', CSS);
  manifest.push('<item id="css" href="css/book.css" media-type="text/css"/>');

  if (input.cover) {
    const href = imageFile(input.cover.file);
    put(href, input.cover.image.bytes);
    manifest.push(`<item id="cover-image" href="${xmlAttr(href)}" media-type="${xmlAttr(input.cover.image.mediaType)}" properties="cover-image"/>`);
    put(
      'cover.xhtml',
      htmlOpen(lang, rtl, input.title, 'css/book.css') +
        `<body>\n<section class="cover">\n<img src="${xmlAttr(href)}" alt="${xmlAttr(`Cover of ${input.title}`)}"/>\n</section>\n</body>\n</html>\n`,
    );
    manifest.push('<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>');
    spine.push('<itemref idref="cover" linear="yes"/>');
  }

  const usedImages = new Set<string>();
  let previousPart: string | null = null;
  for (const section of sections) {
    const docTitle = section.name ?? section.part ?? input.title;
    let body = '';
    if (section.part && section.part !== previousPart) body += `<h1>${xmlText(section.part)}</h1>\n`;
    if (section.name) body += `<h2>${xmlText(section.name)}</h2>\n`;
    previousPart = section.part;
    const pars: string[] = [];
    const fragments: SpokenFragment[] = [];
    for (const p of section.passages) {
      const markup = passageMarkup({
        html: p.html,
        position: p.position,
        locale: input.segmenterLocale,
        narration: p.narration ? { speechMarks: p.narration.speechMarks, durationMs: p.narration.durationMs } : null,
      });
      body += `<section id="passage-${p.position}">\n`;
      if (p.image && input.images.has(p.image.file)) {
        const href = imageFile(p.image.file);
        usedImages.add(p.image.file);
        body += `<figure><img src="../${xmlAttr(href)}" alt="${xmlAttr(p.image.alt)}"/></figure>\n`;
      }
      body += markup.xhtml;
      body += '</section>\n';
      if (p.narration && markup.fragments.length) {
        narratedPassages++;
        voices.add(p.narration.voice);
        const audio = mp3File(p.position);
        put(audio, p.narration.mp3, true);
        manifest.push(`<item id="audio-${p.position}" href="${audio}" media-type="audio/mpeg"/>`);
        for (const f of markup.fragments) {
          fragments.push(f);
          pars.push(
            `<par id="par-${f.id}"><text src="../${section.file}#${f.id}"/><audio src="../${audio}" clipBegin="${clockSeconds(f.clipBeginMs)}" clipEnd="${clockSeconds(f.clipEndMs)}"/></par>`,
          );
        }
      }
    }
    put(section.file, htmlOpen(lang, rtl, docTitle, '../css/book.css') + `<body>\n${body}</body>\n</html>\n`);
    let overlay = '';
    if (pars.length) {
      const smil = `smil/${section.id}.smil`;
      put(
        smil,
        '<?xml version="1.0" encoding="UTF-8"?>\n<smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">\n' +
          `<body>\n${pars.join('\n')}\n</body>\n</smil>\n`,
      );
      const ms = clipsMs(fragments);
      totalMs += ms;
      manifest.push(`<item id="smil-${section.id}" href="${smil}" media-type="application/smil+xml"/>`);
      durations.push(`<meta property="media:duration" refines="#smil-${section.id}">${clockFull(ms)}</meta>`);
      overlay = ` media-overlay="smil-${section.id}"`;
    }
    manifest.push(`<item id="${section.id}" href="${section.file}" media-type="application/xhtml+xml"${overlay}/>`);
    spine.push(`<itemref idref="${section.id}"/>`);
  }

  for (const file of usedImages) {
    const image = input.images.get(file)!;
    const href = imageFile(file);
    if (input.cover && imageFile(input.cover.file) === href) continue;
    put(href, image.bytes);
    manifest.push(`<item id="image-${manifest.length}" href="${xmlAttr(href)}" media-type="${xmlAttr(image.mediaType)}"/>`);
  }

  put('nav.xhtml', navDocument(input, lang, rtl, sections));
  manifest.push('<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>');

  const narrated = narratedPassages > 0;
  const visual = Boolean(input.cover) || usedImages.size > 0;
  put('package.opf', packageDocument({ input, lang, rtl, manifest, spine, durations, totalMs, narrated, visual, voices }));
  return { bytes: zipSync(files), sections: sections.length, narratedPassages, durationMs: totalMs };
}

function navDocument(input: EpubInput, lang: string, rtl: boolean, sections: Section[]): string {
  const label = (s: Section, i: number) => s.name ?? s.part ?? (sections.length > 1 ? `${input.title} (${i + 1})` : input.title);
  // Sections under one part heading nest beneath it.
  let list = '';
  let i = 0;
  while (i < sections.length) {
    const part = sections[i].part;
    if (part && sections[i].name) {
      let inner = '';
      const first = sections[i];
      while (i < sections.length && sections[i].part === part && sections[i].name) {
        inner += `<li><a href="${sections[i].file}">${xmlText(label(sections[i], i))}</a></li>\n`;
        i++;
      }
      list += `<li><a href="${first.file}">${xmlText(part)}</a>\n<ol>\n${inner}</ol>\n</li>\n`;
    } else {
      list += `<li><a href="${sections[i].file}">${xmlText(label(sections[i], i))}</a></li>\n`;
      i++;
    }
  }
  const landmarks = `<nav epub:type="landmarks" id="landmarks" hidden="hidden">\n<h2>Landmarks</h2>\n<ol>\n${
    input.cover ? '<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>\n' : ''
  }<li><a epub:type="bodymatter" href="${sections[0]?.file ?? 'nav.xhtml'}">Start of content</a></li>\n</ol>\n</nav>\n`;
  return (
    htmlOpen(lang, rtl, input.title, 'css/book.css', true) +
    `<body>\n<nav epub:type="toc" id="toc" role="doc-toc">\n<h1>${xmlText(input.title)}</h1>\n<ol>\n${list}</ol>\n</nav>\n${landmarks}</body>\n</html>\n`
  );
}

function packageDocument(o: {
  input: EpubInput;
  lang: string;
  rtl: boolean;
  manifest: string[];
  spine: string[];
  durations: string[];
  totalMs: number;
  narrated: boolean;
  visual: boolean;
  voices: Set<string>;
}): string {
  const { input } = o;
  const modified = o.input.modified.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const meta = (property: string, value: string) => `<meta property="${property}">${xmlText(value)}</meta>`;
  const accessModes = ['textual', ...(o.narrated ? ['auditory'] : []), ...(o.visual ? ['visual'] : [])];
  const features = [
    'structuralNavigation',
    'tableOfContents',
    'readingOrder',
    'displayTransformability',
    ...(o.visual ? ['alternativeText'] : []),
    ...(o.narrated ? ['synchronizedAudioText'] : []),
  ];
  const sufficient = ['textual', ...(o.narrated ? ['textual,auditory'] : [])];
  const summary =
    `${input.title} (${languageInfo(input.language).name}, ${input.level.toLowerCase()} level) is text with headings and a table of contents. ` +
    (o.visual ? 'Every image has a text alternative. ' : '') +
    (o.narrated
      ? 'Its text is synchronized with narration by synthetic speech (media overlays): a reading system can read it aloud and highlight each sentence as it is spoken. '
      : 'It has no narration. ') +
    'It has no flashing, sound or motion hazards.';
  const metadata = [
    `<dc:identifier id="pub-id">${identifier(input)}</dc:identifier>`,
    `<dc:title>${xmlText(input.title)}</dc:title>`,
    `<dc:creator>${xmlText(input.author)}</dc:creator>`,
    `<dc:language>${o.lang}</dc:language>`,
    `<dc:date>${xmlText(input.createdAt)}</dc:date>`,
    '<dc:publisher>Lectern</dc:publisher>',
    meta('dcterms:modified', modified),
    ...accessModes.map((m) => meta('schema:accessMode', m)),
    ...sufficient.map((m) => meta('schema:accessModeSufficient', m)),
    ...features.map((f) => meta('schema:accessibilityFeature', f)),
    meta('schema:accessibilityHazard', 'none'),
    meta('schema:accessibilitySummary', summary),
    meta('dcterms:conformsTo', A11Y_CONFORMANCE),
    meta('a11y:certifiedBy', 'Lectern'),
    ...(o.narrated
      ? [meta('media:active-class', ACTIVE_CLASS), ...[...o.voices].map((v) => meta('media:narrator', v)), ...o.durations, meta('media:duration', clockFull(o.totalMs))]
      : []),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${o.lang}"${o.rtl ? ' dir="rtl"' : ''}>\n` +
    `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n${metadata.join('\n')}\n</metadata>\n` +
    `<manifest>\n${o.manifest.join('\n')}\n</manifest>\n` +
    `<spine${o.rtl ? ' page-progression-direction="rtl"' : ''}>\n${o.spine.join('\n')}\n</spine>\n</package>\n`
  );
}
