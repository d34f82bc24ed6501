import { expect, test, type Page } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';
import { PublicationPage } from './models/PublicationPage';
import { ReaderPage } from './models/ReaderPage';
import { admin } from './support/admin';

/**
 * First-party analytics: the tracked events of a real browser session reach the database, read back
 * with the operator's `npm run admin -- events summary` (through the running server's admin socket).
 */

/** The summary of the last day's events. Each run starts a CLI process (seconds on a busy machine): ask sparingly. */
function summary(): Promise<string> {
  return admin('events', 'summary', '--days', '1');
}

/** How many of an event (or a title) a summary counts. */
function countIn(out: string, label: RegExp): number {
  const match = new RegExp(`${label.source}\\s+(\\d+)\\s*$`, 'm').exec(out);
  return match ? Number(match[1]) : 0;
}

/** Answers of POST /api/v1/events on this page. */
function watchEventPosts(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/v1/events' && response.request().method() === 'POST') statuses.push(response.status());
  });
  return statuses;
}

test.describe('Analytics', () => {
  // The admin CLI runs as its own process for every look at the database.
  test.describe.configure({ timeout: 120_000 });

  test('a session of browsing and reading arrives in the database, and /debug counts what was sent', async ({ page }) => {
    const out = await summary();
    const before = { passages: countIn(out, /Viewed Passage/), novels: countIn(out, /Viewed Novel/), catalogs: countIn(out, /Viewed Catalog/), bees: countIn(out, /How Bees Make Honey \(how-bees-make-honey\)/) };
    const posts = watchEventPosts(page);

    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.card('How Bees Make Honey').click();
    const publication = new PublicationPage(page);
    await expect(publication.heading('How Bees Make Honey')).toBeVisible();
    await publication.readOnlineLink.click();
    const reader = new ReaderPage(page);
    const first = await reader.primary.passageNumber.textContent();
    await reader.nextButton.click();
    await reader.expectPosition(Number(first) + 1);

    // The batches leave on their own (every few seconds); wait for what they carried to be stored.
    let after = '';
    await expect
      .poll(async () => countIn((after = await summary()), /Viewed Passage/), { timeout: 60_000, intervals: [1000] })
      .toBeGreaterThanOrEqual(before.passages + 2);
    expect(countIn(after, /Viewed Novel/)).toBeGreaterThanOrEqual(before.novels + 1);
    expect(countIn(after, /Viewed Catalog/)).toBeGreaterThanOrEqual(before.catalogs + 1);
    expect(countIn(after, /Visited URL/)).toBeGreaterThanOrEqual(3);
    expect(countIn(after, /How Bees Make Honey \(how-bees-make-honey\)/)).toBeGreaterThanOrEqual(before.bees + 3);
    // Every batch was accepted: never two within the server's one-a-second limit.
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((status) => status === 202)).toBe(true);

    // /debug, reached inside the app (a reload would start a new session), says where events go and counts them.
    await page.evaluate(() => history.pushState(null, '', '/debug'));
    const analytics = page.getByRole('region', { name: 'Analytics' });
    await expect(analytics.getByText('POST /api/v1/events')).toBeVisible();
    await expect(analytics.getByRole('definition').filter({ hasText: /^Configured/ }).first()).toBeVisible();
    const sent = analytics.getByRole('term').filter({ hasText: 'Events sent this session' }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(async () => Number(await sent.textContent()), { timeout: 15_000 }).toBeGreaterThanOrEqual(4);
  });

  test('what waits when the page is hidden leaves by beacon', async ({ page }) => {
    const before = countIn(await summary(), /Viewed Catalog/);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/events') posts.push(request.headers()['content-type'] ?? '');
    });
    // The page's clock stands still, so the batch's own timer never fires: only the page going can send it.
    await page.clock.install();
    await page.clock.pauseAt(new Date(Date.now() + 1000));
    const catalog = new CatalogPage(page);
    await catalog.goto();
    expect(posts).toEqual([]);
    // The page goes to the background.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(() => posts.length, { timeout: 5000 }).toBe(1);
    expect(posts[0]).toMatch(/^text\/plain/);
    await expect.poll(async () => countIn(await summary(), /Viewed Catalog/), { timeout: 60_000, intervals: [1000] }).toBe(before + 1);
  });
});
