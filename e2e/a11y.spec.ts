import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';
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

// The toolbar fades out after TOOLBAR_IDLE_MS without activity; a slow axe run can overlap the fade and measure the
// half-transparent text. With reduced motion (which the app honours) every element is either shown or hidden.
test.use({ reducedMotion: 'reduce' });

test.describe('Accessibility of the reader', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('one column, with the language dropdown open', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/the-lighthouse-keepers-apprentice/v1/en:original/3');
    await reader.expectPosition(3);
    expect(await seriousViolations(page)).toEqual([]);

    await reader.primary.openLanguages();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  test('two columns', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/the-lighthouse-keepers-apprentice/v1/en:original/es:original/2');
    await reader.expectPosition(2);
    await expect(reader.secondary.passageNumber).toHaveText('2');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a right-to-left edition', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/how-bees-make-honey/v1/ar:original/1');
    await reader.expectPosition(1);
    await expect(reader.primary.passage).toHaveAttribute('dir', 'rtl');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a premium level without a license: the license panel, the locked levels and the upgrade dialog', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/the-fox-who-counted-stars/v1/en:gold/2');
    await expect(page.getByRole('region', { name: 'This content requires a School License' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await reader.primary.levelButton.click();
    await expect(page.getByRole('listbox', { name: 'Reading levels' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('listbox', { name: 'Reading levels' }).getByRole('option', { name: 'Silver' }).click();
    await expect(page.getByRole('dialog', { name: 'Unlock Premium Levels' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await reader.primary.openLanguages();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  test('the 404 panel of a missing edition', async ({ page }) => {
    await new ReaderPage(page).goto('/how-bees-make-honey/v1/ru:gold/1');
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

/** Premium levels, narration and decode mode need a school license: these pages are seen by a licensed reader. */
test.describe('Accessibility of the reader, licensed', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.use(asLicensedReader);

  test('one column on a small screen, with the reader controls menu open', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 760 });
    const reader = new ReaderPage(page);
    await reader.goto('/the-fox-who-counted-stars/v1/en:gold/2');
    await reader.expectPosition(2);
    expect(await seriousViolations(page)).toEqual([]);
    await page.mouse.move(10, 300);
    await reader.controlsMenuButton.click();
    await expect(page.getByRole('dialog', { name: 'Reader controls' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the illustrated title', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/pip-and-the-paper-moon/v1/en:gold/1');
    await reader.expectPosition(1);
    await expect(reader.primary.image).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('the audio player open, then decode mode with its legend', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/the-fox-who-counted-stars/v1/en:original/1');
    await reader.expectPosition(1);
    await reader.primary.listenButton.click();
    await expect(reader.seekSlider).toBeVisible();
    await reader.pauseButton.click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.mouse.move(10, 200);
    await reader.decodeButton.click();
    await expect(reader.decodeLegend).toBeVisible();
    await expect(reader.primary.text.locator('.dc-word').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
