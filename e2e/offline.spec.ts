import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';
import { watchAudioElements } from './support/audioElements';

/**
 * Whole titles offline (docs/reading-aids.md): the service worker and the web manifest make the
 * app installable; 'Download for offline' stores one edition (passages, narration, speech marks); with the network
 * off, a reload still opens the reader, three passages read, one plays and seeks; the Downloads page lists and
 * deletes. The service worker is allowed here only (playwright.config.ts blocks it elsewhere).
 */

const GOAT = '/the-goat-who-chased-the-shade/v1';


const readerAudioTime = (page: Page) =>
  page.evaluate(() => {
    const el = (window as unknown as { __audios: HTMLAudioElement[] }).__audios.find((a) => (a.currentSrc || a.src) && !a.paused);
    return el ? el.currentTime : null;
  });

async function serious(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test.describe('Whole titles offline', () => {
  test.use({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 } });
  test.setTimeout(240_000);

  test('the app is installable: a web manifest with icons, and a service worker that takes the page', async ({ page }) => {
    await page.goto('/catalog');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();
    const manifest = await (await page.request.get(href!)).json();
    expect(manifest).toMatchObject({ name: 'Lectern', display: 'standalone', start_url: '/' });
    expect(manifest.icons.length).toBeGreaterThanOrEqual(1);
    for (const icon of manifest.icons) expect((await page.request.get(icon.src)).status()).toBe(200);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null), { timeout: 30_000 }).toMatch(/\/sw\.js$/);
  });

  test('download an edition, go offline, reload: three passages read, one plays and seeks; Downloads lists and deletes it', async ({ page, context }) => {
    await watchAudioElements(page);
    const reader = new ReaderPage(page);
    await reader.goto(`${GOAT}/en:original/1`);
    await reader.expectPosition(1);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
    const firstText = (await reader.primary.text.textContent())!.trim();

    // Download from the reader's header: a progress bar, then 'Offline'.
    await page.getByRole('button', { name: 'Download for offline' }).click();
    await expect(page.getByRole('progressbar', { name: 'Downloading for offline' })).toBeVisible();
    await expect(page.locator('header [data-offline-state="stored"]')).toBeVisible({ timeout: 200_000 });

    // The Downloads page lists it with its size.
    await page.goto('/downloads');
    const card = page.getByRole('listitem', { name: /The Goat Who Chased the Shade, English Original/i });
    await expect(card).toBeVisible();
    await expect(card).toContainText(/passages · narration for \d+ · [\d.]+ (KB|MB)/);
    await expect(page.getByText(/Safari may remove downloaded titles after 7 days/)).toBeVisible();
    expect(await serious(page)).toEqual([]);

    // Offline: the reader opens from the service worker and the download.
    await context.setOffline(true);
    await reader.goto(`${GOAT}/en:original/1`);
    await reader.expectPosition(1);
    await expect(reader.primary.text).toHaveText(firstText);
    for (const position of [2, 3]) {
      const before = (await reader.primary.text.textContent())!.trim();
      await reader.nextButton.click();
      await reader.expectPosition(position);
      await expect(reader.primary.text).not.toHaveText(before);
      await expect(reader.primary.text).not.toBeEmpty();
    }

    // Play passage 3, then seek ahead with the keyboard: the stored MP3 answers ranges.
    // The player's play button (the player may come back open and paused from the first visit, SPEC §4).
    await reader.playButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect.poll(() => reader.clockSeconds(reader.currentClock), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await reader.pauseButton.click();
    await expect(reader.audioStatus).toHaveText('Paused');
    const before = await reader.clockSeconds(reader.currentClock);
    await reader.seekSlider.focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => reader.clockSeconds(reader.currentClock)).toBeGreaterThanOrEqual(before + 4);
    await reader.playButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing');
    await expect.poll(() => readerAudioTime(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(before + 4.5);

    // Still offline, the Downloads page deletes it.
    await page.goto('/downloads');
    await page.getByRole('button', { name: /^Delete The Goat Who Chased the Shade/ }).click();
    await expect(page.getByText('No titles downloaded yet.')).toBeVisible();
    await context.setOffline(false);
  });
});
