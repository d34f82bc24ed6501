import { expect, type Locator, type Page } from '@playwright/test';

/** /terms and /privacy (SPEC §2 footer links): the legal texts of content/legal/. */
export class LegalPage {
  readonly heading: Locator;
  readonly sections: Locator;
  readonly article: Locator;

  constructor(
    readonly page: Page,
    readonly kind: 'terms' | 'privacy',
  ) {
    this.heading = page.getByRole('heading', { level: 1, name: kind === 'terms' ? 'Terms of Service' : 'Privacy Policy' });
    this.sections = page.getByRole('main').getByRole('heading', { level: 2 });
    this.article = page.getByRole('main').getByRole('article');
  }

  async goto() {
    await this.page.goto(`/${this.kind}`);
    await expect(this.heading).toBeVisible();
  }
}
