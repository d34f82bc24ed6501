import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';

const BEES = '/how-bees-make-honey/v1';

/**
 * The first paint of a reader address as Chromium gets it from `npm start` (server/http/page.ts): the passage in
 * the HTML, no module script in the page as it arrives, and the built first-paint loader
 * (src/render/firstPaintLoader.ts), allowed by the page's CSP by its hash, which then asks for the app's code.
 */
test.describe('First paint', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the page arrives with the passage and the loader; the loader runs under the page's CSP and the app takes over", async ({ page }) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    const response = await page.request.get(`${BEES}/en:original/3`);
    const html = await response.text();
    const csp = response.headers()['content-security-policy'];
    // As it arrives: the text, and no script the browser would fetch before painting it.
    expect(html).toContain('data-first-screen-text');
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="modulepreload"');
    // The one inline script, allowed by its own hash and nothing broader.
    const loader = /<script>((?:(?!<\/script>)[\s\S])*)<\/script><\/body>/.exec(html)![1];
    const hash = crypto.createHash('sha256').update(loader).digest('base64');
    expect(csp.split('; ').find((d) => d.startsWith('script-src'))).toBe(`script-src 'self' 'sha256-${hash}'`);

    const reader = new ReaderPage(page);
    await reader.goto(`${BEES}/en:original/3`);
    await reader.expectPosition(3);
    await expect(page.locator('#lectern-first-screen')).toHaveCount(0);
    // The loader added the entry and the route's scripts as modulepreloads, and no inline script was refused.
    await expect(page.locator('head script[type="module"]')).toHaveCount(1);
    expect(await page.locator('head link[rel="modulepreload"]').count()).toBeGreaterThan(0);
    expect(refused).toEqual([]);
  });
});
