/**
 * The catalog's search index (server/content/searchIndex.ts) and the catalog built for it (ContentStore.list)
 * answer exactly what the linear rule gives: src/domain/search.ts matchesWords over every title, then the sort
 * orders, the filter, the totals and the pages of the catalog as it was built before the index (kept below as the
 * reference, row by row from the database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asc, desc, isNull } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { editions, publications, user } from '../../server/db/schema';
import { bumpRevision } from '../../server/content/import';
import { ContentStore } from '../../server/content/store';
import { PrefixIndex } from '../../server/content/searchIndex';
import { matchesWords, searchableWords, words } from '../../src/domain/search';
import { languageInfo, type LanguageCode } from '../../src/domain/languages';
import { sortLevels, type Level } from '../../src/domain/levels';
import { SORT_KEYS, type PublicationList, type PublicationSummary, type SortKey } from '../../src/domain/schemas';

// Words chosen so that prefixes overlap ("the", "then", "theo"), case and accents fold ("Zoë", "Cómo"), other
// scripts split ("Жар-птица"), punctuation separates ("O'Hara", "keeper’s") and numbers compare numerically.
const VOCAB = [
  'the', 'The', 'then', 'Theo', 'fox', 'Fox', 'foxes', 'moon', 'moonlight', 'Zoë', 'zoe', 'Cómo', 'como', 'abejas',
  'Жар-птица', 'волк', 'النحل', 'العسل', "O'Hara", 'keeper’s', 'keepers', 'a', 'A', 'an', 'Lighthouse', 'light',
  '2', '10', '01', 'Book', 'book', 'x', 'ﬁsh', 'fish', 'Straße', 'strasse',
];

describe('PrefixIndex', () => {
  const word = fc.constantFrom(...VOCAB, 'b', 'zz', 'ö', 'жар', 'ال', '1', 'ﬁ');
  const entry = fc.tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.constantFrom(' ', '-', ', ')).map(([ws, sep]) => ws.join(sep));

  it('matches exactly the entries that matchesWords matches', () => {
    // Queries mostly from prefixes of the titles' own words, so that multi-word queries match something.
    const library = fc.array(fc.tuple(entry, entry), { minLength: 0, maxLength: 40 });
    const case_ = library.chain((titles) => {
      const own = [...new Set(titles.flatMap(([t, a]) => searchableWords(t, a)))];
      const prefix = own.length
        ? fc.constantFrom(...own).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n)))
        : word;
      const queryWord = fc.oneof({ weight: 4, arbitrary: prefix }, { weight: 1, arbitrary: word }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) });
      return fc.tuple(fc.constant(titles), fc.array(queryWord, { maxLength: 4 }));
    });
    fc.assert(
      fc.property(case_, ([titles, queryParts]) => {
        const entryWords = titles.map(([title, author]) => searchableWords(title, author));
        const q = words(queryParts.join(' '));
        const mask = new PrefixIndex(entryWords).match(q);
        expect([...mask]).toEqual(entryWords.map((ws) => (matchesWords(q, ws) ? 1 : 0)));
      }),
      { numRuns: 1000 },
    );
  });

  it('matches everything for an empty query and nothing for an empty catalog', () => {
    expect([...new PrefixIndex([['a'], ['b']]).match([])]).toEqual([1, 1]);
    expect([...new PrefixIndex([]).match(['a'])]).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The catalog before the index, as the reference.

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

interface ReferenceEntry {
  summary: PublicationSummary;
  words: string[];
  titleKey: string;
  authorKey: string;
  created: number;
}

async function referenceCatalog(database: Database): Promise<Record<SortKey, ReferenceEntry[]>> {
  const { db } = database;
  const pubs = await db.select().from(publications).where(isNull(publications.ownerUserId)).orderBy(asc(publications.slug), desc(publications.version));
  const eds = await db.select({ publicationId: editions.publicationId, language: editions.language, level: editions.level }).from(editions);
  const byPub = new Map<number, { language: string; level: string }[]>();
  for (const e of eds) {
    const list = byPub.get(e.publicationId) ?? [];
    list.push(e);
    byPub.set(e.publicationId, list);
  }
  const seen = new Set<string>();
  const entries: ReferenceEntry[] = [];
  for (const p of pubs) {
    if (seen.has(p.slug)) continue;
    seen.add(p.slug);
    const list = byPub.get(p.id) ?? [];
    const summary: PublicationSummary = {
      id: p.id,
      slug: p.slug,
      version: `v${p.version}`,
      title: p.title,
      author: p.author,
      thumbnailImageUrl: p.thumbnailImageUrl,
      badges: p.badges,
      createdAt: p.createdAt.toISOString(),
      renderingMode: p.renderingMode,
      levels: sortLevels([...new Set(list.map((e) => e.level as Level))]),
      languages: [...new Set(list.map((e) => e.language))].map((code) => languageInfo(code as LanguageCode)),
    };
    entries.push({ summary, words: searchableWords(p.title, p.author), titleKey: p.title, authorKey: p.author, created: p.createdAt.getTime() });
  }
  const by = (cmp: (a: ReferenceEntry, b: ReferenceEntry) => number) => [...entries].sort(cmp);
  const title = (a: ReferenceEntry, b: ReferenceEntry) => collator.compare(a.titleKey, b.titleKey) || collator.compare(a.summary.slug, b.summary.slug);
  const author = (a: ReferenceEntry, b: ReferenceEntry) => collator.compare(a.authorKey, b.authorKey) || title(a, b);
  return {
    title_a_z: by(title),
    title_z_a: by((a, b) => title(b, a)),
    author_a_z: by(author),
    author_z_a: by((a, b) => author(b, a)),
    most_recent: by((a, b) => b.created - a.created || title(a, b)),
  };
}

function referenceList(
  bySort: Record<SortKey, ReferenceEntry[]>,
  query: { search?: string; sort: SortKey; page: number; pageSize: number; only?: (id: number) => boolean },
): PublicationList {
  const only = query.only;
  const sorted = only ? bySort[query.sort].filter((e) => only(e.summary.id)) : bySort[query.sort];
  const q = words(query.search ?? '');
  const matched = q.length ? sorted.filter((e) => matchesWords(q, e.words)) : sorted;
  const start = (query.page - 1) * query.pageSize;
  return { items: matched.slice(start, start + query.pageSize).map((e) => e.summary), total: matched.length, page: query.page, pageSize: query.pageSize };
}

// ---------------------------------------------------------------------------------------------------------------
// A generated library with the awkward cases: equal titles (and slugs equal to the collator: `x-01`, `x-1`),
// equal dates, equal authors, older versions, private uploads, titles without editions.

/** mulberry32, so that the library is the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TITLE_COUNT = 400;
const LANGS = ['en', 'es', 'ar', 'zh', 'ru', 'pt'];
const LEVELS = ['ORIGINAL', 'GOLD', 'SILVER'];

let database: Database;
let store: ContentStore;
let reference: Record<SortKey, ReferenceEntry[]>;
let ids: number[];

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  const r = rng(7);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
  const phrase = (n: number) => Array.from({ length: n }, () => pick(VOCAB)).join(pick([' ', ' ', '-', ': ']));
  await database.db.insert(user).values({ id: 'teacher-1', name: 'T', email: 't@example.org' });
  const rows: (typeof publications.$inferInsert)[] = [];
  let prev: (typeof rows)[number] | undefined;
  for (let i = 0; i < TITLE_COUNT; i++) {
    // Every 17th title repeats the one before (equal titles); every 17th after it also has a slug the numeric
    // collator finds equal to the one before (t-016 after t-16: a tie in title and slug).
    const tie = i % 17 === 0 || i % 17 === 1;
    const title = tie && prev ? prev.title : phrase(1 + Math.floor(r() * 4));
    const author = i % 5 === 0 ? 'Zoë Moon' : phrase(2);
    const slug = i % 17 === 1 && prev ? `t-0${i - 1}` : `t-${i}`;
    const base = {
      slug,
      version: 1,
      title,
      author,
      thumbnailImageUrl: `/media/${slug}/v1/images/cover.svg`,
      badges: r() < 0.2 ? ['premium'] : [],
      renderingMode: r() < 0.3 ? ('ILLUSTRATED' as const) : ('DEFAULT' as const),
      defaultReader: { left: { language: 'en', level: 'ORIGINAL' }, right: { language: 'en', level: 'ORIGINAL' } },
      sourceHash: `h${i}`,
      // Whole days over about two months, with milliseconds on some: many equal dates.
      createdAt: new Date(Date.UTC(2025, 0, 1 + Math.floor(r() * 60)) + (r() < 0.2 ? Math.floor(r() * 1000) : 0)),
      ownerUserId: r() < 0.05 ? 'teacher-1' : null,
    };
    rows.push(base);
    prev = base;
    if (r() < 0.1) rows.push({ ...base, version: 2, title: phrase(2), sourceHash: `h${i}b` });
  }
  const inserted = await database.db.insert(publications).values(rows).returning({ id: publications.id });
  ids = inserted.map((x) => x.id);
  const edRows: (typeof editions.$inferInsert)[] = [];
  for (const { id } of inserted) {
    if (r() < 0.05) continue; // a title without editions
    const seen = new Set<string>();
    for (let k = 0; k < 1 + Math.floor(r() * 5); k++) {
      const language = pick(LANGS);
      const level = pick(LEVELS);
      if (seen.has(`${language}:${level}`)) continue;
      seen.add(`${language}:${level}`);
      edRows.push({ publicationId: id, language, level, passageCount: 1, totalWords: 1, uniqueWords: 1 });
    }
  }
  await database.db.insert(editions).values(edRows);
  await bumpRevision(database);
  store = new ContentStore(database);
  await store.refreshRevision();
  reference = await referenceCatalog(database);
});

afterAll(async () => {
  await database?.close();
});

describe('ContentStore.list with the search index', () => {
  it('pages the unsearched catalog in every order exactly as before', async () => {
    for (const sort of SORT_KEYS) {
      for (const pageSize of [1, 7, 100]) {
        for (const page of [1, 2, 5, 60, 500]) {
          const query = { sort, page, pageSize };
          expect(await store.list(query)).toEqual(referenceList(reference, query));
        }
      }
    }
  });

  it('answers every search, sort, page and filter exactly as the linear match over the old catalog', async () => {
    const known = [...new Set(reference.title_a_z.flatMap((e) => e.words))];
    const queryWord = fc.oneof(
      fc.constantFrom(...known),
      fc.constantFrom(...known).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n))),
      fc.constantFrom(...VOCAB),
      fc.string({ maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(queryWord, { maxLength: 3 }).map((ws) => ws.join(' ')),
        fc.constantFrom(...SORT_KEYS),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 5, 16, 100),
        fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }),
        async (search, sort, page, pageSize, modulo) => {
          const only = modulo === undefined ? undefined : (id: number) => id % modulo !== 0;
          const query = { search, sort, page, pageSize, only };
          expect(await store.list(query)).toEqual(referenceList(reference, query));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('keeps private uploads out and lists each title once, at its latest version', async () => {
    const all = await store.list({ sort: 'title_a_z', page: 1, pageSize: 100_000 });
    const slugs = all.items.map((i) => i.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(all.total).toBe(reference.title_a_z.length);
    expect(all.total).toBeLessThan(ids.length);
  });

  it('builds the catalog again after a revision change', async () => {
    const before = await store.list({ search: 'brand new', sort: 'title_a_z', page: 1, pageSize: 16 });
    expect(before.total).toBe(0);
    const [row] = await database.db
      .insert(publications)
      .values({
        slug: 'brand-new',
        version: 1,
        title: 'Brand New Title',
        author: 'Ann Other',
        thumbnailImageUrl: '/media/brand-new/v1/images/cover.svg',
        defaultReader: { left: { language: 'en', level: 'ORIGINAL' }, right: { language: 'en', level: 'ORIGINAL' } },
        sourceHash: 'new',
        createdAt: new Date(Date.UTC(2026, 0, 1)),
      })
      .returning({ id: publications.id });
    await database.db.insert(editions).values({ publicationId: row.id, language: 'es', level: 'GOLD', passageCount: 1, totalWords: 1, uniqueWords: 1 });
    await bumpRevision(database);
    expect(await store.refreshRevision()).toBe(true);
    const after = await store.list({ search: 'brand new', sort: 'most_recent', page: 1, pageSize: 16 });
    expect(after.total).toBe(1);
    expect(after.items[0]).toMatchObject({ slug: 'brand-new', languages: [{ code: 'es' }], levels: ['GOLD'] });
    reference = await referenceCatalog(database);
    const query = { search: 'b', sort: 'most_recent' as const, page: 1, pageSize: 100 };
    expect(await store.list(query)).toEqual(referenceList(reference, query));
  });
});
