import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** The Free Library (SPEC §2 Catalog). */
export class CatalogPage {
  readonly shell: AppShell;
  readonly heading: Locator;
  readonly searchBox: Locator;
  readonly clearSearchButton: Locator;
  readonly sortButton: Locator;
  readonly titles: Locator;
  readonly cardLinks: Locator;
  readonly cardTitles: Locator;
  readonly emptyMessage: Locator;
  readonly pagination: Locator;
  readonly previousButton: Locator;
  readonly nextButton: Locator;
  readonly pageInput: Locator;
  /** The teacher's dismissible tip about the eye icons. */
  readonly eyeTip: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Free Library' });
    this.searchBox = page.getByRole('searchbox', { name: 'Search by title or author' });
    this.clearSearchButton = page.getByRole('search').getByRole('button', { name: /clear/i });
    this.sortButton = page.getByRole('button', { name: 'Filter / Sort' });
    this.titles = page.getByRole('list', { name: 'Titles' });
    this.cardLinks = this.titles.getByRole('link');
    this.cardTitles = this.titles.getByRole('heading', { level: 2 });
    this.emptyMessage = page.getByText('No titles found');
    this.pagination = page.getByRole('navigation', { name: 'Pagination' });
    this.previousButton = this.pagination.getByRole('button', { name: 'Previous page' });
    this.nextButton = this.pagination.getByRole('button', { name: 'Next page' });
    this.pageInput = this.pagination.getByRole('textbox', { name: 'Go to page' });
    this.eyeTip = page.getByRole('region', { name: 'Tip' });
  }

  async goto(query = '') {
    await this.page.goto(`/catalog${query ? `?${query}` : ''}`);
    await expect(this.heading).toBeVisible();
  }

  /** Wait until the cards (not the loading skeletons) are shown. */
  async waitForCards() {
    await expect(this.cardLinks.first()).toBeVisible();
  }

  async titleTexts(): Promise<string[]> {
    await this.waitForCards();
    return (await this.cardTitles.allTextContents()).map((t) => t.trim());
  }

  async search(text: string) {
    await this.searchBox.fill(text);
  }

  async chooseSort(label: string) {
    await this.sortButton.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitemradio', { name: label }).click();
    await expect(menu).toBeHidden();
  }

  /** Check Language and Level filters in the Filter / Sort menu ('Spanish', 'Gold', …), then close it. */
  async checkFilters(...labels: string[]) {
    await this.sortButton.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    for (const label of labels) {
      const item = menu.getByRole('menuitemcheckbox', { name: label, exact: true });
      await item.click();
      await expect(item).toHaveAttribute('aria-checked', 'true');
    }
    await this.page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  }

  /** The teacher-only filter in the Filter / Sort menu: 'All', 'Assigned' or 'Unassigned'. */
  async chooseFilter(label: 'All' | 'Assigned' | 'Unassigned') {
    await this.sortButton.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    await menu.getByRole('menuitemradio', { name: label, exact: true }).click();
    await expect(menu).toBeHidden();
  }

  /** A card's eye toggle (teachers): pressed means visible to students. */
  eyeToggle(title: string): Locator {
    return this.titles.getByRole('button', { name: `Visible to students: ${title}` });
  }

  pageButton(n: number): Locator {
    return this.pagination.getByRole('button', { name: `Page ${n}`, exact: true });
  }

  card(title: string): Locator {
    return this.cardLinks.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) });
  }
}
