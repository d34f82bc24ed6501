/**
 * The uploads API (USER_UPLOAD), under /api/v1:
 *  - POST   /uploads              multipart/form-data: file (.txt/.md in UTF-8, .docx, .epub or .pdf), title?,
 *                                 language? → 201 Upload with notes (./documents reads the file)
 *  - GET    /uploads              the signed-in teacher's uploads → UploadList
 *  - DELETE /uploads/{slug}       remove one → 204
 *  - GET    /uploads/cover.svg    the cover every upload shows
 * Reading an upload goes through the ordinary content routes, guarded by ./access.ts.
 */
import crypto from 'node:crypto';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SlugSchema, UploadFieldsSchema, type UploadList } from '../../src/domain/schemas';
import type { Accounts } from '../auth';
import { requireSession } from '../auth/http';
import { featuresOf, getRole } from '../accounts/service';
import type { ContentStore } from '../content/store';
import type { NarrationService } from '../narration/queue';
import { HttpError, badRequest, fromZod, invalidParameters, notFound } from '../kit/errors';
import { TEXT_RULES, textProblem } from '../../src/domain/textRules';
import { param } from '../kit/validate';
import { splitUpload } from './split';
import { checkUploadedFile, DocumentProblem, DOCUMENT_EXTENSIONS, DOCUMENT_MESSAGES, MAX_DOCUMENT_BYTES, readDocument, type DocumentText } from './documents';
import {
  MAX_UPLOADS_PER_TEACHER,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_PASSAGES,
  UPLOAD_COVER_SVG,
  countUploads,
  createUpload,
  deleteUpload,
  listUploads,
} from './service';
import { NO_STORE } from '../kit/headers';

/** Room for the multipart framing and the small fields around the file. @default 16 KiB */
export const FORM_OVERHEAD_BYTES = 16 * 1024;
/** File names we take: text (.txt, .md, .markdown) and documents (.docx, .epub, .pdf). */
export const UPLOAD_EXTENSIONS = DOCUMENT_EXTENSIONS;

const kib = (n: number) => `${Math.round(n / 1024)} KB`;
const mib = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

export const UPLOAD_MESSAGES = {
  forbidden: 'Uploading needs a teacher account with a school license that includes USER_UPLOAD.',
  tooLarge: `The file is too large: the most is ${kib(MAX_UPLOAD_BYTES)}.`,
  bodyTooLarge: `The file is too large: the most is ${kib(MAX_UPLOAD_BYTES)} for a text file and ${mib(MAX_DOCUMENT_BYTES)} for a Word, EPUB or PDF document.`,
  notText: DOCUMENT_MESSAGES.notText,
  notMultipart: "Send the upload as multipart/form-data with the file in the field 'file'.",
  noFile: "Choose a file to upload (the field 'file').",
  empty: 'The file is empty: it has no text to read.',
  tooManyPassages: (n: number) => `The text makes ${n} passages; the most is ${MAX_UPLOAD_PASSAGES}. Upload a shorter text.`,
  limit: `You have ${MAX_UPLOADS_PER_TEACHER} uploads, the most a teacher can keep. Delete one to upload another.`,
  notFound: 'Upload not found',
} as const;

function error(status: 400 | 403 | 413 | 415 | 429, code: string, message: string): HttpError {
  return new HttpError(status, [{ code, message }]);
}

export interface UploadsDeps {
  accounts: Accounts;
  store: ContentStore;
  narration?: NarrationService;
}

function titleFromFileName(name: string): string {
  const base = name.replace(/\.[^.]*$/, '').replace(/[-_]+/g, ' ').trim();
  return base ? base.slice(0, 200) : 'Untitled';
}

/** A document refusal in the error shape; a 413 closes the connection, as the body limit's own 413 does. */
function problemAnswer(c: Context, problem: DocumentProblem) {
  const headers: Record<string, string> = { ...NO_STORE, ...(problem.status === 413 ? { Connection: 'close' } : {}) };
  return c.json({ errors: [{ code: problem.code, message: problem.message }] }, problem.status, headers);
}

export function registerUploadsApi(api: Hono<any>, deps: UploadsDeps): void {
  const { accounts, store, narration } = deps;
  const { auth, database } = accounts;
  const db = database.db;

  async function requireUploader(c: Context) {
    const { user } = await requireSession(auth, c);
    const [role, features] = await Promise.all([getRole(db, user.id), featuresOf(db, user.id)]);
    if (role !== 'TEACHER' || !features.includes('USER_UPLOAD')) throw error(403, 'forbidden', UPLOAD_MESSAGES.forbidden);
    return user;
  }

  api.get('/uploads/cover.svg', (c) =>
    c.body(UPLOAD_COVER_SVG, 200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'public, max-age=86400' }),
  );

  api.get('/uploads', async (c) => {
    const { user } = await requireSession(auth, c);
    const [role, features] = await Promise.all([getRole(db, user.id), featuresOf(db, user.id)]);
    const body: UploadList = {
      items: await listUploads(database, user.id),
      canUpload: role === 'TEACHER' && features.includes('USER_UPLOAD'),
      limits: { maxBytes: MAX_UPLOAD_BYTES, maxDocumentBytes: MAX_DOCUMENT_BYTES, maxPassages: MAX_UPLOAD_PASSAGES, maxUploads: MAX_UPLOADS_PER_TEACHER },
    };
    return c.json(body, 200, NO_STORE);
  });

  api.post(
    '/uploads',
    // Refuse an oversized body before reading it (also when it comes without a Content-Length).
    bodyLimit({
      maxSize: Math.max(MAX_UPLOAD_BYTES, MAX_DOCUMENT_BYTES) + FORM_OVERHEAD_BYTES,
      // The rest of the body is never read: close the connection so that no client reuses it.
      onError: (c) => c.json({ errors: [{ code: 'file_too_large', message: UPLOAD_MESSAGES.bodyTooLarge }] }, 413, { Connection: 'close' }),
    }),
    async (c) => {
      const user = await requireUploader(c);
      if ((await countUploads(database, user.id)) >= MAX_UPLOADS_PER_TEACHER) throw error(429, 'upload_limit', UPLOAD_MESSAGES.limit);
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw error(415, 'unsupported_media_type', UPLOAD_MESSAGES.notMultipart);
      }
      let form: Record<string, string | File>;
      try {
        form = (await c.req.parseBody()) as Record<string, string | File>;
      } catch (e) {
        if (e instanceof HttpError) throw e;
        throw badRequest(UPLOAD_MESSAGES.notMultipart);
      }
      const file = form.file;
      if (!(file instanceof File)) throw error(400, 'missing_file', UPLOAD_MESSAGES.noFile);
      // The text rule (src/domain/textRules.ts) for the form's own text: the edge reads JSON and forms, not multipart.
      const titleProblem = typeof form.title === 'string' ? textProblem(form.title, TEXT_RULES.title) : null;
      const nameProblem = textProblem(file.name, TEXT_RULES.line);
      const problems = [titleProblem && `title ${titleProblem}`, nameProblem && `The file name ${nameProblem}`].filter((p): p is string => !!p);
      if (problems.length) throw invalidParameters(problems);
      const fields = UploadFieldsSchema.safeParse({
        title: typeof form.title === 'string' && form.title.trim() ? form.title : undefined,
        language: typeof form.language === 'string' && form.language ? form.language : undefined,
      });
      if (!fields.success) throw fromZod(fields.error, form);
      // The kind and size the name claims are checked before the bytes are read; then ./documents reads them.
      let bytes: Uint8Array;
      let document: DocumentText;
      try {
        const kind = checkUploadedFile(file, MAX_UPLOAD_BYTES, UPLOAD_MESSAGES.tooLarge);
        bytes = new Uint8Array(await file.arrayBuffer());
        document = await readDocument(bytes, file.name, kind);
      } catch (e) {
        if (e instanceof DocumentProblem) return problemAnswer(c, e);
        throw e;
      }
      if (!document.source.replace(/^\uFEFF/, '').trim()) throw error(400, 'empty_file', UPLOAD_MESSAGES.empty);

      const { language } = fields.data;
      const split = splitUpload(document.source, language);
      if (!split.ok) throw new HttpError(400, split.reasons.map((message) => ({ code: 'invalid_text', message })));
      if (split.edition.passages.length > MAX_UPLOAD_PASSAGES) {
        throw error(400, 'too_many_passages', UPLOAD_MESSAGES.tooManyPassages(split.edition.passages.length));
      }
      const upload = await createUpload(database, {
        ownerUserId: user.id,
        ownerName: user.name,
        title: fields.data.title ?? titleFromFileName(file.name),
        language,
        edition: split.edition,
        hash: crypto.createHash('sha256').update(bytes).digest('hex'),
      });
      if (!upload) throw error(429, 'upload_limit', UPLOAD_MESSAGES.limit);
      await store.refreshRevision();
      // Narration: mark the edition voiced and queue its passages (each is also narrated on request).
      await narration?.libraryChanged();
      return c.json({ ...upload, notes: document.notes }, 201, NO_STORE);
    },
  );

  api.delete('/uploads/:slug', async (c) => {
    const { user } = await requireSession(auth, c);
    const slug = param(SlugSchema, c.req.param('slug'));
    if (!(await deleteUpload(database, user.id, slug))) throw notFound(UPLOAD_MESSAGES.notFound);
    await store.refreshRevision();
    return c.body(null, 204, NO_STORE);
  });
}
