/**
 * Limits for documents in (Word, EPUB, PDF uploads). Not in the spec; docs/decisions.md lists them.
 * The archive limits are checked against the zip's central directory before anything is inflated, and again
 * while inflating (an entry that inflates past the size its header declared is refused at that point).
 */

/** Largest .docx, .epub or .pdf a teacher may upload, in bytes (pictures make them much larger than text). @default 10 MiB */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Most entries a .docx or .epub archive may list. @default 2000 */
export const MAX_ARCHIVE_ENTRIES = 2000;
/** Most bytes all entries of an archive may unpack to, together. @default 64 MiB */
export const MAX_ARCHIVE_UNPACKED_BYTES = 64 * 1024 * 1024;
/** Highest unpacked/packed ratio of one entry, for entries that unpack past ARCHIVE_RATIO_FLOOR_BYTES. @default 100 */
export const MAX_ARCHIVE_RATIO = 100;
/** Entries smaller than this when unpacked are not held to MAX_ARCHIVE_RATIO (small XML parts pack very well). @default 1 MiB */
export const ARCHIVE_RATIO_FLOOR_BYTES = 1024 * 1024;
/** Most characters of text a document may give (about ten times what MAX_UPLOAD_PASSAGES can hold). @default 1,000,000 */
export const MAX_DOCUMENT_TEXT_CHARS = 1_000_000;
/** Deepest nesting of markup read: deeper XML is refused, deeper HTML is cut off (the walks recurse). @default 256 */
export const MAX_MARKUP_DEPTH = 256;
/** Most PDF pages read. @default 500 */
export const MAX_PDF_PAGES = 500;
