/** POST /publications/{slug}/sources/on-demand: missing editions built from a source, a provider, or not at all. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import type { TranslationProvider } from '../../server/content/translation';
import { entitledCookie, getJson, startFixtureServer, writeFixtureLibrary } from './harness';

/**
 * GOLD and Russian need a license (src/domain/access.ts), and the server builds only what the asker could read:
 * these tests ask as a teacher licensed with everything, one per server.
 */

const post = async (server: RunningServer, slug: string, body: unknown, raw = false, signedIn = true) =>
  getJson(server, `/api/v1/publications/${slug}/sources/on-demand`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signedIn ? { Cookie: await entitledCookie(server), Origin: server.url } : {}) },
    body: raw ? (body as string) : JSON.stringify(body),
  });

const read = async (server: RunningServer, pathname: string) => getJson(server, pathname, { headers: { Cookie: await entitledCookie(server) } });

describe('on-demand editions without a translation provider', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server?.stop());

  it('builds an edition from its source in the library, once', async () => {
    const before = (await getJson(server, '/api/v1/publications/alpha-owls')).body;
    expect(before.editions.some((e: any) => e.language.code === 'es' && e.level === 'GOLD')).toBe(false);
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'es', level: 'gold' });
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(true);
    expect(res.body.edition).toMatchObject({ level: 'GOLD', passageCount: 3, language: { code: 'es' }, shortcuts: [{ name: 'Capítulo 1', passage: 1 }, { name: 'Capítulo 2', passage: 3 }] });
    const after = (await getJson(server, '/api/v1/publications/alpha-owls')).body;
    const built = after.editions.find((e: any) => e.language.code === 'es' && e.level === 'GOLD');
    expect(built.id).toBe(res.body.edition.id);
    const passage = await read(server, `/api/v1/passages?editionId=${built.id}&position=2`);
    expect(passage.body.text).toBe('<p>Ven en la noche.</p>');
    const again = await post(server, 'alpha-owls', { version: 1, languageCode: 'es', level: 'GOLD' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, edition: { id: built.id } });
  });

  it('refuses to build an edition the asker could not read (403 license_required), and builds free ones for anyone', async () => {
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'es', level: 'GOLD' }, false, false);
    expect(res.status).toBe(403);
    expect(res.body.errors[0]).toEqual({ code: 'license_required', message: 'This content requires a School License' });
    const free = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'en', level: 'ORIGINAL' }, false, false);
    expect(free.status).toBe(200);
  });

  it("answers 404 'Passage not found' when there is no source and no provider", async () => {
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'ru', level: 'GOLD' });
    expect(res.status).toBe(404);
    expect(res.body.errors[0].message).toBe('Passage not found');
  });

  it('answers an existing edition with 200', async () => {
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'en', level: 'ORIGINAL' });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(false);
  });

  it('rejects bad requests with the error shape', async () => {
    const cases: [unknown, boolean, number, RegExp][] = [
      ['not json', true, 400, /must be JSON/],
      [{ languageCode: 'es', level: 'GOLD' }, false, 400, /version is required/],
      [{ version: 'v1', level: 'GOLD' }, false, 400, /languageCode is required/],
      [{ version: 'v1', languageCode: 'es', level: 'BRONZE' }, false, 400, /level/],
      [{ version: 'one', languageCode: 'es', level: 'GOLD' }, false, 400, /publicationVersion must be 'v' followed by digits|version/],
      [{ version: 'v1', languageCode: 'xx', level: 'GOLD' }, false, 400, /languageCode/],
      [[], false, 400, /./],
    ];
    for (const [body, raw, status, message] of cases) {
      const res = await post(server, 'alpha-owls', body, raw);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.errors[0].message).toMatch(message);
    }
    const unknown = await post(server, 'no-such-book', { version: 'v1', languageCode: 'es', level: 'GOLD' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].message).toBe('Publication not found');
    expect((await post(server, 'alpha-owls', { version: 'v9', languageCode: 'es', level: 'GOLD' })).status).toBe(404);
  });
});

describe('on-demand editions through a translation provider (a test double at the port)', () => {
  const calls: { from: string; to: string; passages: readonly string[] }[] = [];
  const provider: TranslationProvider = {
    name: 'test-double',
    async translate(passages, from, to) {
      calls.push({ from, to, passages });
      return passages.map((p) => `[${to}] ${p}`);
    },
  };
  let server: RunningServer;
  beforeAll(async () => {
    server = await startFixtureServer({ translationProvider: provider });
  });
  afterAll(() => server?.stop());

  it('translates the edition at that level passage by passage and keeps sections', async () => {
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'ru', level: 'GOLD' });
    expect(res.status).toBe(201);
    expect(calls).toEqual([{ from: 'en', to: 'ru', passages: ['Owls hunt at night.', 'Owls see in the dark.', 'Owls sleep in the day.'] }]);
    const passage = await read(server, `/api/v1/passages?editionId=${res.body.edition.id}&position=1`);
    expect(passage.body).toMatchObject({ text: '<p>[ru] Owls hunt at night.</p>', sectionName: 'Chapter 1' });
  });

  it('prefers a source in the library over the provider', async () => {
    calls.length = 0;
    const res = await post(server, 'alpha-owls', { version: 'v1', languageCode: 'es', level: 'GOLD' });
    expect(res.status).toBe(201);
    expect(calls).toEqual([]);
  });
});

describe('editions built on demand survive a restart', () => {
  it('keeps them after the library is imported again, and drops one whose source is gone when the title changes', async () => {
    const contentDir = writeFixtureLibrary(0);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-ondemand-'));
    const first = await startFixtureServer({ dataDir, contentDir });
    const built = await post(first, 'alpha-owls', { version: 'v1', languageCode: 'es', level: 'GOLD' });
    await first.stop();
    const second = await startFixtureServer({ dataDir, contentDir });
    const detail = (await getJson(second, '/api/v1/publications/alpha-owls')).body;
    expect(detail.editions.map((e: any) => e.id)).toContain(built.body.edition.id);
    await second.stop();
    fs.rmSync(path.join(contentDir, 'alpha-owls', 'sources'), { recursive: true });
    const third = await startFixtureServer({ dataDir, contentDir });
    const changed = (await getJson(third, '/api/v1/publications/alpha-owls')).body;
    expect(changed.editions.map((e: any) => e.id)).not.toContain(built.body.edition.id);
    await third.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
