/** Uploads: a teacher's own text as a private publication. */
export { registerUploadsApi, UPLOAD_MESSAGES, UPLOAD_EXTENSIONS, FORM_OVERHEAD_BYTES } from './http';
export { privateContentGate, canReadPrivate, PRIVATE_CACHE_CONTROL } from './access';
export { MAX_UPLOAD_BYTES, MAX_UPLOAD_PASSAGES, MAX_UPLOADS_PER_TEACHER } from './service';
export { splitUpload, PASSAGE_MIN_WORDS, PASSAGE_MAX_WORDS } from './split';
export { DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES, MAX_ARCHIVE_ENTRIES, MAX_ARCHIVE_UNPACKED_BYTES, MAX_ARCHIVE_RATIO } from './documents';
