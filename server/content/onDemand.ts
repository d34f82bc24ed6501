/** Builds a missing edition on demand: from a source in content/ (sources/), or through a translation provider. */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { editionSources, editions, passages, publications, shortcuts, type StoredEditionSource } from '../db/schema';
import { insertBuiltEdition } from './import';
import { escapeHtml, wordStats } from './text';
import { stripTags } from '../../src/domain/sanitize';
import { LEVEL_ORDER, type Level } from '../../src/domain/levels';
import type { LanguageCode } from '../../src/domain/languages';
import type { TranslationProvider } from './translation';

export type OnDemandResult =
  | { kind: 'exists'; editionId: number }
  | { kind: 'built'; editionId: number; origin: 'source' | 'translation' }
  | { kind: 'no-publication' }
  | { kind: 'unavailable' };

export async function buildOnDemand(
  database: Database,
  provider: TranslationProvider | null,
  request: { slug: string; version: number; language: LanguageCode; level: Level },
): Promise<OnDemandResult> {
  const { db } = database;
  const [pub] = await db
    .select({ id: publications.id, defaultReader: publications.defaultReader })
    .from(publications)
    .where(and(eq(publications.slug, request.slug), eq(publications.version, request.version)));
  if (!pub) return { kind: 'no-publication' };
  const [existing] = await db
    .select({ id: editions.id })
    .from(editions)
    .where(and(eq(editions.publicationId, pub.id), eq(editions.language, request.language), eq(editions.level, request.level)));
  if (existing) return { kind: 'exists', editionId: existing.id };

  const [source] = await db
    .select()
    .from(editionSources)
    .where(and(eq(editionSources.publicationId, pub.id), eq(editionSources.language, request.language), eq(editionSources.level, request.level)));
  if (source) {
    const { id, created } = await insertBuiltEdition(database, pub.id, request.language, request.level, source.edition, 'source');
    return created ? { kind: 'built', editionId: id, origin: 'source' } : { kind: 'exists', editionId: id };
  }

  if (!provider) return { kind: 'unavailable' };
  // Translate the edition at the same level when there is one, else the nearest level, else the default edition.
  const all = await db.select().from(editions).where(eq(editions.publicationId, pub.id));
  const base =
    all.find((e) => e.level === request.level && e.language === 'en') ??
    all.find((e) => e.level === request.level) ??
    [...all].sort(
      (a, b) =>
        Math.abs(LEVEL_ORDER.indexOf(a.level as Level) - LEVEL_ORDER.indexOf(request.level)) -
        Math.abs(LEVEL_ORDER.indexOf(b.level as Level) - LEVEL_ORDER.indexOf(request.level)),
    )[0];
  if (!base) return { kind: 'unavailable' };
  const rows = await db.select().from(passages).where(eq(passages.editionId, base.id)).orderBy(asc(passages.position));
  const cuts = await db.select().from(shortcuts).where(eq(shortcuts.editionId, base.id));
  // Plain paragraphs, one per line, entities decoded.
  const plain = rows.map((r) =>
    r.text
      .split('</p>')
      .map((p) => stripTags(p))
      .filter(Boolean)
      .join('\n'),
  );
  let translated: string[];
  try {
    translated = await provider.translate(plain, base.language as LanguageCode, request.language);
  } catch {
    return { kind: 'unavailable' };
  }
  if (translated.length !== rows.length || translated.some((t) => !t.trim())) return { kind: 'unavailable' };
  const stats = wordStats(translated, request.language);
  const built: StoredEditionSource = {
    passages: rows.map((r, i) => ({
      position: r.position,
      html: translated[i]
        .split(/\n+/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join(''),
      imageUrl: r.imageUrl,
      imageAlt: r.imageAlt,
      partName: r.partName,
      sectionName: r.sectionName,
    })),
    shortcuts: cuts.map((c) => ({ name: c.name, passage: c.passage })),
    totalWords: stats.totalWords,
    uniqueWords: stats.uniqueWords,
    lexile: null,
  };
  const { id, created } = await insertBuiltEdition(database, pub.id, request.language, request.level, built, 'translation');
  return created ? { kind: 'built', editionId: id, origin: 'translation' } : { kind: 'exists', editionId: id };
}
