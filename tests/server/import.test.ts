import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getJson, startFixtureServer, writeFixtureLibrary } from './harness';
import { readLibrary } from '../../server/content/read';
import type { RunningServer } from '../../server/server';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-import-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function counts(server: RunningServer) {
  const q = async (table: string) =>
    Number(((await server.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as any).rows[0].n);
  return {
    publications: await q('publications'),
    editions: await q('editions'),
    passages: await q('passages'),
    shortcuts: await q('shortcuts'),
    info: await q('info_sections'),
    qr: await q('qr_codes'),
    assets: await q('assets'),
  };
}

describe('the library in content/', () => {
  it('is valid: every title parses with no problems', () => {
    const library = readLibrary(path.resolve('content'));
    expect(library.problems).toEqual([]);
    expect(library.publications.length).toBeGreaterThanOrEqual(4);
  });

  it('has a title with all three English levels, one in Spanish and Arabic, and one ILLUSTRATED', () => {
    const { publications } = readLibrary(path.resolve('content'));
    const levelsOf = (p: (typeof publications)[number]) => new Set(p.editions.filter((e) => e.language === 'en').map((e) => e.level));
    expect(publications.some((p) => levelsOf(p).size === 3)).toBe(true);
    expect(publications.some((p) => p.editions.some((e) => e.language === 'es') && p.editions.some((e) => e.language === 'ar'))).toBe(true);
    expect(publications.some((p) => p.renderingMode === 'ILLUSTRATED' && p.editions[0].passages.every((x) => x.image))).toBe(true);
    expect(publications.some((p) => p.editions.some((e) => e.shortcuts.length > 1) && p.info.length > 0)).toBe(true);
  });
});

describe('importing is idempotent across restarts', () => {
  it('a restart on the same data dir keeps everything and duplicates nothing', async () => {
    const dataDir = path.join(tmp, 'data');
    const contentDir = path.resolve('content');
    const first = await startFixtureServer({ dataDir, contentDir });
    const before = await counts(first);
    const list1 = (await getJson(first, '/api/v1/publications')).body;
    const detail1 = (await getJson(first, `/api/v1/publications/${list1.items[0].slug}`)).body;
    const passage1 = (await getJson(first, `/api/v1/passages?editionId=${detail1.editions[0].id}&position=1`)).body;
    expect(first.importSummary!.added.length).toBe(before.publications);
    await first.stop();

    const second = await startFixtureServer({ dataDir, contentDir });
    try {
      expect(second.importSummary!.added).toEqual([]);
      expect(second.importSummary!.updated).toEqual([]);
      expect(second.importSummary!.unchanged.length).toBe(before.publications);
      expect(await counts(second)).toEqual(before);
      const detail2 = (await getJson(second, `/api/v1/publications/${list1.items[0].slug}`)).body;
      expect(detail2).toEqual(detail1);
      const passage2 = (await getJson(second, `/api/v1/passages?editionId=${detail1.editions[0].id}&position=1`)).body;
      expect(passage2).toEqual(passage1);
    } finally {
      await second.stop();
    }
  });

  it('a changed publication is updated in place, keeping ids, and the cache shows the change', async () => {
    const contentDir = writeFixtureLibrary(0);
    const dataDir = path.join(tmp, 'data2');
    const first = await startFixtureServer({ dataDir, contentDir });
    const detail = (await getJson(first, '/api/v1/publications/alpha-owls')).body;
    const edition = detail.editions.find((e: any) => e.language.code === 'en' && e.level === 'ORIGINAL');
    const p2 = (await getJson(first, `/api/v1/passages?editionId=${edition.id}&position=2`)).body;
    await first.stop();

    const file = path.join(contentDir, 'alpha-owls', 'en.ORIGINAL.md');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('They see well in the dark.', 'They see very well in the dark.') + '\n\n---\n\nA fourth passage.');
    fs.writeFileSync(path.join(contentDir, 'alpha-owls', 'en.GOLD.md'), 'Just one passage now.');
    const second = await startFixtureServer({ dataDir, contentDir });
    try {
      expect(second.importSummary!.updated).toEqual(['alpha-owls']);
      expect(second.importSummary!.unchanged.sort()).toEqual(['beacon-bay', 'cedar-and-stone']);
      const after = (await getJson(second, '/api/v1/publications/alpha-owls')).body;
      const edition2 = after.editions.find((e: any) => e.language.code === 'en' && e.level === 'ORIGINAL');
      expect(edition2.id).toBe(edition.id);
      expect(edition2.passageCount).toBe(4);
      expect(after.editions.find((e: any) => e.level === 'GOLD').passageCount).toBe(1);
      const changed = (await getJson(second, `/api/v1/passages?editionId=${edition.id}&position=2`)).body;
      expect(changed.id).toBe(p2.id);
      expect(changed.text).toBe('<p>They see very well in the dark.</p>');
      expect((await getJson(second, `/api/v1/passages?editionId=${edition.id}&position=4`)).body.text).toBe('<p>A fourth passage.</p>');
      const gold = after.editions.find((e: any) => e.level === 'GOLD');
      expect((await getJson(second, `/api/v1/passages?editionId=${gold.id}&position=2`)).status).toBe(404);
    } finally {
      await second.stop();
    }
  });

  it('a library with a problem loads nothing', async () => {
    const contentDir = writeFixtureLibrary(0);
    fs.writeFileSync(path.join(contentDir, 'beacon-bay', 'en.SILVER.md'), 'Fine.\n\n---\n---\nBroken.');
    const server = await startFixtureServer({ contentDir });
    try {
      expect(server.importSummary).toBeNull();
      expect((await getJson(server, '/api/v1/publications')).body.total).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
