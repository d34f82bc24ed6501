/**
 * Class activity: GET /users/me/class-activity on a real server (in-memory PGlite), with
 * `analytics_events` rows written straight into its database, as POST /events would store them. The counting rules
 * (src/domain/classActivity.ts) are checked at a fixed instant through `classActivity(db, teacherId, now)`; the route's
 * access and answer shape through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { RunningServer } from '../../server/server';
import { analyticsEvents, editions, publications } from '../../server/db/schema';
import { classActivity } from '../../server/users/classActivity';
import { makeTeacher, setRole } from '../../server/accounts/service';
import { ACTIVITY_SERIES_DAYS, ACTIVITY_TOP_TITLES } from '../../src/domain/classActivity';
import { ClassActivitySchema } from '../../src/domain/schemas';
import { getJson, licensedTeacher, signUpUser, startFixtureServer } from './harness';

let server: RunningServer;
let teacherA: Awaited<ReturnType<typeof licensedTeacher>>;
let teacherB: Awaited<ReturnType<typeof licensedTeacher>>;
/** Each fixture title's publication id and first edition id, by slug. */
const titles = new Map<string, { publicationId: number; editionId: number; title: string }>();

type Row = typeof analyticsEvents.$inferInsert;

const DAY = 86_400_000;
/** The instant the counting tests stand at: a Thursday morning, UTC. */
const NOW = new Date('2026-11-26T10:00:00.000Z');
const TODAY = Date.UTC(2026, 10, 26);

function at(daysAgo: number, ms = 0): Date {
  return new Date(TODAY - daysAgo * DAY + ms);
}

function viewed(owner: string | null, slug: string, clientId: string, when: Date, position = 1): Row {
  const t = titles.get(slug)!;
  return { at: when, name: 'Viewed Passage', clientId, publicationId: t.publicationId, editionId: t.editionId, position, classOwnerId: owner };
}

function listened(owner: string, name: string, seconds: number | null, when: Date): Row {
  const t = titles.get('alpha-owls')!;
  return { at: when, name, clientId: 'listener', publicationId: t.publicationId, editionId: t.editionId, position: 1, seconds, classOwnerId: owner };
}

async function insert(rows: Row[]) {
  await server.database.db.insert(analyticsEvents).values(rows);
}

beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
  teacherA = await licensedTeacher(server, undefined, { ip: '198.19.1.1' });
  teacherB = await licensedTeacher(server, undefined, { ip: '198.19.1.2' });
  const db = server.database.db;
  const pubs = await db.select({ id: publications.id, slug: publications.slug, title: publications.title }).from(publications);
  for (const p of pubs) {
    const [edition] = await db.select({ id: editions.id }).from(editions).where(eq(editions.publicationId, p.id)).orderBy(editions.id).limit(1);
    if (edition) titles.set(p.slug, { publicationId: p.id, editionId: edition.id, title: p.title });
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('what counts (classActivity at a fixed instant)', () => {
  beforeAll(async () => {
    const a = teacherA.userId;
    const b = teacherB.userId;
    await insert([
      // This week (today and the 6 days before): today at midnight, the same passage again (not counted), another
      // reader on it, another passage, and the week's first instant.
      viewed(a, 'alpha-owls', 'c1', at(0)),
      viewed(a, 'alpha-owls', 'c1', at(0, 9 * 3_600_000)),
      viewed(a, 'alpha-owls', 'c2', at(0, 9 * 3_600_000)),
      viewed(a, 'alpha-owls', 'c1', at(0, 9 * 3_600_000), 2),
      viewed(a, 'beacon-bay', 'c3', at(6)),
      // The same reader and passage on another day counts again.
      viewed(a, 'alpha-owls', 'c1', at(1)),
      // Last week: the instant before this week, and its first instant.
      viewed(a, 'beacon-bay', 'c3', at(6, -1)),
      viewed(a, 'cedar-and-stone', 'c4', at(13)),
      // In the series, before both weeks; and just before the series.
      viewed(a, 'cedar-and-stone', 'c4', at(13, -1)),
      viewed(a, 'cedar-and-stone', 'c4', at(ACTIVITY_SERIES_DAYS - 1, -1)),
      // Tomorrow (a clock ahead): not yet.
      viewed(a, 'alpha-owls', 'c9', at(-1)),
      // Listening: this week 90 + 30 s, last week 120 s; other events' seconds and empty seconds do not count.
      listened(a, 'Paused Audio', 90, at(0, 3_600_000)),
      listened(a, 'Closed Audio Player', 30, at(6)),
      listened(a, 'Paused Audio', 120, at(6, -1)),
      listened(a, 'Resumed Audio', 999, at(0, 3_600_000)),
      listened(a, 'Closed Audio Player', null, at(0, 3_600_000)),
      listened(a, 'Paused Audio', 500, at(14, -1)),
      // Another teacher's class and readers with no class code.
      viewed(b, 'alpha-owls', 'c1', at(0)),
      viewed(b, 'beacon-bay', 'b1', at(2)),
      listened(b, 'Paused Audio', 600, at(0, 3_600_000)),
      viewed(null, 'alpha-owls', 'c5', at(0)),
    ]);
  });

  it('counts passages read once per reader, passage and UTC day, and seconds listened, this week and last', async () => {
    const activity = await classActivity(server.database.db, teacherA.userId, NOW);
    expect(ClassActivitySchema.parse(activity)).toEqual(activity);
    expect(activity.thisWeek).toEqual({ from: '2026-11-20', to: '2026-11-26', passagesRead: 5, secondsListened: 120 });
    expect(activity.lastWeek).toEqual({ from: '2026-11-13', to: '2026-11-19', passagesRead: 2, secondsListened: 120 });
  });

  it('gives 28 days ending today, oldest first, zeros filled in', async () => {
    const { days } = await classActivity(server.database.db, teacherA.userId, NOW);
    expect(days).toHaveLength(ACTIVITY_SERIES_DAYS);
    expect(days[0]!.date).toBe('2026-10-30');
    expect(days.at(-1)!.date).toBe('2026-11-26');
    const nonZero = Object.fromEntries(days.filter((d) => d.passagesRead > 0).map((d) => [d.date, d.passagesRead]));
    expect(nonZero).toEqual({
      '2026-11-12': 1,
      '2026-11-13': 1,
      '2026-11-19': 1,
      '2026-11-20': 1,
      '2026-11-25': 1,
      '2026-11-26': 3,
    });
  });

  it('lists the most-read titles of the 28 days, most read first, with title and slug only', async () => {
    const { topTitles } = await classActivity(server.database.db, teacherA.userId, NOW);
    expect(topTitles).toEqual([
      { title: titles.get('alpha-owls')!.title, slug: 'alpha-owls', passagesRead: 4 },
      { title: titles.get('beacon-bay')!.title, slug: 'beacon-bay', passagesRead: 2 },
      { title: titles.get('cedar-and-stone')!.title, slug: 'cedar-and-stone', passagesRead: 2 },
    ]);
  });

  it('keeps to five titles, ties by title', async () => {
    const owner = (await signUpUser(server, { ip: '198.19.1.3' })).userId;
    const rows: Row[] = [];
    // filler-01 .. filler-07 read 7, 6, … 1 times; filler-08 and filler-09 tie with filler-05 (3).
    for (let i = 1; i <= 7; i++) {
      for (let r = 0; r < 8 - i; r++) rows.push(viewed(owner, `filler-0${i}`, `reader-${r}`, at(0)));
    }
    for (const slug of ['filler-09', 'filler-08']) for (let r = 0; r < 3; r++) rows.push(viewed(owner, slug, `reader-${r}`, at(3)));
    await insert(rows);
    const { topTitles } = await classActivity(server.database.db, owner, NOW);
    expect(topTitles).toHaveLength(ACTIVITY_TOP_TITLES);
    expect(topTitles.map((t) => [t.slug, t.passagesRead])).toEqual([
      ['filler-01', 7],
      ['filler-02', 6],
      ['filler-03', 5],
      ['filler-04', 4],
      ['filler-05', 3],
    ]);
  });

  it('is all zeros for a teacher whose code nobody used', async () => {
    const fresh = await signUpUser(server, { ip: '198.19.1.4' });
    const activity = await classActivity(server.database.db, fresh.userId, NOW);
    expect(activity.thisWeek.passagesRead + activity.lastWeek.passagesRead).toBe(0);
    expect(activity.thisWeek.secondsListened + activity.lastWeek.secondsListened).toBe(0);
    expect(activity.topTitles).toEqual([]);
    expect(activity.days.every((d) => d.passagesRead === 0)).toBe(true);
  });
});

describe('GET /api/v1/users/me/class-activity', () => {
  const get = (headers: Record<string, string> = {}) =>
    getJson(server, '/api/v1/users/me/class-activity', { headers: { 'X-Forwarded-For': '198.19.2.1', ...headers } });

  it('is 401 signed out, also with a class code', async () => {
    const me = await get({ Cookie: teacherA.cookie });
    const code = (await getJson(server, '/api/v1/users/me', { headers: { Cookie: teacherA.cookie } })).body.groupCode as string;
    expect(me.status).toBe(200);
    for (const headers of [{}, { 'X-Group-Code': code }] as Record<string, string>[]) {
      const res = await get(headers);
      expect(res.status).toBe(401);
      expect(res.body.errors[0].code).toBe('unauthorized');
    }
  });

  it('is 403 for a signed-in reader who is not a teacher', async () => {
    const reader = await signUpUser(server, { ip: '198.19.1.5' });
    await setRole(server.database.db, reader.userId, 'INDIVIDUAL');
    const res = await get({ Cookie: reader.cookie });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errors: [{ code: 'forbidden', message: 'Only teachers can see class activity.' }] });
  });

  it("answers the teacher with their own class's counts only, never cached, naming no reader", async () => {
    const now = new Date();
    const before = ClassActivitySchema.parse((await get({ Cookie: teacherA.cookie })).body);
    await insert([
      viewed(teacherB.userId, 'beacon-bay', 'secret-client-id', now),
      listened(teacherB.userId, 'Paused Audio', 45, now),
    ]);

    const res = await get({ Cookie: teacherB.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const activity = ClassActivitySchema.parse(res.body);
    expect(activity.days.at(-1)!.date).toBe(now.toISOString().slice(0, 10));
    expect(activity.days.at(-1)!.passagesRead).toBeGreaterThanOrEqual(1);
    expect(activity.thisWeek.secondsListened).toBeGreaterThanOrEqual(45);
    expect(activity.topTitles.map((t) => t.slug)).toContain('beacon-bay');
    expect(JSON.stringify(res.body)).not.toMatch(/secret-client-id|listener|c1|clientId|position/);

    // Teacher A's answer did not move with teacher B's class.
    const after = ClassActivitySchema.parse((await get({ Cookie: teacherA.cookie })).body);
    expect(after).toEqual(before);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await getJson(server, '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/users/me/class-activity'])).toEqual(['get']);
    expect(doc.components.schemas.ClassActivity.properties.days).toBeTruthy();
  });

  it('answers a teacher without a class code (an unlicensed one) with zeros', async () => {
    const unlicensed = await signUpUser(server, { ip: '198.19.1.6' });
    await makeTeacher(server.database.db, unlicensed.email);
    const res = await get({ Cookie: unlicensed.cookie });
    expect(res.status).toBe(200);
    const activity = ClassActivitySchema.parse(res.body);
    expect(activity.thisWeek).toMatchObject({ passagesRead: 0, secondsListened: 0 });
    expect(activity.topTitles).toEqual([]);
  });
});
