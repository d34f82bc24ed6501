/**
 * The catalog's Language and Level filters (SPEC §2 `languages`, `levels`) on GET /publications, on a
 * real server with the fixture library: Alpha Owls has en ORIGINAL, en GOLD, es ORIGINAL and ar ORIGINAL (and an
 * es GOLD source that is only built on demand); Beacon Bay has en SILVER; Cedar and Stone and the 20 fillers have
 * en ORIGINAL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { getJson, startFixtureServer } from './harness';

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server?.stop();
});

const get = (query: string) => getJson(server, `/api/v1/publications?pageSize=100&${query}`);
const titles = (body: { items: { title: string }[] }) => body.items.map((i) => i.title);

describe('GET /publications?languages=…&levels=…', () => {
  it('lists the titles with an edition in one of the chosen languages', async () => {
    const spanish = await get('languages=es');
    expect(spanish.status).toBe(200);
    expect(titles(spanish.body)).toEqual(['Alpha Owls at Night']);
    expect(spanish.body.total).toBe(1);
    expect(titles((await get('languages=ar,es')).body)).toEqual(['Alpha Owls at Night']);
    expect((await get('languages=en')).body.total).toBe(23);
    expect((await get('languages=ru')).body).toMatchObject({ items: [], total: 0 });
  });

  it('lists the titles with an edition at one of the chosen levels, in any case', async () => {
    expect(titles((await get('levels=SILVER')).body)).toEqual(['Beacon Bay']);
    expect(titles((await get('levels=gold,Silver')).body)).toEqual(['Alpha Owls at Night', 'Beacon Bay']);
    expect((await get('levels=ORIGINAL')).body.total).toBe(22);
  });

  it('needs one edition in a chosen language and at a chosen level', async () => {
    // Alpha Owls has Spanish (ORIGINAL) and GOLD (English), but no Spanish GOLD edition (only an unbuilt source).
    expect((await get('languages=es&levels=GOLD')).body).toMatchObject({ items: [], total: 0 });
    expect(titles((await get('languages=es&levels=GOLD,ORIGINAL')).body)).toEqual(['Alpha Owls at Night']);
    expect(titles((await get('languages=en&levels=GOLD')).body)).toEqual(['Alpha Owls at Night']);
  });

  it('combines with the search, the sort and the pages, counting only the matches', async () => {
    expect(titles((await get('languages=ar&search=owls')).body)).toEqual(['Alpha Owls at Night']);
    expect((await get('languages=ar&search=cedar')).body.total).toBe(0);
    const firstPage = await getJson(server, '/api/v1/publications?levels=ORIGINAL&languages=en&sort=title_z_a&pageSize=5&page=1');
    expect(firstPage.body.total).toBe(22);
    expect(titles(firstPage.body)).toEqual(['Zz Filler 20', 'Zz Filler 19', 'Zz Filler 18', 'Zz Filler 17', 'Zz Filler 16']);
    const lastPage = await getJson(server, '/api/v1/publications?levels=ORIGINAL&languages=en&sort=title_z_a&pageSize=5&page=5');
    expect(titles(lastPage.body)).toEqual(['Cedar and Stone', 'Alpha Owls at Night']);
  });

  it('treats an empty list as no filter, and ignores empty items and repeats', async () => {
    expect((await get('languages=&levels=')).body.total).toBe(23);
    expect(titles((await get('languages=es,,ES,&levels=original')).body)).toEqual(['Alpha Owls at Night']);
  });

  it('answers 400 naming the parameter for an unknown language or level', async () => {
    for (const [query, name] of [
      ['languages=fr', 'languages'],
      ['languages=es,klingon', 'languages'],
      ['levels=PLATINUM', 'levels'],
      ['levels=GOLD,1', 'levels'],
      [`languages=${'es,'.repeat(100)}`, 'languages'],
    ] as const) {
      const res = await get(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].code, query).toBe('invalid_parameter');
      expect(res.body.errors[0].message, query).toMatch(new RegExp(`^${name} must be`));
    }
    expect((await get('languages=fr')).body.errors[0].message).toBe('languages must be comma-separated values from en, es, ar, zh, vi, bn, fil, ur, ru, ha, pt');
  });
});
