/**
 * First-party analytics: POST /api/v1/events against a real server and database (validation, limits,
 * the class owner, what is stored), the retention job and `npm run admin -- events summary`.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { RunningServer } from '../../server/server';
import { analyticsEvents } from '../../server/db/schema';
import { ANALYTICS_CLOCK_WINDOW_MS, ANALYTICS_RETENTION_DAYS, deleteExpiredEvents, startRetentionJob } from '../../server/analytics/service';
import { runAdmin } from '../../server/admin/commands';
import { classCodeFor } from '../../server/accounts/service';
import { getJson, licensedTeacher, silentLogger, startFixtureServer } from './harness';

let server: RunningServer;
let teacherId: string;
let classCode: string;

beforeAll(async () => {
  server = await startFixtureServer();
  const teacher = await licensedTeacher(server);
  teacherId = teacher.userId;
  classCode = (await classCodeFor(server.database.db, teacherId))!;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const now = () => new Date().toISOString();

function post(body: unknown, headers: Record<string, string> = {}) {
  return getJson(server, '/api/v1/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function storedFor(clientId: string) {
  return server.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.clientId, clientId)).orderBy(analyticsEvents.id);
}

async function editionIdOf(slug: string): Promise<{ publicationId: number; editionId: number }> {
  const publication = (await getJson(server, `/api/v1/publications/${slug}`)).body;
  return { publicationId: publication.id, editionId: publication.editions[0].id };
}

describe('POST /api/v1/events', () => {
  it('stores a valid batch: names, times, the publication (by slug), edition, position and seconds', async () => {
    const clientId = crypto.randomUUID();
    const { publicationId, editionId } = await editionIdOf('alpha-owls');
    const at = new Date(Date.now() - 5000).toISOString();
    const res = await post({
      clientId,
      events: [
        { name: 'Visited URL', at },
        { name: 'Viewed Catalog', at },
        { name: 'Viewed Novel', at, publication: 'alpha-owls' },
        { name: 'Viewed Passage', at, publication: 'alpha-owls', editionId, position: 2 },
        { name: 'Paused Audio', at, publication: 'alpha-owls', editionId, position: 2, seconds: 42 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ accepted: 5 });
    const rows = await storedFor(clientId);
    expect(rows.map((r) => r.name)).toEqual(['Visited URL', 'Viewed Catalog', 'Viewed Novel', 'Viewed Passage', 'Paused Audio']);
    expect(rows[0]).toMatchObject({ publicationId: null, editionId: null, position: null, seconds: null, classOwnerId: null });
    expect(rows[2]).toMatchObject({ publicationId, editionId: null });
    expect(rows[3]).toMatchObject({ publicationId, editionId, position: 2, seconds: null });
    expect(rows[4]).toMatchObject({ publicationId, editionId, position: 2, seconds: 42 });
    expect(rows[0]!.at.toISOString()).toBe(at);
  });

  it('stores no IP address, user id or free text: the row has only the event columns', async () => {
    const clientId = crypto.randomUUID();
    const res = await post({ clientId, events: [{ name: 'Viewed Catalog', at: now() }] }, { 'X-Forwarded-For': '203.0.113.7' });
    expect(res.status).toBe(202);
    const [row] = await storedFor(clientId);
    expect(Object.keys(row!).sort()).toEqual(['at', 'classOwnerId', 'clientId', 'editionId', 'id', 'name', 'position', 'publicationId', 'seconds'].sort());
    const columns = await server.database.db.execute(sql`select column_name from information_schema.columns where table_name = 'analytics_events'`);
    const names = (columns as unknown as { rows: { column_name: string }[] }).rows.map((r) => r.column_name);
    expect(names.some((n) => /ip|user_id|url|text/i.test(n))).toBe(false);
    expect(JSON.stringify(row)).not.toContain('203.0.113.7');
  });

  it('accepts text/plain, as sendBeacon sends it', async () => {
    const clientId = crypto.randomUUID();
    const res = await post(JSON.stringify({ clientId, events: [{ name: 'Closed Audio Player', at: now(), seconds: 3 }] }), { 'Content-Type': 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(202);
    expect((await storedFor(clientId)).map((r) => r.seconds)).toEqual([3]);
  });

  it('refuses an unknown event name with 400', async () => {
    const clientId = crypto.randomUUID();
    const res = await post({ clientId, events: [{ name: 'Viewed Everything', at: now() }] });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].code).toBe('invalid_parameter');
    expect(res.body.errors[0].message).toMatch(/^events\.0\.name/);
    expect(await storedFor(clientId)).toEqual([]);
  });

  it('refuses extra keys and free text with 400', async () => {
    const clientId = crypto.randomUUID();
    for (const body of [
      { clientId, events: [{ name: 'Visited URL', at: now(), url: '/catalog?search=my name is Ada' }] },
      { clientId, events: [{ name: 'Viewed Catalog', at: now() }], userId: 'user-1' },
      { clientId, events: [{ name: 'Viewed Novel', at: now(), publication: 'Not a slug, a sentence' }] },
      { clientId, events: [{ name: 'Viewed Catalog', at: now(), seconds: 5 }] },
      { clientId: 'ada@example.org', events: [{ name: 'Viewed Catalog', at: now() }] },
      { clientId, events: [{ name: 'Viewed Catalog', at: 'yesterday' }] },
      { clientId, events: [] },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
    expect((await post('not json')).status).toBe(400);
    expect((await post('{}', { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect(await storedFor(clientId)).toEqual([]);
  });

  it('refuses a body over 10 KB with 413', async () => {
    const clientId = crypto.randomUUID();
    const body = JSON.stringify({ clientId, events: [{ name: 'Viewed Catalog', at: now() }], padding: 'x'.repeat(11 * 1024) });
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(res.body.errors[0]).toEqual({ code: 'payload_too_large', message: expect.stringMatching(/larger than 10 KB/) });
  });

  it('allows one request a second per client id: the second within the second is 429', async () => {
    const clientId = crypto.randomUUID();
    const batch = { clientId, events: [{ name: 'Viewed Catalog', at: now() }] };
    expect((await post(batch)).status).toBe(202);
    const second = await post(batch);
    expect(second.status).toBe(429);
    expect(second.body.errors[0]).toEqual({ code: 'rate_limited', message: 'Too many event batches from this client: send at most one a second.' });
    expect(second.headers.get('retry-after')).toBe('1');
    // Another client is not held back by this one.
    expect((await post({ ...batch, clientId: crypto.randomUUID() })).status).toBe(202);
    expect(await storedFor(clientId)).toHaveLength(1);
  });

  it("records the class code's teacher from X-Group-Code (or the body's groupCode); an invalid code records none", async () => {
    const viaHeader = crypto.randomUUID();
    expect((await post({ clientId: viaHeader, events: [{ name: 'Viewed Catalog', at: now() }] }, { 'X-Group-Code': classCode.toLowerCase() })).status).toBe(202);
    expect((await storedFor(viaHeader))[0]!.classOwnerId).toBe(teacherId);

    const viaBody = crypto.randomUUID();
    expect((await post({ clientId: viaBody, groupCode: classCode, events: [{ name: 'Viewed Catalog', at: now() }] }, { 'Content-Type': 'text/plain' })).status).toBe(202);
    expect((await storedFor(viaBody))[0]!.classOwnerId).toBe(teacherId);

    const invalid = crypto.randomUUID();
    const res = await post({ clientId: invalid, events: [{ name: 'Viewed Catalog', at: now() }] }, { 'X-Group-Code': 'ZZZZ9999' });
    expect(res.status).toBe(202);
    expect((await storedFor(invalid))[0]!.classOwnerId).toBeNull();
  });

  it("clamps a client's time into the window the server trusts", async () => {
    const clientId = crypto.randomUUID();
    const before = Date.now();
    await post({ clientId, events: [{ name: 'Viewed Catalog', at: '2001-01-01T00:00:00Z' }, { name: 'Visited URL', at: '2099-01-01T00:00:00Z' }] });
    const after = Date.now();
    const [past, future] = await storedFor(clientId);
    expect(past!.at.getTime()).toBeGreaterThanOrEqual(before - ANALYTICS_CLOCK_WINDOW_MS);
    expect(past!.at.getTime()).toBeLessThanOrEqual(after - ANALYTICS_CLOCK_WINDOW_MS);
    expect(future!.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(future!.at.getTime()).toBeLessThanOrEqual(after);
  });

  it('stores an unknown slug or edition as no publication (the library may have changed)', async () => {
    const clientId = crypto.randomUUID();
    expect((await post({ clientId, events: [{ name: 'Viewed Passage', at: now(), publication: 'no-such-title', editionId: 999999, position: 1 }] })).status).toBe(202);
    expect((await storedFor(clientId))[0]).toMatchObject({ publicationId: null, editionId: null, position: 1 });
  });
});

describe('retention', () => {
  const DAY = 24 * 60 * 60 * 1000;

  it(`deletes events older than ${ANALYTICS_RETENTION_DAYS} days and keeps the rest`, async () => {
    const db = server.database.db;
    const clientId = crypto.randomUUID();
    await db.insert(analyticsEvents).values([
      { at: new Date(Date.now() - (ANALYTICS_RETENTION_DAYS + 1) * DAY), name: 'Viewed Catalog', clientId },
      { at: new Date(Date.now() - (ANALYTICS_RETENTION_DAYS - 1) * DAY), name: 'Viewed Novel', clientId },
    ]);
    expect(await deleteExpiredEvents(db)).toBeGreaterThanOrEqual(1);
    expect((await storedFor(clientId)).map((r) => r.name)).toEqual(['Viewed Novel']);
  });

  it('runs at start, then on its timer', async () => {
    const db = server.database.db;
    const clientId = crypto.randomUUID();
    const old = () => db.insert(analyticsEvents).values({ at: new Date(Date.now() - 200 * DAY), name: 'Viewed Catalog', clientId });
    const waitUntilGone = async () => {
      for (let i = 0; i < 200 && (await storedFor(clientId)).length > 0; i++) await new Promise((r) => setTimeout(r, 25));
      return storedFor(clientId);
    };
    await old();
    const stop = startRetentionJob(db, silentLogger(), 50);
    try {
      expect(await waitUntilGone()).toEqual([]);
      await old();
      expect(await waitUntilGone()).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('npm run admin -- events summary', () => {
  async function admin(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), contentDir: '.', cwd: '.', database: server.database });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('prints counts by event and by title for the last days', async () => {
    const db = server.database.db;
    await db.delete(analyticsEvents);
    const { publicationId } = await editionIdOf('beacon-bay');
    const clientId = crypto.randomUUID();
    const DAY = 24 * 60 * 60 * 1000;
    await db.insert(analyticsEvents).values([
      { at: new Date(), name: 'Viewed Passage', clientId, publicationId },
      { at: new Date(), name: 'Viewed Passage', clientId, publicationId },
      { at: new Date(), name: 'Viewed Catalog', clientId },
      { at: new Date(Date.now() - 10 * DAY), name: 'Viewed Novel', clientId, publicationId },
    ]);
    const week = await admin('events', 'summary');
    expect(week.code, week.err).toBe(0);
    expect(week.out).toMatch(/last 7 days: 3 events/);
    expect(week.out).toMatch(/Viewed Passage\s+2/);
    expect(week.out).toMatch(/Viewed Catalog\s+1/);
    expect(week.out).not.toMatch(/Viewed Novel/);
    expect(week.out).toMatch(/Beacon Bay\s+\(beacon-bay\)\s+2/);

    const month = await admin('events', 'summary', '--days', '30');
    expect(month.out).toMatch(/last 30 days: 4 events/);
    expect(month.out).toMatch(/Beacon Bay\s+\(beacon-bay\)\s+3/);

    expect((await admin('events', 'summary', '--days', 'soon')).code).toBe(1);
  });

  it('says so when there is nothing to count', async () => {
    await server.database.db.delete(analyticsEvents);
    const { code, out } = await admin('events', 'summary');
    expect(code).toBe(0);
    expect(out).toMatch(/No events in the last 7 days/);
  });
});
