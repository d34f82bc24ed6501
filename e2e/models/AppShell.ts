import { expect, type Locator, type Page } from '@playwright/test';

/** The shared layout (SPEC §2 Shared layout): navbar, anonymous account menu and footer. */
export class AppShell {
  readonly banner: Locator;
  readonly mainNav: Locator;
  readonly freeLibraryLink: Locator;
  readonly shopLink: Locator;
  readonly accountMenuButton: Locator;
  readonly footer: Locator;

  constructor(readonly page: Page) {
    this.banner = page.getByRole('banner');
    this.mainNav = page.getByRole('navigation', { name: 'Main' });
    this.freeLibraryLink = this.mainNav.getByRole('link', { name: 'Free Library' });
    this.shopLink = this.mainNav.getByRole('link', { name: /Shop Paperbacks/ });
    this.accountMenuButton = page.getByRole('button', { name: 'Account menu' });
    this.footer = page.getByRole('contentinfo');
  }

  async openAccountMenu(): Promise<Locator> {
    await this.accountMenuButton.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    return menu;
  }
}
