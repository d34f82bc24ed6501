/** The class-activity rules: windows, the series, week sums and the panel's wording. */
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_SERIES_DAYS,
  ACTIVITY_WEEK_DAYS,
  activityDayLabel,
  activityWeekDays,
  activityWindows,
  fillActivityDays,
  hasClassActivity,
  minutesListenedText,
  passagesBetween,
  passagesReadText,
  seriesSummary,
  sparklinePoints,
  utcDay,
} from '../../src/domain/classActivity';

describe('activityWindows', () => {
  it('counts in whole UTC days: this week is the last 7 days with today, last week the 7 before', () => {
    const w = activityWindows(new Date('2026-11-26T23:59:59.999Z'));
    expect(w.to.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(w.thisWeekFrom.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(w.lastWeekFrom.toISOString()).toBe('2026-11-13T00:00:00.000Z');
    expect(w.seriesFrom.toISOString()).toBe('2026-10-30T00:00:00.000Z');
    expect(w.days).toHaveLength(ACTIVITY_SERIES_DAYS);
    expect([w.days[0], w.days.at(-1)]).toEqual(['2026-10-30', '2026-11-26']);
    expect(activityWeekDays(w)).toEqual({
      thisWeek: { from: '2026-11-20', to: '2026-11-26' },
      lastWeek: { from: '2026-11-13', to: '2026-11-19' },
    });
  });

  it('is the same all day long, and moves at UTC midnight', () => {
    const morning = activityWindows(new Date('2026-11-26T00:00:00.000Z'));
    const evening = activityWindows(new Date('2026-11-26T23:00:00.000Z'));
    expect(evening).toEqual(morning);
    expect(activityWindows(new Date('2026-11-27T00:00:00.000Z')).days.at(-1)).toBe('2026-11-27');
  });

  it('crosses months, years and a leap day', () => {
    const w = activityWindows(new Date('2028-03-05T12:00:00Z'));
    expect(w.days).toContain('2028-02-29');
    expect(activityWeekDays(w).lastWeek).toEqual({ from: '2028-02-21', to: '2028-02-27' });
    expect(activityWindows(new Date('2027-01-02T08:00:00Z')).days[0]).toBe('2026-12-06');
  });

  it('has weeks of ACTIVITY_WEEK_DAYS days', () => {
    const w = activityWindows(new Date('2026-06-15T10:00:00Z'));
    expect((w.to.getTime() - w.thisWeekFrom.getTime()) / 86_400_000).toBe(ACTIVITY_WEEK_DAYS);
    expect((w.thisWeekFrom.getTime() - w.lastWeekFrom.getTime()) / 86_400_000).toBe(ACTIVITY_WEEK_DAYS);
  });
});

describe('the series', () => {
  const days = activityWindows(new Date('2026-11-26T10:00:00Z')).days;

  it('fills the days with no reading with zeros', () => {
    const series = fillActivityDays(days, new Map([['2026-11-26', 3], ['2026-11-01', 2], ['2026-09-01', 9]]));
    expect(series).toHaveLength(ACTIVITY_SERIES_DAYS);
    expect(series.filter((d) => d.passagesRead > 0)).toEqual([
      { date: '2026-11-01', passagesRead: 2 },
      { date: '2026-11-26', passagesRead: 3 },
    ]);
  });

  it('sums a week from its days, both ends included', () => {
    const series = fillActivityDays(days, new Map([['2026-11-19', 1], ['2026-11-20', 2], ['2026-11-26', 4], ['2026-11-13', 8], ['2026-11-12', 16]]));
    expect(passagesBetween(series, '2026-11-20', '2026-11-26')).toBe(6);
    expect(passagesBetween(series, '2026-11-13', '2026-11-19')).toBe(9);
  });

  it('says the total and the busiest day', () => {
    const series = fillActivityDays(days, new Map([['2026-11-03', 5], ['2026-11-20', 2]]));
    expect(seriesSummary(series)).toBe('7 passages read in the last 28 days; the most on Nov 3 (5).');
    expect(seriesSummary(fillActivityDays(days, new Map([['2026-11-20', 1]])))).toBe('1 passage read in the last 28 days; the most on Nov 20 (1).');
    expect(seriesSummary(fillActivityDays(days, new Map()))).toBe('No passages read in the last 28 days.');
  });

  it('draws one point a day, left to right, the highest day at the top and zero at the bottom', () => {
    const points = sparklinePoints([0, 2, 4], 100, 50, 0).split(' ');
    expect(points).toEqual(['0,50', '50,25', '100,0']);
    expect(sparklinePoints([0, 0, 0], 100, 50, 2).split(' ')).toEqual(['2,48', '50,48', '98,48']);
    expect(sparklinePoints([], 100, 50)).toBe('');
    expect(sparklinePoints(new Array(28).fill(1), 280, 56).split(' ')).toHaveLength(28);
  });
});

describe('wording', () => {
  it('passages read', () => {
    expect(passagesReadText(0)).toBe('No passages read');
    expect(passagesReadText(1)).toBe('1 passage read');
    expect(passagesReadText(12)).toBe('12 passages read');
  });

  it('minutes listened, never 0 when some listening was counted', () => {
    expect(minutesListenedText(0)).toBe('No listening');
    expect(minutesListenedText(20)).toBe('Under a minute listened');
    expect(minutesListenedText(30)).toBe('1 minute listened');
    expect(minutesListenedText(89)).toBe('1 minute listened');
    expect(minutesListenedText(90)).toBe('2 minutes listened');
    expect(minutesListenedText(3600)).toBe('60 minutes listened');
  });

  it('days in UTC', () => {
    expect(activityDayLabel('2026-11-03')).toBe('Nov 3');
    expect(utcDay(new Date('2026-11-03T23:59:59Z'))).toBe('2026-11-03');
  });

  it('is empty only when nothing was read or heard', () => {
    const days = fillActivityDays(['2026-11-26'], new Map());
    const week = { passagesRead: 0, secondsListened: 0 };
    expect(hasClassActivity({ thisWeek: week, lastWeek: week, days })).toBe(false);
    expect(hasClassActivity({ thisWeek: { ...week, secondsListened: 5 }, lastWeek: week, days })).toBe(true);
    expect(hasClassActivity({ thisWeek: week, lastWeek: week, days: [{ date: '2026-11-01', passagesRead: 1 }] })).toBe(true);
  });
});
