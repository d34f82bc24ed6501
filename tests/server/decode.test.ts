/** GET /passages/{passageId}/decode (SPEC §4 Decode, §7) and the edition fields the import computes. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { stripDecodeMarkup } from '../../server/phonics';
import { getJson, licensedTeacher, startFixtureServer } from './harness';

let server: RunningServer;
/** Decode mode and GOLD need a license (src/domain/access.ts): these tests read as a teacher licensed with everything. */
let cookie: string;
beforeAll(async () => {
  server = await startFixtureServer();
  cookie = (await licensedTeacher(server)).cookie;
});
afterAll(async () => {
  await server?.stop();
});

const get = (p: string, init: RequestInit = {}) =>
  getJson(server, p, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: cookie, Origin: server.url } });

async function editions() {
  return (await get('/api/v1/publications/alpha-owls')).body.editions as any[];
}
async function passage(language: string, level: string, position: number) {
  const edition = (await editions()).find((e) => e.language.code === language && e.level === level);
  return (await get(`/api/v1/passages?editionId=${edition.id}&position=${position}`)).body;
}

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(res.body.errors[0].message).toBe(message);
  expect(typeof res.body.errors[0].code).toBe('string');
}

describe('editions', () => {
  it('have decode mode in English only', async () => {
    for (const e of await editions()) expect(e.decodeEnabled).toBe(e.language.code === 'en');
  });

  it('carry a computed readability figure with its formula, null where no formula applies', async () => {
    const all = await editions();
    const en = all.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL');
    const es = all.find((e) => e.language.code === 'es');
    const ar = all.find((e) => e.language.code === 'ar');
    expect(en.readabilityFormula).toBe('Flesch–Kincaid grade level');
    expect(typeof en.readabilityGrade).toBe('number');
    expect(Math.round(en.readabilityGrade * 10) / 10).toBe(en.readabilityGrade);
    expect(es.readabilityFormula).toBe('Fernández-Huerta reading ease');
    expect(typeof es.readabilityGrade).toBe('number');
    expect(ar.readabilityGrade).toBeNull();
    expect(ar.readabilityFormula).toBeNull();
    // Lexile stays what the content supplied.
    expect(en.lexileLevelFormatted).toBe('640L');
  });

  it('built on demand get the same fields', async () => {
    const res = await get('/api/v1/publications/alpha-owls/sources/on-demand', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'v1', languageCode: 'es', level: 'GOLD' }),
    });
    expect([200, 201]).toContain(res.status);
    expect(res.body.edition).toMatchObject({ decodeEnabled: false, readabilityFormula: 'Fernández-Huerta reading ease' });
    expect(typeof res.body.edition.readabilityGrade).toBe('number');
  });
});

describe('GET /passages/{passageId}/decode', () => {
  it('returns the English passage as decode markup, stores it, and GET /passages serves it afterwards', async () => {
    const before = await passage('en', 'ORIGINAL', 1);
    expect(before.textDecoded).toBeNull();
    const res = await get(`/api/v1/passages/${before.id}/decode?editionId=${before.editionId}&position=1`);
    expect(res.status).toBe(200);
    expect(res.body.passageId).toBe(before.id);
    const decoded: string = res.body.textDecoded;
    expect(decoded).toContain('<span class="dc-word">');
    expect(decoded).toContain('<span class="dc-word">n<span class="dc-team">igh</span>t</span>'); // Owls hunt at night …
    expect(stripDecodeMarkup(decoded)).toBe(before.text);
    const after = await passage('en', 'ORIGINAL', 1);
    expect(after.textDecoded).toBe(decoded);
    // Asked again, the stored text comes back.
    expect((await get(`/api/v1/passages/${before.id}/decode`)).body.textDecoded).toBe(decoded);
  });

  it('decodes a passage once however many ask at the same time', async () => {
    const p = await passage('en', 'GOLD', 2);
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(`/api/v1/passages/${p.id}/decode?editionId=${p.editionId}&position=2`)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body.textDecoded)).size).toBe(1);
  });

  it("answers 404 'Decode Mode not available' for a passage that is not English", async () => {
    const p = await passage('es', 'ORIGINAL', 1);
    expectError(await get(`/api/v1/passages/${p.id}/decode?editionId=${p.editionId}&position=1`), 404, 'Decode Mode not available');
    const ar = await passage('ar', 'ORIGINAL', 1);
    expectError(await get(`/api/v1/passages/${ar.id}/decode`), 404, 'Decode Mode not available');
  });

  it("answers 400 'passageId is required' for a missing or malformed passageId", async () => {
    for (const id of ['undefined', 'null', 'abc', '-1', '1.5', '']) {
      expectError(await get(`/api/v1/passages/${id}/decode`), 400, 'passageId is required');
    }
    expectError(await get('/api/v1/passages/decode'), 400, 'passageId is required');
  });

  it("answers 404 'Passage not found' for an unknown passage, or one that is not at the edition and position given", async () => {
    expectError(await get('/api/v1/passages/987654/decode'), 404, 'Passage not found');
    const p = await passage('en', 'ORIGINAL', 2);
    expectError(await get(`/api/v1/passages/${p.id}/decode?editionId=${p.editionId + 1000}`), 404, 'Passage not found');
    expectError(await get(`/api/v1/passages/${p.id}/decode?editionId=${p.editionId}&position=3`), 404, 'Passage not found');
  });

  it('answers 400 for a malformed editionId or position', async () => {
    const p = await passage('en', 'ORIGINAL', 2);
    expectError(await get(`/api/v1/passages/${p.id}/decode?editionId=x`), 400, 'editionId must be a whole number');
    expectError(await get(`/api/v1/passages/${p.id}/decode?position=two`), 400, 'position must be a whole number');
  });
});
