/**
 * Primed answers (server/http/page.ts, src/api/client.ts `primedAnswer`): the page's first data comes inside its
 * HTML and is used before zod has loaded, then checked. Here the HTML is changed on its way to the browser so that
 * the catalog's primed answer breaks its schema: the page must load again without primed answers, ask the server
 * and show the real catalog.
 */
import { expect, test } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';

test('a primed answer that breaks its schema: the page loads again without primed answers and shows the catalog', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/publications')) asked.push(request.url());
  });
  let documents = 0;
  await page.route(/\/catalog$/, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    documents++;
    const response = await route.fetch();
    const html = await response.text();
    // The first title's createdAt as a number: the schema wants a string.
    const broken = html.replace(/("createdAt":)"[^"]*"/, '$112345');
    expect(broken).not.toBe(html);
    const headers = { ...response.headers() };
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body: broken });
  });

  await page.goto('/catalog');
  // The page was loaded a second time, by itself…
  await expect.poll(() => documents).toBe(2);
  await expect
    .poll(() =>
      page
        .evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type)
        // Asked while the first document is going away: ask the new one next time.
        .catch(() => 'navigating'),
    )
    .toBe('reload');
  // …and shows the catalog the server gives, not an error.
  const catalog = new CatalogPage(page);
  await expect(catalog.heading).toBeVisible();
  expect((await catalog.titleTexts())[0]).toBe('A City Under the Waves: Life on a Coral Reef');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors.some((e) => e.includes('does not match its schema'))).toBe(true);
  // The second load asked the server for the titles: its primed answer (broken again) was not used.
  expect(asked.length).toBeGreaterThanOrEqual(1);
  expect(documents).toBe(2);
});
