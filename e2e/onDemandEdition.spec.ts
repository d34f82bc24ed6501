/**
 * An edition created on demand (SPEC §4 Missing edition; §7 POST /publications/{slug}/sources/on-demand: "On success
 * refreshes publication lists and that publication version"), the success path, in Chromium with its HTTP cache on
 * (no page.route here: it would turn the cache off). How Bees Make Honey has an on-demand source for Spanish GOLD
 * (content/how-bees-make-honey/sources/es.GOLD.md), which a licensed reader may ask for.
 *
 * The tab first sees the title's page and the catalog without the edition, so the browser and the query cache both
 * hold those answers. The reader then creates the edition, and at once, with no minute's wait, the title's page and
 * the catalog show it: in a second tab of the same browser (same HTTP cache), and in the first tab, whose query
 * cache the engine refreshed when the edition was created (src/ui/engine/engine.ts `onEditionCreated`). The server
 * answers both with `Cache-Control: public, no-cache` and an ETag (docs/decisions.md "Spec rows settled").
 */
import { expect, test, type Page } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';
import { PublicationPage } from './models/PublicationPage';
import { ReaderPage } from './models/ReaderPage';
import { asLicensedReader } from './support/licensed';

const BEES = 'How Bees Make Honey';
const READER_ADDRESS = '/how-bees-make-honey/v1/es:gold/1';
/** The Reading Levels tab's Read link of the new edition. */
const READ_SPANISH_GOLD = 'Read Gold, Spanish';

test.use(asLicensedReader);

/** The title's page, reached from the catalog's card (an in-app move: the page asks the API for the title). */
async function openTitleFromCatalog(page: Page): Promise<PublicationPage> {
  const catalog = new CatalogPage(page);
  await catalog.waitForCards();
  await catalog.card(BEES).click();
  const publication = new PublicationPage(page);
  await expect(publication.heading(BEES)).toBeVisible();
  await publication.openReadingLevels();
  return publication;
}

test('an edition created from the reader shows at once on the title page and in the catalog, in this tab and a new one', async ({ page, context }) => {
  // Narration and the engine's chunk are slow on a loaded 2-core machine; every wait below is on a condition.
  test.setTimeout(120_000);
  const catalog = new CatalogPage(page);
  const reader = new ReaderPage(page);

  // Before: no Spanish GOLD on the title's page, and no title in the catalog's Spanish + Gold filter.
  await catalog.goto();
  let publication = await openTitleFromCatalog(page);
  await expect(publication.readingLevelsPanel.getByRole('link', { name: /^Read / }).first()).toBeVisible();
  await expect(publication.readingLevelsPanel.getByRole('link', { name: READ_SPANISH_GOLD })).toHaveCount(0);
  await publication.backLink.click();
  await expect(catalog.heading).toBeVisible();
  await catalog.checkFilters('Spanish', 'Gold');
  await expect(page).toHaveURL(/\/catalog\?languages=es&levels=GOLD$/);
  await expect(catalog.emptyMessage).toBeVisible();

  // The reader asks for Spanish GOLD (an in-app move to its address, as a link in the app makes): the edition is
  // created on demand and its first passage shows.
  await page.evaluate((address) => window.history.pushState(null, '', address), READER_ADDRESS);
  await expect(reader.primary.passage).toHaveAttribute('lang', 'es', { timeout: 30_000 });
  await reader.expectPosition(1);
  await expect(reader.primary.text).toContainText('colmena');
  await expect(reader.primary.levelButton).toContainText(/gold/i);

  // A new tab of the same browser: the catalog's filter and the title's page show the edition.
  const second = await context.newPage();
  const secondCatalog = new CatalogPage(second);
  await secondCatalog.goto();
  await secondCatalog.checkFilters('Spanish', 'Gold');
  await expect(second).toHaveURL(/\/catalog\?languages=es&levels=GOLD$/);
  await expect(secondCatalog.card(BEES)).toBeVisible();
  await expect(secondCatalog.cardLinks).toHaveCount(1);
  const secondPublication = await openTitleFromCatalog(second);
  await expect(secondPublication.readingLevelsPanel.getByRole('link', { name: READ_SPANISH_GOLD })).toHaveAttribute('href', READER_ADDRESS);
  await second.close();

  // This tab: back to the title's page from the reader, then the catalog with the same filter.
  await reader.aboutLink.click();
  publication = new PublicationPage(page);
  await expect(publication.heading(BEES)).toBeVisible();
  await publication.openReadingLevels();
  await expect(publication.readingLevelsPanel.getByRole('link', { name: READ_SPANISH_GOLD })).toHaveAttribute('href', READER_ADDRESS);
  await publication.backLink.click();
  await expect(catalog.heading).toBeVisible();
  await catalog.checkFilters('Spanish', 'Gold');
  await expect(catalog.card(BEES)).toBeVisible();
  await expect(catalog.cardLinks).toHaveCount(1);

  // The edition is there for good: the reader's own link from the title's page opens it.
  await publication.goto('/how-bees-make-honey/v1');
  await publication.openReadingLevels();
  await publication.readingLevelsPanel.getByRole('link', { name: READ_SPANISH_GOLD }).click();
  await expect(page).toHaveURL(READER_ADDRESS);
  await reader.expectPosition(1);
});
