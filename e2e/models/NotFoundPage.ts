import type { Locator, Page } from '@playwright/test';

export const PAGE_NOT_FOUND_TEXT = "The page you are looking for doesn't exist";
export const NOVEL_NOT_FOUND_TEXT = 'Unable to retrieve this Novel. If you believe this is an error, please contact support';

/** The 404 page (SPEC §8). */
export class NotFoundPage {
  readonly pageMessage: Locator;
  readonly novelMessage: Locator;
  readonly goHomeLink: Locator;

  constructor(readonly page: Page) {
    this.pageMessage = page.getByRole('heading', { name: PAGE_NOT_FOUND_TEXT });
    this.novelMessage = page.getByRole('heading', { name: NOVEL_NOT_FOUND_TEXT });
    this.goHomeLink = page.getByRole('link', { name: 'Go to Lectern' });
  }
}
