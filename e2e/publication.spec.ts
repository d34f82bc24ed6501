import { expect, test } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';
import { PublicationPage } from './models/PublicationPage';
import { ReaderPage } from './models/ReaderPage';
import { asLicensedReader } from './support/licensed';

test.describe('Publication page', () => {
  test('opening a title from the library shows its overview', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.card('How Bees Make Honey').click();

    const publication = new PublicationPage(page);
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v\d+$/);
    await expect(publication.heading('How Bees Make Honey')).toBeVisible();
    await expect(page).toHaveTitle('How Bees Make Honey | Lectern');
    await expect(page.getByRole('img', { name: 'Cover of How Bees Make Honey' })).toBeVisible();

    await expect(publication.overviewTab).toHaveAttribute('aria-selected', 'true');
    await expect(publication.section('Available Reading Levels')).toBeVisible();
    expect(await publication.levelChips.count()).toBeGreaterThanOrEqual(1);
    for (const chip of await publication.levelChips.allTextContents()) expect(['Gold', 'Silver', 'Original']).toContain(chip.trim());

    const accessibility = publication.section('Accessibility Features');
    await expect(accessibility.getByText('Decode Mode')).toBeVisible();
    await expect(accessibility.getByText('102 Languages')).toBeVisible();
    const tags = publication.section('Tags');
    await expect(tags.getByText('fantasy', { exact: true })).toBeVisible();
    await expect(tags.getByText('adventure', { exact: true })).toBeVisible();

    await publication.backLink.click();
    await expect(page).toHaveURL(/\/catalog$/);
  });

  test('text information sections expand and collapse', async ({ page }) => {
    const publication = new PublicationPage(page);
    await publication.goto('/how-bees-make-honey/v1');
    const info = publication.section('Text Information');
    await expect(info).toBeVisible();
    const trigger = info.getByRole('button').first();
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await trigger.click();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const panelId = await trigger.getAttribute('aria-controls');
    const panel = page.locator(`[id="${panelId}"]`);
    await expect(panel).toBeVisible();
    await expect(panel.locator('p, li').first()).toBeVisible();
    await trigger.click();
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  test('a publication address without a version goes to the latest version', async ({ page }) => {
    await page.goto('/how-bees-make-honey');
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How Bees Make Honey' })).toBeVisible();

    await page.goto('/how-bees-make-honey/overview');
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How Bees Make Honey' })).toBeVisible();
  });
});

/** The reader behind these links opens premium levels (GOLD): a licensed reader follows them. */
test.describe('Publication page, licensed', () => {
  test.use(asLicensedReader);

  test('the Reading Levels tab lists editions with word counts and Read links', async ({ page }) => {
    const publication = new PublicationPage(page);
    await publication.goto('/the-fox-who-counted-stars/v1');
    await expect(publication.heading('The Fox Who Counted Stars')).toBeVisible();
    await publication.openReadingLevels();

    const table = publication.readingLevelsPanel.getByRole('table').first();
    for (const column of ['Level', 'Language', 'Total Words', 'Unique Words', 'Lexile Level']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    const rows = publication.levelRows();
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    const first = rows.first();
    await expect(first.getByRole('cell').nth(1)).toHaveText(/^\d[\d,]*$/);
    await expect(first.getByRole('cell').nth(2)).toHaveText(/^\d[\d,]*$/);
    await expect(first.getByRole('cell').nth(3)).toHaveText(/^(N\/A|\S+)$/);
    await expect(first.getByRole('link', { name: /^Read / })).toHaveAttribute('href', /^\/the-fox-who-counted-stars\/v\d+\/[a-z]+:(gold|silver|original)\/1$/);
    await expect(publication.readingLevelsPanel.getByRole('heading', { name: 'About Lexile levels' })).toBeVisible();

    await first.getByRole('link', { name: /^Read / }).click();
    const reader = new ReaderPage(page);
    await expect(reader.passage(1)).toBeVisible();
    await expect(page).toHaveTitle('The Fox Who Counted Stars | Lectern');
  });

  test('Read Online keeps the query string and opens the reader', async ({ page }) => {
    const publication = new PublicationPage(page);
    await publication.goto('/pip-and-the-paper-moon/v1?from=e2e');
    await expect(publication.readOnlineLink).toHaveAttribute('href', '/pip-and-the-paper-moon/v1/read?from=e2e');
    await publication.readOnlineLink.click();

    const reader = new ReaderPage(page);
    // The reader entry opens the default reader; the engine writes the canonical reader address.
    await expect(page).toHaveURL(/\/pip-and-the-paper-moon\/v1\/en:gold\/1(\?from=e2e)?$/);
    await expect(reader.passage(1)).toBeVisible();
    await expect(page).toHaveTitle('Pip and the Paper Moon | Lectern');
    await expect(reader.previousButton).toBeDisabled();
    await reader.nextButton.click();
    await expect(page).toHaveURL(/\/pip-and-the-paper-moon\/v1\/en:gold\/2(\?from=e2e)?$/);
    await expect(reader.passage(2)).toBeVisible();
    await reader.aboutLink.click();
    await expect(publication.heading('Pip and the Paper Moon')).toBeVisible();
  });
});
