/**
 * A teacher's class activity, counted from `analytics_events` rows whose `class_owner_id` is the
 * teacher: the readers who used their class code. Counts only: no client id, time or position leaves this module.
 * What counts as a passage read, a minute listened and a week is `src/domain/classActivity.ts`.
 */
import { sql } from 'drizzle-orm';
import {
  ACTIVITY_TOP_TITLES,
  LISTENING_EVENTS,
  PASSAGE_READ_EVENT,
  activityWeekDays,
  activityWindows,
  fillActivityDays,
  passagesBetween,
} from '../../src/domain/classActivity';
import type { ClassActivity } from '../../src/domain/schemas';
import type { Db } from '../db/client';
import { analyticsEvents, editions, publications } from '../db/schema';

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The class activity of `teacherId` at `now` (the server's clock; tests pass their own). */
export async function classActivity(db: Db, teacherId: string, now: Date = new Date()): Promise<ClassActivity> {
  const windows = activityWindows(now);
  const e = analyticsEvents;
  // A passage read: one per reader (client id), passage (edition, position) and UTC day. The publication comes from
  // the event, else from its edition.
  const reads = sql`
    select distinct ${e.clientId} as client_id, ${e.editionId} as edition_id, ${e.position} as position,
      coalesce(${e.publicationId}, ${editions.publicationId}) as publication_id,
      to_char(${e.at} at time zone 'UTC', 'YYYY-MM-DD') as day
    from ${e} left join ${editions} on ${editions.id} = ${e.editionId}
    where ${e.classOwnerId} = ${teacherId} and ${e.name} = ${PASSAGE_READ_EVENT}
      and ${e.at} >= ${windows.seriesFrom.toISOString()}::timestamptz and ${e.at} < ${windows.to.toISOString()}::timestamptz`;

  const perDay = rows<{ day: string; n: number }>(
    await db.execute(sql`select day, count(*)::int as n from (${reads}) r group by day`),
  );
  const top = rows<{ slug: string; title: string; n: number }>(
    await db.execute(sql`
      select ${publications.slug} as slug, (array_agg(${publications.title} order by ${publications.version} desc))[1] as title,
        count(*)::int as n
      from (${reads}) r join ${publications} on ${publications.id} = r.publication_id
      group by ${publications.slug}
      order by n desc, title asc, slug asc
      limit ${ACTIVITY_TOP_TITLES}`),
  );
  const listening = sql.join(LISTENING_EVENTS.map((name) => sql`${name}`), sql`, `);
  const [listened] = rows<{ this_week: number; last_week: number }>(
    await db.execute(sql`
      select
        coalesce(sum(${e.seconds}) filter (where ${e.at} >= ${windows.thisWeekFrom.toISOString()}::timestamptz), 0)::int as this_week,
        coalesce(sum(${e.seconds}) filter (where ${e.at} < ${windows.thisWeekFrom.toISOString()}::timestamptz), 0)::int as last_week
      from ${e}
      where ${e.classOwnerId} = ${teacherId} and ${e.name} in (${listening}) and ${e.seconds} > 0
        and ${e.at} >= ${windows.lastWeekFrom.toISOString()}::timestamptz and ${e.at} < ${windows.to.toISOString()}::timestamptz`),
  );

  const days = fillActivityDays(windows.days, new Map(perDay.map((r) => [r.day, Number(r.n)])));
  const weeks = activityWeekDays(windows);
  const week = (range: { from: string; to: string }, seconds: number) => ({
    ...range,
    passagesRead: passagesBetween(days, range.from, range.to),
    secondsListened: Number(seconds ?? 0),
  });
  return {
    thisWeek: week(weeks.thisWeek, listened?.this_week ?? 0),
    lastWeek: week(weeks.lastWeek, listened?.last_week ?? 0),
    topTitles: top.map((r) => ({ title: r.title, slug: r.slug, passagesRead: Number(r.n) })),
    days,
  };
}
