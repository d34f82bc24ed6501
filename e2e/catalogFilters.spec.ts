/**
 * The catalog's Language and Level filters (SPEC §2 `languages`, `levels`) from the address and from the
 * Filter / Sort menu, and `legacyEditionSlug` (SPEC §2), which sends an older link to a title to the reader address
 * of the edition it names. The library (content/): four titles have an Arabic edition, all of them ORIGINAL; every
 * title has English ORIGINAL, GOLD and SILVER.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';
import { ReaderPage } from './models/ReaderPage';

const ARABIC_TITLES = ['A City Under the Waves: Life on a Coral Reef', 'How Bees Make Honey', 'Noor Counts the Cars', 'The Goat Who Chased the Shade'];

test.describe('Catalog filters', () => {
  test('an address with languages and levels shows only the matching titles, and the menu shows them checked', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto('languages=ar&levels=ORIGINAL');
    expect(await catalog.titleTexts()).toEqual(ARABIC_TITLES);
    await expect(page.getByText('4 titles', { exact: true })).toBeVisible();

    await catalog.sortButton.click();
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitemcheckbox', { name: 'Arabic' })).toHaveAttribute('aria-checked', 'true');
    await expect(menu.getByRole('menuitemcheckbox', { name: 'Original' })).toHaveAttribute('aria-checked', 'true');
    await expect(menu.getByRole('menuitemcheckbox', { name: 'Spanish' })).toHaveAttribute('aria-checked', 'false');
    await expect(menu.getByRole('menuitemcheckbox', { name: 'Gold' })).toHaveAttribute('aria-checked', 'false');

    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
  });

  test('one edition must be in the language and at the level; an empty result offers to clear the filters', async ({ page }) => {
    const catalog = new CatalogPage(page);
    // Arabic exists only at ORIGINAL, GOLD only in English.
    await catalog.goto('languages=ar&levels=GOLD');
    await expect(catalog.emptyMessage).toBeVisible();
    await expect(catalog.cardLinks).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/catalog$/);
    await catalog.waitForCards();
    await expect(catalog.cardLinks).toHaveCount(16);
  });

  test('choosing a Level in the menu updates the address and goes back to page 1', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto('p=2');
    await catalog.waitForCards();
    await expect(catalog.pageInput).toHaveValue('2');

    await catalog.sortButton.click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitemcheckbox', { name: 'Original' }).click();
    await expect(page).toHaveURL(/\/catalog\?levels=ORIGINAL$/);
    await expect(catalog.pageInput).toHaveValue('1');
    // The menu stays open for more choices: Arabic narrows the list to the titles with an Arabic Original edition.
    await menu.getByRole('menuitemcheckbox', { name: 'Arabic' }).click();
    await expect(page).toHaveURL(/\/catalog\?levels=ORIGINAL&languages=ar$/);
    await expect(catalog.cardTitles).toHaveText(ARABIC_TITLES);
    await expect(menu.getByRole('menuitemcheckbox', { name: 'Arabic' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // Unchecking the language widens the list again; the address keeps the level.
    await catalog.sortButton.click();
    await menu.getByRole('menuitemcheckbox', { name: 'Arabic' }).click();
    await expect(page).toHaveURL(/\/catalog\?levels=ORIGINAL$/);
    await expect(catalog.cardLinks).toHaveCount(16);
  });

  test('an unknown value in the address is ignored', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto('languages=klingon,ar');
    expect(await catalog.titleTexts()).toEqual(ARABIC_TITLES);
  });
});

test.describe('legacyEditionSlug', () => {
  // The reader's first passage can take more than the default 10 s on a loaded machine (the engine's chunk and the
  // version-less address's lookup); these wait longer for it, on conditions only.
  const READER_READY = { timeout: 45_000 };

  test("a title's address with legacyEditionSlug opens the reader at that edition", async ({ page }) => {
    test.setTimeout(90_000);
    const reader = new ReaderPage(page);
    await page.goto('/how-bees-make-honey/v1?legacyEditionSlug=es-ORIGINAL');
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v1\/es:original\/1$/);
    await expect(reader.primary.text).toContainText('Una colonia de abejas melíferas es como una ciudad bulliciosa', READER_READY);
    await reader.expectPosition(1);
  });

  test('without a version it opens the latest, at the position given', async ({ page }) => {
    test.setTimeout(90_000);
    const reader = new ReaderPage(page);
    await page.goto('/how-bees-make-honey?legacyEditionSlug=ORIGINAL&position=2');
    // The reader opens the latest version and writes its canonical address.
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v\d+\/en:original\/2$/, READER_READY);
    await expect(reader.primary.passageNumber).toHaveText('2', READER_READY);
    await reader.expectPosition(2);
  });

  test('a slug that names no edition is the 404 page', async ({ page }) => {
    await page.goto('/how-bees-make-honey/v1?legacyEditionSlug=fr-GOLD');
    await expect(page).toHaveURL(/\/not-found$/);
  });
});
