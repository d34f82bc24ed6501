/**
 * Documents in: a teacher's file, whatever its format, becomes the upload Markdown that server/uploads/split.ts
 * splits into passages, plus notes on what was left out. Text files pass through as they are; Word, EPUB and PDF
 * are detected (./detect.ts), read by their own module, and written as headings and paragraphs
 * (./outline.ts). Every refusal is a DocumentProblem; nothing is stored until the whole file has been read.
 */
import { readDocx } from './docx';
import { readEpub } from './epub';
import { claimedKind, detect } from './detect';
import { MAX_DOCUMENT_BYTES, MAX_DOCUMENT_TEXT_CHARS } from './limits';
import { hasText, toUploadSource } from './outline';
import { readPdf } from './pdf';
import { DocumentProblem, DOCUMENT_MESSAGES, imagesDropped, type DocumentKind, type UploadNote } from './problems';

export interface DocumentText {
  kind: DocumentKind;
  /** The text in the upload Markdown (docs/content-format.md, "Uploads"). */
  source: string;
  notes: UploadNote[];
}

export interface UploadedFile {
  name: string;
  /** The Content-Type the file came with ('' when none). */
  type: string;
  size: number;
}

/** The claimed kind of an upload, and the size it may have: refuses before the bytes are read. */
export function checkUploadedFile(file: UploadedFile, maxTextBytes: number, tooLargeText: string): DocumentKind {
  const kind = claimedKind(file.name, file.type);
  if (kind === 'text' && file.size > maxTextBytes) throw new DocumentProblem(413, 'file_too_large', tooLargeText);
  if (kind !== 'text' && file.size > MAX_DOCUMENT_BYTES) throw new DocumentProblem(413, 'file_too_large', DOCUMENT_MESSAGES.tooLarge);
  return kind;
}

export async function readDocument(bytes: Uint8Array, name: string, kind: DocumentKind): Promise<DocumentText> {
  const detected = detect(bytes, name, kind);
  if (detected.kind === 'text') return { kind: 'text', source: detected.text, notes: [] };
  const { blocks, pictures } =
    detected.kind === 'pdf' ? { ...(await readPdf(bytes)), pictures: 0 } : detected.kind === 'docx' ? await readDocx(detected.zip) : readEpub(detected.zip);
  if (!hasText(blocks)) throw new DocumentProblem(400, 'empty_file', DOCUMENT_MESSAGES.noText(detected.kind));
  const source = toUploadSource(blocks);
  if (source.length > MAX_DOCUMENT_TEXT_CHARS) throw new DocumentProblem(400, 'document_too_long', DOCUMENT_MESSAGES.tooLong);
  return { kind: detected.kind, source, notes: pictures ? [imagesDropped(pictures)] : [] };
}

export { DocumentProblem, DOCUMENT_MESSAGES, type DocumentKind, type UploadNote } from './problems';
export { DOCUMENT_EXTENSIONS, DOCUMENT_CONTENT_TYPES } from './detect';
export * from './limits';
