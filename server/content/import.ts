/**
 * Loads parsed publications into the database. Idempotent: an unchanged publication (same source hash) is
 * skipped; a changed one is updated in place so that edition and passage ids stay stable; nothing is deleted
 * that the import does not replace. Each publication is written in one transaction.
 */
import { and, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { assets, contentRevision, editionSources, editions, infoSections, passages, publications, qrCodes, shortcuts, type StoredEditionSource } from '../db/schema';
import type { ParsedEdition, ParsedPublication } from './parse';
import { editionReadability } from '../readability';

/** What the import computes for an edition from its text: decode mode (English only) and the readability figure. */
export function derivedEditionFields(language: string, passagesHtml: readonly string[]) {
  const readability = editionReadability(language, passagesHtml);
  return {
    decodeEnabled: language === 'en',
    readabilityGrade: readability?.grade ?? null,
    readabilityFormula: readability?.formula ?? null,
  };
}

/** A transaction of the database (what `db.transaction` hands its callback). */
type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

/** The editions row of an edition: its counts, and what derivedEditionFields computes from its text. */
export function editionRow(
  publicationId: number,
  edition: {
    language: string;
    level: string;
    origin: 'content' | 'source' | 'translation';
    passages: readonly { html: string }[];
    totalWords: number;
    uniqueWords: number;
    lexile: string | null;
  },
) {
  return {
    publicationId,
    language: edition.language,
    level: edition.level,
    passageCount: edition.passages.length,
    totalWords: edition.totalWords,
    uniqueWords: edition.uniqueWords,
    lexile: edition.lexile,
    origin: edition.origin,
    ...derivedEditionFields(edition.language, edition.passages.map((p) => p.html)),
  };
}

/** Write an edition's shortcuts (none is nothing). */
async function insertShortcuts(tx: Tx, editionId: number, list: readonly { name: string; passage: number }[]): Promise<void> {
  if (list.length) await tx.insert(shortcuts).values(list.map((s) => ({ editionId, name: s.name, passage: s.passage })));
}

/** Insert a new edition with its passages (images already as URLs) and shortcuts; returns its id. */
export async function insertEdition(
  tx: Tx,
  row: ReturnType<typeof editionRow>,
  content: Pick<StoredEditionSource, 'passages' | 'shortcuts'>,
): Promise<number> {
  const [e] = await tx.insert(editions).values(row).returning({ id: editions.id });
  await tx.insert(passages).values(
    content.passages.map((p) => ({
      editionId: e.id,
      position: p.position,
      text: p.html,
      imageUrl: p.imageUrl,
      imageAlt: p.imageAlt,
      partName: p.partName,
      sectionName: p.sectionName,
    })),
  );
  await insertShortcuts(tx, e.id, content.shortcuts);
  return e.id;
}

export interface ImportSummary {
  added: string[];
  updated: string[];
  unchanged: string[];
  passages: number;
}

export function mediaUrl(slug: string, version: number, file: string): string {
  return `/media/${slug}/v${version}/${file}`;
}

export function readerUrl(slug: string, version: number, language: string, level: string, position: number): string {
  return `/${slug}/v${version}/${language}:${level}/${position}`.toLowerCase();
}

export function toStoredSource(pub: Pick<ParsedPublication, 'slug' | 'version'>, edition: ParsedEdition): StoredEditionSource {
  return {
    passages: edition.passages.map((p) => ({
      position: p.position,
      html: p.html,
      imageUrl: p.image ? mediaUrl(pub.slug, pub.version, p.image) : null,
      imageAlt: p.imageAlt,
      partName: p.partName,
      sectionName: p.sectionName,
    })),
    shortcuts: edition.shortcuts,
    totalWords: edition.totalWords,
    uniqueWords: edition.uniqueWords,
    lexile: edition.lexile,
  };
}

/**
 * Insert a built edition (from a source or a translation) with its passages and shortcuts. Returns its id, or the
 * id of the edition that already exists.
 */
export async function insertBuiltEdition(
  database: Database,
  publicationId: number,
  language: string,
  level: string,
  built: StoredEditionSource,
  origin: 'source' | 'translation',
): Promise<{ id: number; created: boolean }> {
  return database.exclusive(() =>
    database.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: editions.id })
        .from(editions)
        .where(and(eq(editions.publicationId, publicationId), eq(editions.language, language), eq(editions.level, level)));
      if (existing) return { id: existing.id, created: false };
      const id = await insertEdition(tx, editionRow(publicationId, { ...built, language, level, origin }), built);
      await tx
        .insert(contentRevision)
        .values({ id: 1, revision: 1 })
        .onConflictDoUpdate({ target: contentRevision.id, set: { revision: sql`${contentRevision.revision} + 1`, updatedAt: new Date() } });
      return { id, created: true };
    }),
  );
}

async function importOne(database: Database, pub: ParsedPublication): Promise<'added' | 'updated' | 'unchanged'> {
  const { db } = database;
  const [existing] = await db
    .select({ id: publications.id, sourceHash: publications.sourceHash })
    .from(publications)
    .where(and(eq(publications.slug, pub.slug), eq(publications.version, pub.version)));
  if (existing && existing.sourceHash === pub.hash) return 'unchanged';

  await db.transaction(async (tx) => {
    const values = {
      slug: pub.slug,
      version: pub.version,
      title: pub.title,
      author: pub.author,
      thumbnailImageUrl: mediaUrl(pub.slug, pub.version, pub.cover),
      badges: pub.badges,
      renderingMode: pub.renderingMode,
      defaultReader: pub.defaultReader,
      sourceHash: pub.hash,
      createdAt: pub.createdAt,
      updatedAt: new Date(),
    };
    const [row] = await tx
      .insert(publications)
      .values(values)
      .onConflictDoUpdate({ target: [publications.slug, publications.version], set: values })
      .returning({ id: publications.id });
    const publicationId = row.id;

    const editionIds: number[] = [];
    for (const edition of pub.editions) {
      const editionValues = editionRow(publicationId, { ...edition, origin: 'content' });
      const [e] = await tx
        .insert(editions)
        .values(editionValues)
        .onConflictDoUpdate({ target: [editions.publicationId, editions.language, editions.level], set: editionValues })
        .returning({ id: editions.id });
      editionIds.push(e.id);

      // Upsert passages by position; derived data (audio, marks) survives only if the text is unchanged. Decoded
      // text is dropped on every re-import (it is rebuilt on request), so that a new decoder, shipped with a bump of
      // IMPORT_FORMAT_VERSION, replaces it.
      await tx
        .insert(passages)
        .values(
          edition.passages.map((p) => ({
            editionId: e.id,
            position: p.position,
            text: p.html,
            imageUrl: p.image ? mediaUrl(pub.slug, pub.version, p.image) : null,
            imageAlt: p.imageAlt,
            partName: p.partName,
            sectionName: p.sectionName,
          })),
        )
        .onConflictDoUpdate({
          target: [passages.editionId, passages.position],
          set: {
            text: sql`excluded.text`,
            imageUrl: sql`excluded.image_url`,
            imageAlt: sql`excluded.image_alt`,
            partName: sql`excluded.part_name`,
            sectionName: sql`excluded.section_name`,
            textDecoded: sql`null`,
            audioUrl: sql`case when ${passages.text} = excluded.text then ${passages.audioUrl} else null end`,
            speechMarks: sql`case when ${passages.text} = excluded.text then ${passages.speechMarks} else null end`,
          },
        });
      await tx.delete(passages).where(and(eq(passages.editionId, e.id), gt(passages.position, edition.passages.length)));
      await tx.delete(shortcuts).where(eq(shortcuts.editionId, e.id));
      await insertShortcuts(tx, e.id, edition.shortcuts);
    }
    // Editions that left the content go; editions built on demand stay while their source does (or for good,
    // when a translation provider built them).
    const sourceKeys = new Set(pub.sources.map((s) => `${s.language}:${s.level}`));
    const stale = await tx
      .select({ id: editions.id, language: editions.language, level: editions.level, origin: editions.origin })
      .from(editions)
      .where(and(eq(editions.publicationId, publicationId), notInArray(editions.id, editionIds)));
    const remove = stale.filter((e) => e.origin === 'content' || (e.origin === 'source' && !sourceKeys.has(`${e.language}:${e.level}`)));
    if (remove.length) await tx.delete(editions).where(inArray(editions.id, remove.map((e) => e.id)));

    await tx.delete(editionSources).where(eq(editionSources.publicationId, publicationId));
    for (const source of pub.sources) {
      await tx.insert(editionSources).values({ publicationId, language: source.language, level: source.level, edition: toStoredSource(pub, source) });
    }

    await tx.delete(infoSections).where(eq(infoSections.publicationId, publicationId));
    if (pub.info.length) {
      await tx.insert(infoSections).values(pub.info.map((s, i) => ({ publicationId, position: i + 1, title: s.title, body: s.body })));
    }

    await tx.delete(qrCodes).where(eq(qrCodes.publicationId, publicationId));
    for (const qr of pub.qr) {
      const qrValues = { code: qr.code, publicationId, url: readerUrl(pub.slug, pub.version, qr.language, qr.level, qr.position) };
      await tx.insert(qrCodes).values(qrValues).onConflictDoUpdate({ target: qrCodes.code, set: qrValues });
    }

    await tx.delete(assets).where(eq(assets.publicationId, publicationId));
    for (const asset of pub.assets) {
      const assetValues = {
        path: `${pub.slug}/v${pub.version}/${asset.path}`,
        publicationId,
        contentType: asset.contentType,
        data: asset.data,
        sha256: asset.sha256,
      };
      await tx.insert(assets).values(assetValues).onConflictDoUpdate({ target: assets.path, set: assetValues });
    }
  });
  return existing ? 'updated' : 'added';
}

export async function bumpRevision(database: Database): Promise<void> {
  await database.db
    .insert(contentRevision)
    .values({ id: 1, revision: 1 })
    .onConflictDoUpdate({ target: contentRevision.id, set: { revision: sql`${contentRevision.revision} + 1`, updatedAt: new Date() } });
}

export async function readRevision(database: Database): Promise<number> {
  const [row] = await database.db.select({ revision: contentRevision.revision }).from(contentRevision).where(eq(contentRevision.id, 1));
  return row?.revision ?? 0;
}

export async function importLibrary(
  database: Database,
  library: readonly ParsedPublication[],
  onProgress?: (done: number, total: number, slug: string, outcome: string) => void,
): Promise<ImportSummary> {
  return database.exclusive(async () => {
    const summary: ImportSummary = { added: [], updated: [], unchanged: [], passages: 0 };
    let i = 0;
    for (const pub of library) {
      const outcome = await importOne(database, pub);
      summary[outcome].push(pub.slug);
      summary.passages += pub.editions.reduce((n, e) => n + e.passages.length, 0);
      onProgress?.(++i, library.length, pub.slug, outcome);
    }
    if (summary.added.length || summary.updated.length) await bumpRevision(database);
    return summary;
  });
}
