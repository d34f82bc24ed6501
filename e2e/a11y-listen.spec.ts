import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ListenPage } from './models/ListenPage';
import { SelectPassagePage } from './models/SelectPassagePage';
import { TeaserPage } from './models/TeaserPage';
import { asLicensedReader } from './support/licensed';

// Each test runs axe several times (one to four full-page analyses of 10+ s each on a loaded 2-core machine), so
// these tests get three times the default timeout.
test.describe.configure({ timeout: 90_000 });

/** Serious and critical axe violations, summarised so a failure says what and where. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

for (const width of [375, 1280]) {
  test.describe(`Accessibility of the listen and teaser pages at ${width}px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('select-passage page, empty and with a message', async ({ page }) => {
      const select = new SelectPassagePage(page);
      await select.goto('how-bees-make-honey', 'v1', 'en-GOLD');
      await expect(select.heading('How Bees Make Honey')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await select.type('42');
      await expect(select.anyMessage()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test.describe('as a licensed reader', () => {
      // The GOLD level and its narration need a school license.
      test.use(asLicensedReader);

      test('listen page, left to right and right to left', async ({ page }) => {
        const listen = new ListenPage(page);
        await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
        await expect(listen.passage(3).locator('p')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
        // With the narration loaded and playing: the seek bar is enabled and the clock runs.
        await listen.waitForAudio();
        await listen.playButton.click();
        await expect(listen.status).toHaveText('Now Playing');
        expect(await seriousViolations(page)).toEqual([]);
        await listen.pauseButton.click();
        await listen.goto('how-bees-make-honey', 'v1', 'ar-ORIGINAL', 1);
        await expect(listen.passage(1).locator('p')).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });
    });

    test('listen and teaser pages of a premium level without a license, and the audio upgrade dialog', async ({ page }) => {
      const listen = new ListenPage(page);
      await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
      await expect(page.getByRole('region', { name: 'This content requires a School License' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await listen.goto('how-bees-make-honey', 'v1', 'es-ORIGINAL', 1);
      await expect(listen.status).toHaveText('Upgrade to access additional audio features');
      await listen.playButton.click();
      await expect(page.getByRole('dialog', { name: 'Unlock Premium Audio' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      const teaser = new TeaserPage(page);
      await teaser.goto('the-fox-who-counted-stars', 'v1', 'en:gold', 3);
      await expect(page.getByRole('region', { name: 'Passage 3' })).toContainText('This content requires a School License');
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('teaser page, with the chapter dropdown open and a toast shown', async ({ page }) => {
      // A visitor (the class-code entry is theirs) on a free edition: English at the ORIGINAL level.
      const teaser = new TeaserPage(page);
      await teaser.goto('the-fox-who-counted-stars', 'v1', 'en:original', 3);
      await expect(teaser.passage(3)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // The audio bar with its narration loaded.
      await expect.poll(async () => (await teaser.clockSeconds())[1], { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);

      await teaser.chapterButton.click();
      await expect(teaser.chapterList).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      await teaser.classCodeInput.fill('ABCD1234');
      await teaser.classCodeSubmit.click();
      await expect(teaser.notifications.getByText('Invalid Class Code')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
