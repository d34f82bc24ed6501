/**
 * Why a document cannot be read: an HTTP status, a stable code and a message a teacher can act on. Thrown by the
 * detection and by each format's reader; the uploads route answers it in the ordinary error shape.
 */
import { MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_UNPACKED_BYTES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_TEXT_CHARS } from './limits';

export type DocumentKind = 'text' | 'docx' | 'epub' | 'pdf';

export class DocumentProblem extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** What a teacher calls each kind of file. */
export const KIND_NAMES: Record<DocumentKind, string> = {
  text: 'a plain-text or Markdown file',
  docx: 'a Word document (.docx)',
  epub: 'an EPUB',
  pdf: 'a PDF',
};

const SHORT_NAMES: Record<DocumentKind, string> = { text: 'file', docx: 'Word document', epub: 'EPUB', pdf: 'PDF' };

export const ACCEPTED_FORMATS = 'a Word (.docx), EPUB (.epub), PDF (.pdf), plain-text (.txt) or Markdown (.md) file';

export const DOCUMENT_MESSAGES = {
  notText: 'The file is not text: upload a plain-text (.txt) or Markdown (.md) file in UTF-8.',
  unsupportedType: `This kind of file cannot be uploaded: upload ${ACCEPTED_FORMATS}.`,
  oldWord: 'Old Word documents (.doc) cannot be read: save it as a Word document (.docx) and upload that.',
  mismatch: (name: string, claimed: DocumentKind, actual: DocumentKind | null) =>
    `The file's contents do not match its name or type: “${name}” is named as ${KIND_NAMES[claimed]}, but it is ${
      actual ? KIND_NAMES[actual] : 'not a file we can read'
    }.`,
  tooLarge: `The document is too large: the most is ${mb(MAX_DOCUMENT_BYTES)}.`,
  corrupt: (kind: DocumentKind) => `The file is damaged: it cannot be opened as ${KIND_NAMES[kind]}.`,
  archiveTooLarge: `The file unpacks to too much data (more than ${mb(MAX_ARCHIVE_UNPACKED_BYTES)}, ${MAX_ARCHIVE_ENTRIES} parts, or a part that grows far too much), so it is refused.`,
  unsafeArchive: 'The file holds parts with unsafe names (leading out of the archive with ../ or an absolute path), so it is refused.',
  encryptedArchive: 'The file is encrypted (password-protected), so its text cannot be read. Save an unprotected copy and upload that.',
  drm: 'This EPUB is protected by DRM (encryption), so its text cannot be read. Upload a DRM-free EPUB.',
  notEpub: 'The EPUB has no readable package (META-INF/container.xml and its OPF), so it cannot be opened.',
  passwordWord:
    'This Word document is protected by a password (or is an old .doc renamed), so its text cannot be read. Save it as a .docx without a password and upload that.',
  passwordPdf: 'This PDF is protected by a password, so its text cannot be read. Save a copy without the password and upload that.',
  noTextLayer:
    'This PDF has no text to read: it looks scanned (pictures of pages). Upload a PDF with a text layer (run it through text recognition first) or a Word file.',
  noText: (kind: DocumentKind) => `The file has no text to read: this ${SHORT_NAMES[kind]} holds only pictures or empty pages.`,
  tooLong: `The document has more text than an upload can hold (over ${MAX_DOCUMENT_TEXT_CHARS.toLocaleString('en')} characters). Upload a part of it.`,
} as const;

/** A note about what an upload left out (the 201 answer lists them; the upload page shows them). */
export interface UploadNote {
  code: string;
  message: string;
}

export function imagesDropped(count: number): UploadNote {
  return {
    code: 'images_dropped',
    message: `${count === 1 ? '1 picture was' : `${count} pictures were`} left out: uploads keep the text only.`,
  };
}
