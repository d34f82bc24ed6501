/**
 * Uploads in the database: a teacher's text becomes a private publication (publications.owner_user_id) with one
 * ORIGINAL edition. Written in one transaction, then the content revision is bumped so every cache drops.
 */
import crypto from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { editions, publications } from '../db/schema';
import { bumpRevision, editionRow, insertEdition, readerUrl } from '../content/import';
import type { ParsedEdition } from '../content/parse';
import type { LanguageCode } from '../../src/domain/languages';
import type { Upload } from '../../src/domain/schemas';

/** Largest file a teacher may upload, in bytes. Not in the spec. @default 256 KiB */
export const MAX_UPLOAD_BYTES = 256 * 1024;
/** Most passages one upload may make (each is narrated). Not in the spec. @default 100 */
export const MAX_UPLOAD_PASSAGES = 100;
/** Most uploads one teacher may keep at a time (delete one to make room). Not in the spec. @default 20 */
export const MAX_UPLOADS_PER_TEACHER = 20;
/** The cover every upload shows (served by GET /api/v1/uploads/cover.svg). */
export const UPLOAD_COVER_URL = '/api/v1/uploads/cover.svg';
export const UPLOAD_COVER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 400"><rect width="300" height="400" fill="#1f4e5f"/>' +
  '<rect x="40" y="90" width="220" height="14" rx="7" fill="#e8f1f2"/><rect x="40" y="130" width="180" height="14" rx="7" fill="#e8f1f2"/>' +
  '<rect x="40" y="170" width="200" height="14" rx="7" fill="#e8f1f2"/><rect x="40" y="210" width="120" height="14" rx="7" fill="#e8f1f2"/></svg>';

const SLUG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** upload-<10 random letters and digits>: never a library slug (the library has no 'upload-' titles). */
export function newUploadSlug(): string {
  const bytes = crypto.randomBytes(10);
  return `upload-${[...bytes].map((b) => SLUG_ALPHABET[b % SLUG_ALPHABET.length]).join('')}`;
}

type UploadRow = {
  id: number;
  slug: string;
  title: string;
  createdAt: Date;
  editionId: number;
  language: string;
  passageCount: number;
  totalWords: number;
};

function toUpload(r: UploadRow): Upload {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    language: r.language as LanguageCode,
    editionId: r.editionId,
    passageCount: r.passageCount,
    totalWords: r.totalWords,
    createdAt: r.createdAt.toISOString(),
    readerUrl: readerUrl(r.slug, 1, r.language, 'ORIGINAL', 1),
  };
}

const uploadColumns = {
  id: publications.id,
  slug: publications.slug,
  title: publications.title,
  createdAt: publications.createdAt,
  editionId: editions.id,
  language: editions.language,
  passageCount: editions.passageCount,
  totalWords: editions.totalWords,
};

export async function listUploads(database: Database, ownerUserId: string): Promise<Upload[]> {
  const rows = await database.db
    .select(uploadColumns)
    .from(publications)
    .innerJoin(editions, eq(editions.publicationId, publications.id))
    .where(eq(publications.ownerUserId, ownerUserId))
    .orderBy(desc(publications.createdAt), desc(publications.id));
  return rows.map(toUpload);
}

export async function countUploads(database: Database, ownerUserId: string): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(publications).where(eq(publications.ownerUserId, ownerUserId));
  return row?.n ?? 0;
}

/** Store an upload. Returns null when the teacher already holds MAX_UPLOADS_PER_TEACHER (checked inside the lock). */
export async function createUpload(
  database: Database,
  input: { ownerUserId: string; ownerName: string; title: string; language: LanguageCode; edition: ParsedEdition; hash: string },
): Promise<Upload | null> {
  return database.exclusive(async () => {
    if ((await countUploads(database, input.ownerUserId)) >= MAX_UPLOADS_PER_TEACHER) return null;
    const slug = newUploadSlug();
    const now = new Date();
    const { edition, language } = input;
    const row = await database.db.transaction(async (tx) => {
      const [p] = await tx
        .insert(publications)
        .values({
          slug,
          version: 1,
          title: input.title,
          author: input.ownerName,
          thumbnailImageUrl: UPLOAD_COVER_URL,
          badges: [],
          renderingMode: 'DEFAULT',
          defaultReader: { left: { language, level: 'ORIGINAL' }, right: { language, level: 'ORIGINAL' } },
          sourceHash: input.hash,
          createdAt: now,
          updatedAt: now,
          ownerUserId: input.ownerUserId,
        })
        .returning({ id: publications.id });
      // An upload has no illustrations and no Lexile.
      const editionId = await insertEdition(
        tx,
        editionRow(p.id, { ...edition, language, level: 'ORIGINAL', origin: 'content', lexile: null }),
        { passages: edition.passages.map((x) => ({ ...x, imageUrl: null, imageAlt: null })), shortcuts: edition.shortcuts },
      );
      return { id: p.id, editionId };
    });
    await bumpRevision(database);
    return toUpload({
      id: row.id,
      slug,
      title: input.title,
      createdAt: now,
      editionId: row.editionId,
      language,
      passageCount: edition.passages.length,
      totalWords: edition.totalWords,
    });
  });
}

/** Delete one of the teacher's uploads (editions and passages go with it). Returns false when it is not theirs. */
export async function deleteUpload(database: Database, ownerUserId: string, slug: string): Promise<boolean> {
  return database.exclusive(async () => {
    const gone = await database.db
      .delete(publications)
      .where(and(eq(publications.slug, slug), eq(publications.ownerUserId, ownerUserId)))
      .returning({ id: publications.id });
    if (gone.length) await bumpRevision(database);
    return gone.length > 0;
  });
}
