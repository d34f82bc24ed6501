/**
 * Class activity: what a teacher sees of the reading done with their class code, as counts only.
 * The rules are here, shared by the server (which counts) and the Classroom Library's panel (which shows):
 * - a *passage read* is a 'Viewed Passage' event; the same reader (client id) on the same passage (edition and
 *   position) counts once per UTC day, so a reload or a page turned back and forth is not counted twice;
 * - *time listened* is the sum of `seconds` on 'Paused Audio' and 'Closed Audio Player' events;
 * - *this week* is the last ACTIVITY_WEEK_DAYS UTC days, today included, and *last week* the ACTIVITY_WEEK_DAYS
 *   days before them, so a week's passages are the sum of the last seven (or the seven before) days of the series;
 * - the series is ACTIVITY_SERIES_DAYS UTC days ending today, oldest first, with zeros for days with no reading;
 * - the most-read titles are the ACTIVITY_TOP_TITLES titles with the most passages read over the series' days.
 * No zod here: the response schema is `ClassActivitySchema` in `schemas.ts`.
 */

/** The days of a week of class activity: 'this week' is the last 7 UTC days, today included. @default 7 */
export const ACTIVITY_WEEK_DAYS = 7;
/** The days of the passages-per-day series (the sparkline), ending today (UTC). @default 28 */
export const ACTIVITY_SERIES_DAYS = 28;
/** How many most-read titles the panel lists. @default 5 */
export const ACTIVITY_TOP_TITLES = 5;
/** The tracked event (SPEC §4) that counts as a passage read. */
export const PASSAGE_READ_EVENT = 'Viewed Passage';
/** The tracked events (SPEC §4) whose `seconds` count as time listened. */
export const LISTENING_EVENTS = ['Paused Audio', 'Closed Audio Player'] as const;

const DAY_MS = 86_400_000;

/** The UTC day of an instant, 'YYYY-MM-DD'. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The time windows of a class-activity answer at `now`. Every `from` is inclusive and `to` exclusive. */
export interface ActivityWindows {
  /** The start of the series' first day (ACTIVITY_SERIES_DAYS - 1 days before today, 00:00 UTC). */
  seriesFrom: Date;
  /** The start of 'last week' (13 days before today, 00:00 UTC). */
  lastWeekFrom: Date;
  /** The start of 'this week', which is also the end of 'last week' (6 days before today, 00:00 UTC). */
  thisWeekFrom: Date;
  /** The end of today (tomorrow, 00:00 UTC): the end of 'this week' and of the series. */
  to: Date;
  /** The series' days, 'YYYY-MM-DD', oldest first (ACTIVITY_SERIES_DAYS of them, today last). */
  days: string[];
}

export function activityWindows(now: Date): ActivityWindows {
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  const seriesFrom = to - ACTIVITY_SERIES_DAYS * DAY_MS;
  const days = Array.from({ length: ACTIVITY_SERIES_DAYS }, (_, i) => utcDay(new Date(seriesFrom + i * DAY_MS)));
  return {
    seriesFrom: new Date(seriesFrom),
    lastWeekFrom: new Date(to - 2 * ACTIVITY_WEEK_DAYS * DAY_MS),
    thisWeekFrom: new Date(to - ACTIVITY_WEEK_DAYS * DAY_MS),
    to: new Date(to),
    days,
  };
}

/** One day of the series. */
export interface ActivityDay {
  /** 'YYYY-MM-DD' (UTC). */
  date: string;
  passagesRead: number;
}

/** The series over `days`, with the counts found and zero for every other day. */
export function fillActivityDays(days: readonly string[], counts: ReadonlyMap<string, number>): ActivityDay[] {
  return days.map((date) => ({ date, passagesRead: counts.get(date) ?? 0 }));
}

/** Passages read on the series' days from `from` to `to`, both 'YYYY-MM-DD' and inclusive. */
export function passagesBetween(series: readonly ActivityDay[], from: string, to: string): number {
  return series.reduce((sum, day) => (day.date >= from && day.date <= to ? sum + day.passagesRead : sum), 0);
}

/** A week of class activity as the API answers it. */
export interface ActivityWeekFigures {
  /** The week's first day, 'YYYY-MM-DD' (UTC). */
  from: string;
  /** The week's last day, 'YYYY-MM-DD' (UTC), inclusive. */
  to: string;
  passagesRead: number;
  secondsListened: number;
}

/** The two weeks' days, as 'YYYY-MM-DD' (inclusive), from the windows. */
export function activityWeekDays(windows: ActivityWindows): { thisWeek: { from: string; to: string }; lastWeek: { from: string; to: string } } {
  const lastDay = (end: Date) => utcDay(new Date(end.getTime() - DAY_MS));
  return {
    thisWeek: { from: utcDay(windows.thisWeekFrom), to: lastDay(windows.to) },
    lastWeek: { from: utcDay(windows.lastWeekFrom), to: lastDay(windows.thisWeekFrom) },
  };
}

// ---- for the panel: whether there is anything, and how figures read -------------------------------------------

/** Whether any reading or listening was counted (the panel shows its empty state otherwise). */
export function hasClassActivity(activity: {
  thisWeek: Pick<ActivityWeekFigures, 'passagesRead' | 'secondsListened'>;
  lastWeek: Pick<ActivityWeekFigures, 'passagesRead' | 'secondsListened'>;
  days: readonly ActivityDay[];
}): boolean {
  const { thisWeek, lastWeek, days } = activity;
  return thisWeek.passagesRead + thisWeek.secondsListened + lastWeek.passagesRead + lastWeek.secondsListened > 0 || days.some((d) => d.passagesRead > 0);
}

/** 'No passages read' / '1 passage read' / '12 passages read'. */
export function passagesReadText(n: number): string {
  if (n === 0) return 'No passages read';
  return `${n} ${n === 1 ? 'passage' : 'passages'} read`;
}

/**
 * Time listened in whole minutes, rounded to the nearest; some listening that rounds to none reads 'Under a minute
 * listened' rather than 0.
 */
export function minutesListenedText(seconds: number): string {
  if (seconds <= 0) return 'No listening';
  const minutes = Math.round(seconds / 60);
  if (minutes === 0) return 'Under a minute listened';
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} listened`;
}

/** 'Nov 3' for '2026-11-03' (the day as the series counts it, in UTC). */
export function activityDayLabel(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The sparkline's text alternative: the total over the series and its busiest day. */
export function seriesSummary(days: readonly ActivityDay[]): string {
  const total = days.reduce((sum, d) => sum + d.passagesRead, 0);
  const span = `the last ${days.length} days`;
  if (total === 0) return `No passages read in ${span}.`;
  const peak = days.reduce((best, d) => (d.passagesRead > best.passagesRead ? d : best));
  return `${total} ${total === 1 ? 'passage' : 'passages'} read in ${span}; the most on ${activityDayLabel(peak.date)} (${peak.passagesRead}).`;
}

/** The sparkline's geometry: a polyline's points (one per day, left to right) in a `width` × `height` box. */
export function sparklinePoints(values: readonly number[], width: number, height: number, inset = 2): string {
  if (values.length === 0) return '';
  const max = Math.max(...values, 1);
  const step = values.length > 1 ? (width - 2 * inset) / (values.length - 1) : 0;
  const round = (n: number) => Math.round(n * 100) / 100;
  return values
    .map((v, i) => `${round(inset + i * step)},${round(height - inset - (Math.max(v, 0) / max) * (height - 2 * inset))}`)
    .join(' ');
}
