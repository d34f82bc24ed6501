// @vitest-environment jsdom
/**
 * The teacher's 'Class activity' panel in jsdom: the empty state, the two weeks' figures, the
 * most-read titles as links to their pages, the sparkline with its text alternative, and a failed load with
 * 'Try again'. The API is the app's client with getClassActivity replaced (vi.spyOn).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activityWindows, fillActivityDays } from '../../src/domain/classActivity';
import type { ClassActivity } from '../../src/domain/schemas';
import { ApiError } from '../../src/api/apiError';
import { api } from '../../src/ui/platform/api';
import { ClassActivityPanel } from '../../src/ui/screens/classroom/ClassActivityPanel';

const days = activityWindows(new Date('2026-11-26T10:00:00Z')).days;

function activity(counts: [string, number][], weeks: { thisWeek?: Partial<ClassActivity['thisWeek']>; lastWeek?: Partial<ClassActivity['lastWeek']> } = {}): ClassActivity {
  return {
    thisWeek: { from: '2026-11-20', to: '2026-11-26', passagesRead: 0, secondsListened: 0, ...weeks.thisWeek },
    lastWeek: { from: '2026-11-13', to: '2026-11-19', passagesRead: 0, secondsListened: 0, ...weeks.lastWeek },
    topTitles: [],
    days: fillActivityDays(days, new Map(counts)),
  };
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const { hook } = memoryLocation({ path: '/classroom-catalog' });
  render(
    <QueryClientProvider client={client}>
      <Router hook={hook}>
        <ClassActivityPanel userId="teacher-1" />
      </Router>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the Class activity panel', () => {
  it('says so when nothing has been read with the class code', async () => {
    vi.spyOn(api, 'getClassActivity').mockResolvedValue(activity([]));
    renderPanel();
    const panel = screen.getByRole('region', { name: 'Class activity' });
    expect(await within(panel).findByText('No reading with your class code yet.')).toBeTruthy();
    expect(within(panel).queryByRole('table')).toBeNull();
  });

  it('shows both weeks, the most-read titles as links, and the sparkline with a text alternative', async () => {
    const data = activity(
      [
        ['2026-11-03', 2],
        ['2026-11-25', 1],
        ['2026-11-26', 6],
      ],
      { thisWeek: { passagesRead: 7, secondsListened: 150 }, lastWeek: { passagesRead: 0, secondsListened: 20 } },
    );
    data.topTitles = [
      { title: 'How Bees Make Honey', slug: 'how-bees-make-honey', passagesRead: 6 },
      { title: 'The Fox Who Counted Stars', slug: 'the-fox-who-counted-stars', passagesRead: 3 },
    ];
    const spy = vi.spyOn(api, 'getClassActivity').mockResolvedValue(data);
    renderPanel();
    const panel = screen.getByRole('region', { name: 'Class activity' });
    await within(panel).findByText('7 passages read');
    expect(spy).toHaveBeenCalledTimes(1);

    const thisWeek = within(panel).getByRole('group', { name: 'This week' });
    expect(thisWeek.textContent).toContain('Nov 20 – Nov 26');
    expect(thisWeek.textContent).toContain('3 minutes listened');
    const lastWeek = within(panel).getByRole('group', { name: 'Last week' });
    expect(lastWeek.textContent).toContain('No passages read');
    expect(lastWeek.textContent).toContain('Under a minute listened');

    const links = within(panel).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['How Bees Make Honey', '/how-bees-make-honey'],
      ['The Fox Who Counted Stars', '/the-fox-who-counted-stars'],
    ]);
    expect(within(panel).getByText('6 passages read')).toBeTruthy();

    // The drawing is hidden from assistive technology; the summary and the table say what it shows.
    const svg = panel.querySelector('svg[data-testid="class-activity-sparkline"]')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    expect(svg.querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(28);
    expect(within(panel).getByText('9 passages read in the last 28 days; the most on Nov 26 (6).')).toBeTruthy();
    const table = within(panel).getByRole('table', { name: 'Passages read per day, last 28 days' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(28);
    expect(rows.at(-1)!.textContent).toBe('Nov 266');
    expect(rows[4]!.textContent).toBe('Nov 32');
  });

  it('offers Try again when the activity cannot be loaded', async () => {
    const spy = vi
      .spyOn(api, 'getClassActivity')
      .mockRejectedValueOnce(new ApiError(500, [{ code: 'internal', message: 'Something went wrong' }]))
      .mockResolvedValueOnce(activity([['2026-11-26', 1]], { thisWeek: { passagesRead: 1 } }));
    renderPanel();
    const panel = screen.getByRole('region', { name: 'Class activity' });
    expect((await within(panel).findByRole('alert')).textContent).toBe('Class activity could not be loaded.');
    await act(async () => {
      fireEvent.click(within(panel).getByRole('button', { name: 'Try again' }));
    });
    expect(await within(panel).findByText('1 passage read')).toBeTruthy();
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
