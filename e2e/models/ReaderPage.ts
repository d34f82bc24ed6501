import type { Locator, Page } from '@playwright/test';

/** The interim reader: passage text, previous / next and the link back to the publication. */
export class ReaderPage {
  readonly passages: Locator;
  readonly previousLink: Locator;
  readonly nextLink: Locator;
  readonly aboutLink: Locator;

  constructor(readonly page: Page) {
    this.passages = page.getByRole('navigation', { name: 'Passages' });
    this.previousLink = this.passages.getByRole('link', { name: 'Previous passage' });
    this.nextLink = this.passages.getByRole('link', { name: 'Next passage' });
    this.aboutLink = page.getByRole('link', { name: 'About this book' });
  }

  passage(position: number): Locator {
    return this.page.getByRole('region', { name: `Passage ${position}` });
  }
}
