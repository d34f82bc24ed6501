/**
 * What kind of file an upload is. Its name says what it claims to be (and a specific Content-Type must agree);
 * its first bytes say what it is: `%PDF-` for a PDF, a zip (`PK\x03\x04`) with a `mimetype` entry of
 * application/epub+zip for an EPUB or a `word/document.xml` for a Word document, UTF-8 text for .txt and .md.
 * A file whose bytes are not what its name or type claims is refused (415 file_type_mismatch). Opening a zip here
 * already runs the archive checks of ./zip.ts.
 */
import { DocumentProblem, DOCUMENT_MESSAGES, type DocumentKind } from './problems';
import { looksLikeZip, openZip, type ZipArchive } from './zip';

const BY_EXTENSION: Record<string, DocumentKind | 'doc'> = {
  '.txt': 'text',
  '.md': 'text',
  '.markdown': 'text',
  '.docx': 'docx',
  '.epub': 'epub',
  '.pdf': 'pdf',
  '.doc': 'doc',
};

/** Content-Types that name one kind; any other (octet-stream, none, a browser's guess for .md) claims nothing. */
const BY_CONTENT_TYPE: Record<string, DocumentKind> = {
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/x-markdown': 'text',
  'application/pdf': 'pdf',
  'application/epub+zip': 'epub',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** File name endings the upload takes. */
export const DOCUMENT_EXTENSIONS = Object.keys(BY_EXTENSION).filter((e) => e !== '.doc');
/** Content-Types the upload page offers to the file chooser. */
export const DOCUMENT_CONTENT_TYPES = Object.keys(BY_CONTENT_TYPE);

export type Detected = { kind: 'text'; text: string } | { kind: 'pdf' } | { kind: 'docx' | 'epub'; zip: ZipArchive };

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot).toLowerCase() : '';
}

/** The file as text, or null when it is not UTF-8 text (invalid bytes, or NUL / control bytes of a binary file). */
export function asText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000E-\u001A\u001C-\u001F]/.test(text)) return null;
  return text;
}

/** An OLE compound file: what Word writes for a password-protected document (and for an old .doc). */
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const looksLikeCompoundFile = (bytes: Uint8Array) => bytes.length >= 8 && COMPOUND_FILE.every((b, i) => bytes[i] === b);

const looksLikePdf = (bytes: Uint8Array) =>
  bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;

/** What the name (and Content-Type) claim. Refuses names we do not take and types that contradict the name. */
export function claimedKind(name: string, contentType: string): DocumentKind {
  const byName = BY_EXTENSION[extensionOf(name)];
  if (!byName) throw new DocumentProblem(415, 'unsupported_file_type', DOCUMENT_MESSAGES.unsupportedType);
  if (byName === 'doc') throw new DocumentProblem(415, 'unsupported_file_type', DOCUMENT_MESSAGES.oldWord);
  const byType = BY_CONTENT_TYPE[contentType.split(';')[0].trim().toLowerCase()];
  if (byType && byType !== byName) throw new DocumentProblem(415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch(name, byName, byType));
  return byName;
}

/** Check the bytes against the claimed kind and open them as that kind. */
export function detect(bytes: Uint8Array, name: string, claimed: DocumentKind): Detected {
  const mismatch = (actual: DocumentKind | null) => new DocumentProblem(415, 'file_type_mismatch', DOCUMENT_MESSAGES.mismatch(name, claimed, actual));
  const pdf = looksLikePdf(bytes);
  const zip = looksLikeZip(bytes);
  if (claimed === 'text') {
    if (pdf) throw mismatch('pdf');
    if (zip) throw mismatch(null);
    const text = asText(bytes);
    if (text === null) throw new DocumentProblem(415, 'unsupported_file_type', DOCUMENT_MESSAGES.notText);
    return { kind: 'text', text };
  }
  if (claimed === 'pdf') {
    if (!pdf) throw mismatch(zip ? null : asText(bytes) !== null ? 'text' : null);
    return { kind: 'pdf' };
  }
  if (claimed === 'docx' && looksLikeCompoundFile(bytes)) throw new DocumentProblem(422, 'password_protected', DOCUMENT_MESSAGES.passwordWord);
  if (!zip) throw mismatch(pdf ? 'pdf' : asText(bytes) !== null ? 'text' : null);
  const archive = openZip(bytes, claimed);
  const isEpub = archive.text('mimetype')?.trim() === 'application/epub+zip';
  const isDocx = archive.has('word/document.xml');
  const actual: DocumentKind | null = isEpub ? 'epub' : isDocx ? 'docx' : null;
  if (actual !== claimed) throw mismatch(actual);
  return { kind: claimed, zip: archive };
}
