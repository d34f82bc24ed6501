/**
 * The teacher's 'Class activity' panel in the Classroom Library: passages read and time listened this
 * week and last week, the five most-read titles (links to their pages) and passages read per day over 28 days as
 * a small SVG sparkline, with a text summary and a visually hidden table as its text alternative. Counts only, from
 * GET /users/me/class-activity; what counts and what a week is are `src/domain/classActivity.ts`, and the figures'
 * wording comes from there too, so this view only lays them out.
 */
import { useQuery } from '@tanstack/react-query';
import { Button } from 'react-aria-components';
import { Link } from 'wouter';
import {
  activityDayLabel,
  hasClassActivity,
  minutesListenedText,
  passagesReadText,
  seriesSummary,
  sparklinePoints,
} from '../../../domain/classActivity';
import { publicationPath } from '../../../domain/routes';
import type { ClassActivity } from '../../../domain/schemas';
import { Spinner } from '../../components/Spinner';
import { buttonStyles, linkStyles } from '../../components/styles';
import { queries } from '../../platform/api';

/** The panel's texts. */
export const CLASS_ACTIVITY_TEXTS = {
  heading: 'Class activity',
  intro: 'Counts from readers who used your class code. No student is named. Days are UTC.',
  empty: 'No reading with your class code yet.',
  emptyHint: 'Share your class code or magic link; what your class reads shows here.',
  failed: 'Class activity could not be loaded.',
  retry: 'Try again',
  thisWeek: 'This week',
  lastWeek: 'Last week',
  topTitles: 'Most-read titles',
  noTopTitles: 'No titles read in the last 28 days.',
  perDay: 'Passages read per day',
  tableCaption: 'Passages read per day, last 28 days',
} as const;

const SPARK_WIDTH = 280;
const SPARK_HEIGHT = 56;

export function ClassActivityPanel({ userId }: { userId: string }) {
  const query = useQuery(queries.classActivity(userId));
  return (
    <section aria-labelledby="class-activity-heading" className="mt-6 rounded-2xl border border-line bg-surface p-5 sm:p-6">
      <h2 id="class-activity-heading" className="text-xl font-semibold">
        {CLASS_ACTIVITY_TEXTS.heading}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{CLASS_ACTIVITY_TEXTS.intro}</p>
      {query.isPending ? (
        <div className="mt-4">
          <Spinner label="Loading class activity…" />
        </div>
      ) : query.isError ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p role="alert">{CLASS_ACTIVITY_TEXTS.failed}</p>
          <Button className={`${buttonStyles.secondary} py-1.5`} onPress={() => void query.refetch()}>
            {CLASS_ACTIVITY_TEXTS.retry}
          </Button>
        </div>
      ) : hasClassActivity(query.data) ? (
        <ActivityFigures activity={query.data} />
      ) : (
        <div className="mt-4">
          <p className="font-medium">{CLASS_ACTIVITY_TEXTS.empty}</p>
          <p className="mt-1 text-sm text-ink-muted">{CLASS_ACTIVITY_TEXTS.emptyHint}</p>
        </div>
      )}
    </section>
  );
}

function ActivityFigures({ activity }: { activity: ClassActivity }) {
  return (
    <div className="mt-5 grid gap-6 md:grid-cols-3">
      <div className="grid grid-cols-2 gap-4 md:col-span-1 md:grid-cols-1">
        <WeekFigures label={CLASS_ACTIVITY_TEXTS.thisWeek} week={activity.thisWeek} />
        <WeekFigures label={CLASS_ACTIVITY_TEXTS.lastWeek} week={activity.lastWeek} />
      </div>
      <div>
        <h3 className="text-sm font-semibold tracking-wide text-ink-muted uppercase">{CLASS_ACTIVITY_TEXTS.topTitles}</h3>
        {activity.topTitles.length ? (
          <ol className="mt-2 space-y-1.5">
            {activity.topTitles.map((title) => (
              <li key={title.slug} className="flex items-baseline justify-between gap-3">
                <Link href={publicationPath(title.slug)} className={`${linkStyles} min-w-0 truncate`}>
                  {title.title}
                </Link>
                <span className="shrink-0 text-sm text-ink-muted tabular-nums">{passagesReadText(title.passagesRead)}</span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-2 text-sm text-ink-muted">{CLASS_ACTIVITY_TEXTS.noTopTitles}</p>
        )}
      </div>
      <Sparkline days={activity.days} />
    </div>
  );
}

function WeekFigures({ label, week }: { label: string; week: ClassActivity['thisWeek'] }) {
  const id = `class-activity-${label.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <div role="group" aria-labelledby={id}>
      <h3 id={id} className="text-sm font-semibold tracking-wide text-ink-muted uppercase">
        {label}
      </h3>
      <p className="text-xs text-ink-muted">
        {activityDayLabel(week.from)} – {activityDayLabel(week.to)}
      </p>
      <p className="mt-1 text-lg font-semibold">{passagesReadText(week.passagesRead)}</p>
      <p className="text-sm">{minutesListenedText(week.secondsListened)}</p>
    </div>
  );
}

function Sparkline({ days }: { days: ClassActivity['days'] }) {
  const points = sparklinePoints(
    days.map((d) => d.passagesRead),
    SPARK_WIDTH,
    SPARK_HEIGHT,
  );
  const first = days[0];
  const last = days.at(-1);
  return (
    <figure>
      <h3 className="text-sm font-semibold tracking-wide text-ink-muted uppercase">{CLASS_ACTIVITY_TEXTS.perDay}</h3>
      <svg
        aria-hidden="true"
        data-testid="class-activity-sparkline"
        viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
        className="mt-2 h-14 w-full max-w-xs text-primary-700"
        preserveAspectRatio="none"
      >
        <line x1="0" x2={SPARK_WIDTH} y1={SPARK_HEIGHT - 1} y2={SPARK_HEIGHT - 1} stroke="currentColor" strokeOpacity="0.2" />
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" vectorEffect="non-scaling-stroke" />
      </svg>
      {first && last ? (
        <div aria-hidden="true" className="flex max-w-xs justify-between text-xs text-ink-muted">
          <span>{activityDayLabel(first.date)}</span>
          <span>{activityDayLabel(last.date)}</span>
        </div>
      ) : null}
      <figcaption className="mt-1 text-sm text-ink-muted">{seriesSummary(days)}</figcaption>
      <table className="sr-only">
        <caption>{CLASS_ACTIVITY_TEXTS.tableCaption}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Passages read</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{activityDayLabel(day.date)}</th>
              <td>{day.passagesRead}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
