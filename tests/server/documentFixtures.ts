/**
 * Documents built in code for the upload tests: Word (.docx) and EPUB (2 with an NCX, 3 with a nav document)
 * zips, hand-written PDFs (a text layer, only a picture, and one encrypted with the Standard security handler
 * R2 / RC4-40 and a user password), and the bad archives (a zip bomb, a zip that lies about its sizes, entries
 * that leave the folder, a DRM'd EPUB). Nothing binary is kept in git.
 */
import crypto from 'node:crypto';
import { strToU8, zipSync, type Zippable } from 'fflate';

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const EPUB_TYPE = 'application/epub+zip';
export const PDF_TYPE = 'application/pdf';

const esc = (text: string) => text.split('&').join('&amp;').split('<').join('&lt;').split('>').join('&gt;');

/** One paragraph of a Word document: a heading (Heading1/Heading2 style), body text, or a picture. */
export type DocxBlock = { heading: 1 | 2; text: string } | { text: string } | { picture: true };

const PNG_1x1 = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
);

function docxPicture(n: number): string {
  return (
    `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing">` +
    `<wp:extent cx="952500" cy="952500"/><wp:docPr id="${n}" name="Picture ${n}" descr="A picture"/>` +
    `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${n}" name="p${n}.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:embed="rIdImage"/></pic:blipFill>` +
    `<pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
  );
}

/** The parts of a .docx (before zipping), so that tests can add or change one. */
export function docxParts(blocks: DocxBlock[]): Zippable {
  let pictures = 0;
  const body = blocks
    .map((b) => {
      if ('picture' in b) return docxPicture(++pictures);
      const style = 'heading' in b ? `<w:pPr><w:pStyle w:val="Heading${b.heading}"/></w:pPr>` : '';
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${esc(b.text)}</w:t></w:r></w:p>`;
    })
    .join('');
  const styles = [1, 2]
    .map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`)
    .join('');
  return {
    '[Content_Types].xml': strToU8(
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rIdImage" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>`,
    ),
    'word/styles.xml': strToU8(`${XML}<w:styles xmlns:w="${W}">${styles}</w:styles>`),
    'word/document.xml': strToU8(`${XML}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`),
    'word/media/image1.png': PNG_1x1,
  };
}

export const docx = (blocks: DocxBlock[]): Uint8Array => zipSync(docxParts(blocks));

/** A chapter of an EPUB: its file name, its title (in the navigation) and its XHTML body. */
export interface EpubChapter {
  file: string;
  title: string;
  body: string;
}

const xhtml = (title: string, body: string, doctype = '') =>
  `${XML}${doctype}<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${esc(title)}</title></head><body>${body}</body></html>`;

/** The parts of an EPUB 3 (navigation document) or EPUB 2 (NCX), with `extra` entries added. */
export function epubParts(version: 2 | 3, chapters: EpubChapter[], extra: Zippable = {}): Zippable {
  const items = chapters.map((c, i) => `<item id="c${i}" href="${c.file}" media-type="application/xhtml+xml"/>`).join('');
  const spine = chapters.map((_, i) => `<itemref idref="c${i}"/>`).join('');
  const parts: Zippable = {
    mimetype: strToU8('application/epub+zip'),
    'META-INF/container.xml': strToU8(
      `${XML}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    ),
  };
  for (const c of chapters) parts[`OEBPS/${c.file}`] = strToU8(xhtml(c.title, c.body, version === 2 ? '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">' : ''));
  if (version === 3) {
    const nav = chapters.map((c) => `<li><a href="${c.file}">${esc(c.title)}</a></li>`).join('');
    parts['OEBPS/nav.xhtml'] = strToU8(xhtml('Contents', `<nav epub:type="toc"><h1>Contents</h1><ol>${nav}</ol></nav>`));
    parts['OEBPS/content.opf'] = strToU8(
      `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e</dc:identifier><dc:title>Book</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>` +
        `<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${items}</manifest><spine><itemref idref="nav"/>${spine}</spine></package>`,
    );
  } else {
    const points = chapters
      .map((c, i) => `<navPoint id="p${i}" playOrder="${i + 1}"><navLabel><text>${esc(c.title)}</text></navLabel><content src="${c.file}"/></navPoint>`)
      .join('');
    parts['OEBPS/toc.ncx'] = strToU8(
      `${XML}<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><head><meta name="dtb:uid" content="urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7"/></head><docTitle><text>Book</text></docTitle><navMap>${points}</navMap></ncx>`,
    );
    parts['OEBPS/content.opf'] = strToU8(
      `${XML}<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:7c9e6679-7425-40de-944b-e07fc1f90ae7</dc:identifier><dc:title>Book</dc:title><dc:language>en</dc:language></metadata>` +
        `<manifest><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>${items}</manifest><spine toc="ncx">${spine}</spine></package>`,
    );
  }
  return { ...parts, ...extra };
}

/** An EPUB zip; the mimetype entry goes first and stored, as the format asks (epubcheck finds no error in one). */
export function epub(version: 2 | 3, chapters: EpubChapter[], extra: Zippable = {}): Uint8Array {
  const { mimetype, ...rest } = epubParts(version, chapters, extra);
  return zipSync({ mimetype: [mimetype as Uint8Array, { level: 0 }], ...rest });
}

/** An EPUB whose chapters are encrypted by a DRM scheme (encryption.xml names content, not fonts). */
export function drmEpub(chapters: EpubChapter[]): Uint8Array {
  const encryption = `${XML}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/${chapters[0].file}"/></enc:CipherData></enc:EncryptedData></encryption>`;
  return epub(3, chapters, { 'META-INF/encryption.xml': strToU8(encryption) });
}

// ---- PDF ------------------------------------------------------------------------------------------------------

/** A PDF string literal: backslashes and parentheses escaped. */
const pdfString = (text: string) => `(${text.split('\\').join('\\\\').split('(').join('\\(').split(')').join('\\)')})`;

/**
 * Write a PDF from object bodies (object n is bodies[n-1]; a Uint8Array body is a stream's raw bytes after its
 * dictionary, given as [dict, bytes]). The xref offsets are counted here.
 */
export function buildPdf(bodies: (string | [string, Uint8Array])[], trailerExtra = ''): Uint8Array {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = chunks[0].length;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    chunks.push(b);
    length += b.length;
  };
  bodies.forEach((body, i) => {
    offsets.push(length);
    if (typeof body === 'string') push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1'));
    else {
      const [dict, bytes] = body;
      push(Buffer.from(`${i + 1} 0 obj\n${dict.replace('%LENGTH%', String(bytes.length))}\nstream\n`, 'latin1'));
      push(Buffer.from(bytes));
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xref = length;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${rows}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`,
      'latin1',
    ),
  );
  return new Uint8Array(Buffer.concat(chunks));
}

/** One line of a PDF page: its text, and the gap above it in points (14 is the next line of a paragraph). */
export type PdfLine = { text: string; gap?: number };

function pageContent(lines: PdfLine[]): string {
  let y = 740;
  const ops = lines.map((line, i) => {
    if (i > 0) y -= line.gap ?? 14;
    return `1 0 0 1 72 ${y} Tm ${pdfString(line.text)} Tj`;
  });
  return `BT /F1 12 Tf ${ops.join(' ')} ET`;
}

/** A PDF with a text layer (Helvetica, one content stream per page). */
export function textPdf(pages: PdfLine[][]): Uint8Array {
  const n = pages.length;
  // 1 catalog, 2 pages, 3 font, then a page and its content for each page.
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  const bodies: (string | [string, Uint8Array])[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${n} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  pages.forEach((lines, i) => {
    bodies.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    bodies.push(['<< /Length %LENGTH% >>', Buffer.from(pageContent(lines), 'latin1')]);
  });
  return buildPdf(bodies);
}

/** A scanned page: one picture (a grey pixel drawn over the page) and no text at all. */
export function imageOnlyPdf(): Uint8Array {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
    ['<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length %LENGTH% >>', new Uint8Array([128])],
    ['<< /Length %LENGTH% >>', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q', 'latin1')],
  ]);
}

/** RC4, the stream cipher of the PDF Standard security handler (revision 2). */
function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const PASSWORD_PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80,
  0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

const padded = (password: string) => {
  const bytes = Buffer.from(password, 'latin1').subarray(0, 32);
  return Buffer.concat([bytes, Buffer.from(PASSWORD_PAD.subarray(0, 32 - bytes.length))]);
};
const md5 = (...parts: Uint8Array[]) => {
  const hash = crypto.createHash('md5');
  for (const p of parts) hash.update(p);
  return new Uint8Array(hash.digest());
};
const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString('hex')}>`;

/** A one-page text PDF that opens only with `userPassword` (Standard security handler, R2, RC4 with a 40-bit key). */
export function encryptedPdf(text: string, userPassword = 'secret', ownerPassword = 'owner'): Uint8Array {
  const id = md5(Buffer.from('lectern-test-pdf'));
  const permissions = -4; // every permission
  const owner = rc4(md5(padded(ownerPassword)).subarray(0, 5), padded(userPassword)); // Algorithm 3
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = md5(padded(userPassword), owner, p, id).subarray(0, 5); // Algorithm 2
  const user = rc4(key, PASSWORD_PAD); // Algorithm 4
  const objectKey = (n: number) => md5(key, Uint8Array.from([n & 255, (n >> 8) & 255, (n >> 16) & 255, 0, 0])).subarray(0, 10);
  const content = rc4(objectKey(5), Buffer.from(pageContent([{ text }]), 'latin1'));
  return buildPdf(
    [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ['<< /Length %LENGTH% >>', content],
      `<< /Filter /Standard /V 1 /R 2 /O ${hex(owner)} /U ${hex(user)} /P ${permissions} >>`,
    ],
    `/Encrypt 6 0 R /ID [${hex(id)} ${hex(id)}] `,
  );
}

// ---- bad archives ---------------------------------------------------------------------------------------------

/** A zip whose one entry unpacks to `megabytes` MiB of zeros (about a thousand times its packed size). */
export function zipBomb(name: string, megabytes: number, extra: Zippable = {}): Uint8Array {
  return zipSync({ ...extra, [name]: new Uint8Array(megabytes * 1024 * 1024) }, { level: 9 });
}

/**
 * A zip that lies: its central directory says the last entry unpacks to `claimed` bytes, but it unpacks to far
 * more, so only a reader that counts while inflating notices.
 */
export function lyingZip(parts: Zippable, name: string, actual: Uint8Array, claimed = 1000): Uint8Array {
  const zip = Buffer.from(zipSync({ ...parts, [name]: actual }, { level: 9 }));
  // The last central directory record is the lying entry: patch its uncompressed size (offset 24) and the local
  // header's (offset 22).
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  let last = at;
  while (zip.readUInt32LE(at) === 0x02014b50) {
    last = at;
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  zip.writeUInt32LE(claimed, last + 24);
  zip.writeUInt32LE(claimed, zip.readUInt32LE(last + 42) + 22);
  return new Uint8Array(zip);
}

/** Zip `parts` and rename one entry to `badName` (fflate will not write such names itself). */
export function zipWithName(parts: Zippable, name: string, badName: string): Uint8Array {
  if (badName.length !== name.length) throw new Error('the names must be the same length');
  const zip = Buffer.from(zipSync(parts));
  const from = Buffer.from(name);
  for (let at = zip.indexOf(from); at >= 0; at = zip.indexOf(from, at + 1)) zip.write(badName, at, 'utf8');
  return new Uint8Array(zip);
}

export { strToU8, zipSync };
