/**
 * Read side of the library with an in-memory cache. Published content does not change within a version, so
 * every answer is computed once, serialised once and kept with its ETag; a warm passage read costs no database
 * round trip. The cache is dropped whenever the content revision changes (an import in this process, or one
 * seen by polling the revision when the database is shared).
 */
import { etagOf } from '../kit/etag';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { assets, editions, infoSections, passages, publications, qrCodes, shortcuts } from '../db/schema';
import { languageInfo, type LanguageCode } from '../../src/domain/languages';
import { LEVEL_ORDER, sortLevels, type Level } from '../../src/domain/levels';
import { searchableWords, words } from '../../src/domain/search';
import { stripTags } from '../../src/domain/sanitize';
import type { Edition, Excerpt, Passage, Publication, PublicationList, PublicationSummary, SortKey } from '../../src/domain/schemas';
import { readRevision } from './import';
import { PrefixIndex } from './searchIndex';

/** A JSON answer as the cache keeps it: the value, its serialised form and its ETag. */
export interface Cached<T> {
  value: T;
  json: string;
  etag: string;
}

/** An image as the cache keeps it: its bytes, their type and their ETag. */
export interface CachedAsset {
  contentType: string;
  data: Uint8Array;
  etag: string;
}

function cached<T>(value: T): Cached<T> {
  const json = JSON.stringify(value);
  return { value, json, etag: etagOf(json) };
}

/** A small LRU over Map insertion order. */
class Lru<K, V> {
  private map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  delete(key: K): void {
    this.map.delete(key);
  }
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

/** Most passages kept warm. Not in the spec. @default 50000 */
export const PASSAGE_CACHE_SIZE = 50_000;
/** Most publication details kept warm. @default 5000 */
export const PUBLICATION_CACHE_SIZE = 5_000;

/** Most images kept in memory. @default 2000 */
export const ASSET_CACHE_SIZE = 2_000;

interface CatalogEntry {
  /** Its number in CatalogIndex.entries (and in the search index). */
  n: number;
  summary: PublicationSummary;
  titleKey: string;
  authorKey: string;
  created: number;
  /** Its place in the title order (title, then slug); equal titles and slugs share a rank. */
  titleRank: number;
  /** Its editions, as 'language:LEVEL' (the Language and Level filters). */
  editionKeys: string[];
}

interface CatalogIndex {
  entries: CatalogEntry[];
  bySort: Record<SortKey, CatalogEntry[]>;
  /** The searchable words (title and author) of every entry, by entry number. */
  search: PrefixIndex;
}

/** One catalog row as the catalog query sends it (a JSON array, see loadCatalog). */
type CatalogRow = [
  id: number,
  slug: string,
  version: number,
  title: string,
  author: string,
  thumbnailImageUrl: string,
  badges: string[],
  renderingMode: PublicationSummary['renderingMode'],
  createdMs: number,
];

/**
 * The Language and Level filters as a test of a catalog entry: one of its editions is in a chosen language and at a
 * chosen level (an empty choice allows any). Undefined when nothing is chosen.
 */
function editionFilter(languages: readonly string[], levels: readonly string[]): ((entry: CatalogEntry) => boolean) | undefined {
  if (!languages.length && !levels.length) return undefined;
  return (entry) =>
    entry.editionKeys.some((key) => {
      const colon = key.indexOf(':');
      return (!languages.length || languages.includes(key.slice(0, colon))) && (!levels.length || levels.includes(key.slice(colon + 1)));
    });
}

/**
 * `sorted` sorted stably by some comparator, reversed as a stable sort by the opposite comparator would give it:
 * groups of equal entries (`same`) in reverse order, but each group in its first order.
 */
function reversedStable<T>(sorted: readonly T[], same: (a: T, b: T) => boolean): T[] {
  const out: T[] = new Array(sorted.length);
  let o = 0;
  let end = sorted.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && same(sorted[start - 1], sorted[end - 1])) start--;
    for (let i = start; i < end; i++) out[o++] = sorted[i];
    end = start;
  }
  return out;
}

/** What the gates (server/access) need to know of an edition: its language and level, and its title's badges. */
export interface EditionInfo {
  id: number;
  publicationId: number;
  passageCount: number;
  language: string;
  level: Level;
  /** The title's badges (`premium`: src/domain/access.ts). */
  badges: string[];
  /** The owner of a private publication (an upload), or null. */
  ownerUserId: string | null;
}

/** Who owns each private publication (server/uploads), by slug, edition id and passage id. */
export interface PrivateIndex {
  bySlug: Map<string, string>;
  byEdition: Map<number, string>;
  byPassage: Map<number, string>;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** The rows of `db.execute`: PGlite and node-postgres both answer `{ rows }`. */
function resultRows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

function versionLabel(v: number): string {
  return `v${v}`;
}

export class ContentStore {
  private catalog: Promise<CatalogIndex> | null = null;
  /** The searchable words of the titles in the last catalog built, by title and author (kept across builds). */
  private catalogWords = new Map<string, string[]>();
  private editionsById: Promise<Map<number, EditionInfo>> | null = null;
  private privateIndex: Promise<PrivateIndex> | null = null;
  private readonly publicationCache = new Lru<string, Cached<Publication> | null>(PUBLICATION_CACHE_SIZE);
  private readonly passageCache = new Lru<string, Cached<Passage>>(PASSAGE_CACHE_SIZE);
  private readonly excerptCache = new Lru<string, Cached<Excerpt> | null>(PUBLICATION_CACHE_SIZE);
  private readonly assetCache = new Lru<string, CachedAsset | null>(ASSET_CACHE_SIZE);
  private readonly passageEditionCache = new Lru<number, number>(PASSAGE_CACHE_SIZE);
  private revision = 0;

  constructor(private readonly database: Database) {}

  /** Drop every cached answer. */
  invalidate(): void {
    this.catalog = null;
    this.editionsById = null;
    this.privateIndex = null;
    this.publicationCache.clear();
    this.passageCache.clear();
    this.excerptCache.clear();
    this.assetCache.clear();
    this.passageEditionCache.clear();
  }

  /** Drop a publication's cached details, at every version (an edition's audio fields changed). */
  invalidatePublication(slug: string): void {
    for (const key of [...this.publicationCache.keys()]) {
      if (key.startsWith(`${slug}@`)) this.publicationCache.delete(key);
    }
  }

  get contentRevision(): number {
    return this.revision;
  }

  /** Read the revision; if it moved, drop the caches. Returns true when it changed. */
  async refreshRevision(): Promise<boolean> {
    const current = await readRevision(this.database);
    if (current !== this.revision) {
      this.revision = current;
      this.invalidate();
      this.warmCatalog();
      return true;
    }
    return false;
  }

  /**
   * Build the catalog now, in the background, so the first list or search after a revision change (the server's
   * start, an import) does not wait for it (docs/performance/search.md). A failure is left for the next list to
   * meet and report.
   */
  warmCatalog(): void {
    this.catalogIndex().catch(() => undefined);
  }

  private catalogIndex(): Promise<CatalogIndex> {
    this.catalog ??= this.loadCatalog().catch((e) => {
      this.catalog = null;
      throw e;
    });
    return this.catalog;
  }

  /**
   * The catalog: every public title once, at its latest version, in each sort order, with its search index.
   * Built on the first list after a revision change. Each table is read as one JSON value (one row, parsed
   * natively) rather than one row per title, which is what the database spends its time on at 10,000 titles:
   * the same rows, in the same order, as reading them row by row.
   */
  private async loadCatalog(): Promise<CatalogIndex> {
    const { db } = this.database;
    // Private uploads (an owner) are never in the catalog.
    const pubRows = await db.execute(sql`
      select coalesce(json_agg(json_build_array(
        ${publications.id}, ${publications.slug}, ${publications.version}, ${publications.title}, ${publications.author},
        ${publications.thumbnailImageUrl}, ${publications.badges}, ${publications.renderingMode},
        floor(extract(epoch from ${publications.createdAt}) * 1000)::float8
      ) order by ${publications.slug} asc, ${publications.version} desc), '[]')::text as catalog
      from ${publications} where ${publications.ownerUserId} is null`);
    const edRows = await db.execute(sql`
      select coalesce(json_agg(json_build_array(${editions.publicationId}, ${editions.language}, ${editions.level})), '[]')::text as editions
      from ${editions}`);
    const pubs = JSON.parse(resultRows<{ catalog: string }>(pubRows)[0].catalog) as CatalogRow[];
    const eds = JSON.parse(resultRows<{ editions: string }>(edRows)[0].editions) as [number, string, string][];
    const byPub = new Map<number, { language: string; level: string }[]>();
    for (const [publicationId, language, level] of eds) {
      const list = byPub.get(publicationId);
      if (list) list.push({ language, level });
      else byPub.set(publicationId, [{ language, level }]);
    }
    const seen = new Set<string>();
    const entries: CatalogEntry[] = [];
    const entryWords: string[][] = [];
    const wordsNow = new Map<string, string[]>();
    for (const [id, slug, version, title, author, thumbnailImageUrl, badges, renderingMode, createdMs] of pubs) {
      if (seen.has(slug)) continue; // the catalog lists each title once, at its latest version
      seen.add(slug);
      const createdAt = new Date(createdMs);
      const summary = this.toSummary({ id, slug, version, title, author, thumbnailImageUrl, badges, renderingMode, createdAt }, byPub.get(id) ?? []);
      const editionKeys = (byPub.get(id) ?? []).map((e) => `${e.language}:${e.level}`);
      entries.push({ n: entries.length, summary, titleKey: title, authorKey: author, created: createdMs, titleRank: 0, editionKeys });
      // Splitting words (Unicode lower-casing and normalisation) is the dearest step of the build: titles
      // unchanged since the last build keep their words.
      const key = `${title}\u0000${author}`;
      const known = this.catalogWords.get(key) ?? searchableWords(title, author);
      wordsNow.set(key, known);
      entryWords.push(known);
    }
    this.catalogWords = wordsNow;
    // The orders are those of a stable sort of `entries` by each comparator. Only two sorts compare strings: the
    // title order gives each entry a rank (ties share one), which the other orders compare instead of the title,
    // and the Z–A orders are the A–Z ones reversed, ties kept in their first order.
    const title = (a: CatalogEntry, b: CatalogEntry) => collator.compare(a.titleKey, b.titleKey) || collator.compare(a.summary.slug, b.summary.slug);
    const titleAZ = [...entries].sort(title);
    titleAZ.forEach((e, i) => {
      e.titleRank = i > 0 && title(titleAZ[i - 1], e) === 0 ? titleAZ[i - 1].titleRank : i;
    });
    const authorAZ = [...entries].sort((a, b) => collator.compare(a.authorKey, b.authorKey) || a.titleRank - b.titleRank);
    return {
      entries,
      bySort: {
        title_a_z: titleAZ,
        title_z_a: reversedStable(titleAZ, (a, b) => a.titleRank === b.titleRank),
        author_a_z: authorAZ,
        author_z_a: reversedStable(authorAZ, (a, b) => a.titleRank === b.titleRank && collator.compare(a.authorKey, b.authorKey) === 0),
        most_recent: [...entries].sort((a, b) => b.created - a.created || a.titleRank - b.titleRank),
      },
      search: new PrefixIndex(entryWords),
    };
  }

  private toSummary(
    p: Pick<typeof publications.$inferSelect, 'id' | 'slug' | 'version' | 'title' | 'author' | 'thumbnailImageUrl' | 'badges' | 'createdAt' | 'renderingMode'>,
    eds: { language: string; level: string }[],
  ): PublicationSummary {
    const languages = [...new Set(eds.map((e) => e.language))].map((code) => languageInfo(code as LanguageCode));
    const levels = sortLevels([...new Set(eds.map((e) => e.level as Level))]);
    return {
      id: p.id,
      slug: p.slug,
      version: versionLabel(p.version),
      title: p.title,
      author: p.author,
      thumbnailImageUrl: p.thumbnailImageUrl,
      badges: p.badges,
      createdAt: p.createdAt.toISOString(),
      renderingMode: p.renderingMode,
      levels,
      languages,
    };
  }

  /**
   * A page of the catalog; `only` narrows it to some titles (by publication id) before paging and counting, and
   * `languages` / `levels` (empty or absent: any) to the titles with one edition in a chosen language at a chosen
   * level (docs/decisions.md).
   */
  async list(query: {
    search?: string;
    sort: SortKey;
    page: number;
    pageSize: number;
    only?: (publicationId: number) => boolean;
    languages?: readonly string[];
    levels?: readonly Level[];
  }): Promise<PublicationList> {
    const index = await this.catalogIndex();
    const byId = query.only;
    const byEdition = editionFilter(query.languages ?? [], query.levels ?? []);
    const only = byId || byEdition ? (e: CatalogEntry) => (!byId || byId(e.summary.id)) && (!byEdition || byEdition(e)) : undefined;
    const sorted = index.bySort[query.sort];
    const q = words(query.search ?? '');
    const start = (query.page - 1) * query.pageSize;
    const end = start + query.pageSize;
    if (!q.length && !only) {
      return { items: sorted.slice(start, end).map((e) => e.summary), total: sorted.length, page: query.page, pageSize: query.pageSize };
    }
    // The search (src/domain/search.ts matchesWords) through the word index, then the filter, in sort order.
    const mask = q.length ? index.search.match(q) : null;
    const items: PublicationSummary[] = [];
    let total = 0;
    for (const e of sorted) {
      if (mask && mask[e.n] === 0) continue;
      if (only && !only(e)) continue;
      if (total >= start && total < end) items.push(e.summary);
      total++;
    }
    return { items, total, page: query.page, pageSize: query.pageSize };
  }

  private async loadEditions(): Promise<Map<number, EditionInfo>> {
    const rows = await this.database.db
      .select({
        id: editions.id,
        publicationId: editions.publicationId,
        passageCount: editions.passageCount,
        language: editions.language,
        level: editions.level,
        badges: publications.badges,
        ownerUserId: publications.ownerUserId,
      })
      .from(editions)
      .innerJoin(publications, eq(publications.id, editions.publicationId));
    return new Map(rows.map((r) => [r.id, { ...r, level: r.level as Level }]));
  }

  private async loadPrivateIndex(): Promise<PrivateIndex> {
    const rows = await this.database.db
      .select({ slug: publications.slug, owner: publications.ownerUserId, editionId: editions.id, passageId: passages.id })
      .from(publications)
      .leftJoin(editions, eq(editions.publicationId, publications.id))
      .leftJoin(passages, eq(passages.editionId, editions.id))
      .where(isNotNull(publications.ownerUserId));
    const index: PrivateIndex = { bySlug: new Map(), byEdition: new Map(), byPassage: new Map() };
    for (const r of rows) {
      index.bySlug.set(r.slug, r.owner!);
      if (r.editionId !== null) index.byEdition.set(r.editionId, r.owner!);
      if (r.passageId !== null) index.byPassage.set(r.passageId, r.owner!);
    }
    return index;
  }

  /** The owner of a private publication (by slug, edition id or passage id), or null for the public library. */
  async privateOwner(ref: { slug: string } | { editionId: number } | { passageId: number }): Promise<string | null> {
    this.privateIndex ??= this.loadPrivateIndex().catch((e) => {
      this.privateIndex = null;
      throw e;
    });
    const index = await this.privateIndex;
    if ('slug' in ref) return index.bySlug.get(ref.slug) ?? null;
    if ('editionId' in ref) return index.byEdition.get(ref.editionId) ?? null;
    return index.byPassage.get(ref.passageId) ?? null;
  }

  async edition(editionId: number): Promise<EditionInfo | undefined> {
    this.editionsById ??= this.loadEditions().catch((e) => {
      this.editionsById = null;
      throw e;
    });
    return (await this.editionsById).get(editionId);
  }

  /**
   * The edition of a passage, by passage id, for the gates of the by-id routes (audio, decode, speech marks); null
   * when there is no such passage. One read by primary key per id, then kept (misses are not kept: a passage may
   * appear with an import or an upload).
   */
  async editionOfPassage(passageId: number): Promise<EditionInfo | null> {
    let editionId = this.passageEditionCache.get(passageId);
    if (editionId === undefined) {
      const [row] = await this.database.db.select({ editionId: passages.editionId }).from(passages).where(eq(passages.id, passageId));
      if (!row) return null;
      editionId = row.editionId;
      this.passageEditionCache.set(passageId, editionId);
    }
    return (await this.edition(editionId)) ?? null;
  }

  async publication(slug: string, version?: number): Promise<Cached<Publication> | null> {
    const key = `${slug}@${version ?? 'latest'}`;
    const hit = this.publicationCache.get(key);
    if (hit !== undefined) return hit;
    const value = await this.loadPublication(slug, version);
    const entry = value ? cached(value) : null;
    this.publicationCache.set(key, entry);
    return entry;
  }

  private async loadPublication(slug: string, version?: number): Promise<Publication | null> {
    const { db } = this.database;
    const [p] = await db
      .select()
      .from(publications)
      .where(version === undefined ? eq(publications.slug, slug) : and(eq(publications.slug, slug), eq(publications.version, version)))
      .orderBy(desc(publications.version))
      .limit(1);
    if (!p) return null;
    const eds = await db.select().from(editions).where(eq(editions.publicationId, p.id));
    const cuts = eds.length
      ? await db
          .select()
          .from(shortcuts)
          .where(inArray(shortcuts.editionId, eds.map((e) => e.id)))
          .orderBy(asc(shortcuts.passage), asc(shortcuts.id))
      : [];
    const info = await db.select().from(infoSections).where(eq(infoSections.publicationId, p.id)).orderBy(asc(infoSections.position));
    const toEdition = (e: typeof editions.$inferSelect): Edition => ({
      id: e.id,
      language: languageInfo(e.language as LanguageCode),
      level: e.level as Level,
      passageCount: e.passageCount,
      audioEnabled: e.audioEnabled,
      decodeEnabled: e.decodeEnabled,
      highlightModeEnabled: e.highlightModeEnabled,
      audioTotalLength: e.audioTotalLength,
      metadata: { totalWords: e.totalWords, uniqueWords: e.uniqueWords },
      lexileLevelFormatted: e.lexile,
      shortcuts: cuts.filter((s) => s.editionId === e.id).map((s) => ({ name: s.name, passage: s.passage })),
      // a real column: round away float4 noise (3.8 reads back as 3.7999999)
      readabilityGrade: e.readabilityGrade === null ? null : Math.round(e.readabilityGrade * 10) / 10,
      readabilityFormula: e.readabilityFormula,
    });
    const langOrder = (code: string) => ['en', 'es', 'ar', 'zh', 'vi', 'bn', 'fil', 'ur', 'ru', 'ha', 'pt'].indexOf(code);
    const all = eds
      .map(toEdition)
      .sort((a, b) => langOrder(a.language.code) - langOrder(b.language.code) || LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level));
    const defaultReader = p.defaultReader as Publication['defaultReader'];
    const left = all.find((e) => e.language.code === defaultReader.left.language && e.level === defaultReader.left.level);
    return {
      ...this.toSummary(p, eds),
      editions: all,
      englishEditions: all.filter((e) => e.language.code === 'en'),
      shortcuts: left?.shortcuts ?? all[0]?.shortcuts ?? [],
      infoData: info.map((s) => ({ title: s.title, body: s.body })),
      defaultReader,
    };
  }

  async passage(editionId: number, position: number): Promise<Cached<Passage> | null> {
    const key = `${editionId}:${position}`;
    const hit = this.passageCache.get(key);
    if (hit) return hit;
    const edition = await this.edition(editionId);
    if (!edition || position < 1 || position > edition.passageCount) return null;
    const [row] = await this.database.db
      .select()
      .from(passages)
      .where(and(eq(passages.editionId, editionId), eq(passages.position, position)));
    if (!row) return null;
    const entry = cached<Passage>({
      id: row.id,
      editionId: row.editionId,
      position: row.position,
      text: row.text,
      textDecoded: row.textDecoded,
      imageUrl: row.imageUrl,
      imageAlt: row.imageAlt,
      partName: row.partName,
      sectionName: row.sectionName,
      audio: row.audioUrl ? { url: row.audioUrl, speechMarks: row.speechMarks ?? [] } : null,
      groupCodeRequired: false,
      licenseRequired: false,
    });
    this.passageCache.set(key, entry);
    return entry;
  }

  /** A passage by id with its edition's language, for decode mode (not cached: read once, then stored decoded). */
  async passageForDecode(
    passageId: number,
  ): Promise<{ id: number; editionId: number; position: number; text: string; textDecoded: string | null; language: string } | null> {
    const [row] = await this.database.db
      .select({
        id: passages.id,
        editionId: passages.editionId,
        position: passages.position,
        text: passages.text,
        textDecoded: passages.textDecoded,
        language: editions.language,
      })
      .from(passages)
      .innerJoin(editions, eq(editions.id, passages.editionId))
      .where(eq(passages.id, passageId));
    return row ?? null;
  }

  /** Store a passage's decoded text and drop its cached answer, so GET /passages returns it from now on. */
  async saveDecoded(passage: { id: number; editionId: number; position: number; text: string }, textDecoded: string): Promise<void> {
    // Only if the text is still the one decoded (an import may have replaced it meanwhile).
    await this.database.exclusive(() =>
      this.database.db
        .update(passages)
        .set({ textDecoded })
        .where(and(eq(passages.id, passage.id), eq(passages.text, passage.text))),
    );
    this.forgetPassage(passage.editionId, passage.position);
  }

  /** Drop one passage's cached answer. */
  forgetPassage(editionId: number, position: number): void {
    this.passageCache.delete(`${editionId}:${position}`);
  }

  async excerpt(
    slug: string,
    params: { version?: number; language?: LanguageCode; level?: Level; position?: number },
  ): Promise<Cached<Excerpt> | null | 'no-edition' | 'no-passage'> {
    const pub = await this.publication(slug, params.version);
    if (!pub) return null;
    const p = pub.value;
    const language = params.language ?? p.defaultReader.left.language;
    const level = params.level ?? (params.language ? undefined : p.defaultReader.left.level);
    const edition = p.editions.find((e) => e.language.code === language && (!level || e.level === level));
    if (!edition) return 'no-edition';
    const position = params.position ?? 1;
    const key = `${slug}@${p.version}:${edition.id}:${position}`;
    const hit = this.excerptCache.get(key);
    if (hit !== undefined) return hit ?? 'no-passage';
    const passage = await this.passage(edition.id, position);
    const entry = passage
      ? cached<Excerpt>({
          publicationSlug: p.slug,
          version: p.version,
          editionId: edition.id,
          language: edition.language,
          level: edition.level,
          position,
          passageCount: edition.passageCount,
          text: stripTags(passage.value.text),
          sectionName: passage.value.sectionName,
        })
      : null;
    this.excerptCache.set(key, entry);
    return entry ?? 'no-passage';
  }

  async qr(code: string): Promise<string | null> {
    const [row] = await this.database.db.select({ url: qrCodes.url }).from(qrCodes).where(eq(qrCodes.code, code.toLowerCase()));
    return row?.url ?? null;
  }

  async asset(path: string): Promise<CachedAsset | null> {
    const hit = this.assetCache.get(path);
    if (hit !== undefined) return hit;
    const [row] = await this.database.db.select().from(assets).where(eq(assets.path, path));
    const entry = row ? { contentType: row.contentType, data: row.data, etag: `"${row.sha256.slice(0, 32)}"` } : null;
    this.assetCache.set(path, entry);
    return entry;
  }
}
