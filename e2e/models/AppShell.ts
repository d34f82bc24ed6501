import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The shared layout (SPEC §2 Shared layout): navbar links, the account menu (anonymous, signed-in and class-code
 * variants), 'Enter Class Code', the class-code banner, the engine's toasts and the footer.
 */
export class AppShell {
  readonly banner: Locator;
  readonly mainNav: Locator;
  readonly freeLibraryLink: Locator;
  readonly classroomLibraryLink: Locator;
  readonly shopLink: Locator;
  readonly accountMenuButton: Locator;
  readonly enterClassCodeButton: Locator;
  /** The class-code banner: 'Your Class Code is {code}.' with Copy Magic Link. */
  readonly classCodeBanner: Locator;
  readonly copyMagicLinkButton: Locator;
  readonly footer: Locator;

  constructor(readonly page: Page) {
    this.banner = page.getByRole('banner');
    this.mainNav = page.getByRole('navigation', { name: 'Main' });
    this.freeLibraryLink = this.mainNav.getByRole('link', { name: 'Free Library' });
    this.classroomLibraryLink = this.mainNav.getByRole('link', { name: 'Classroom Library' });
    this.shopLink = this.mainNav.getByRole('link', { name: /Shop Paperbacks/ });
    this.accountMenuButton = page.getByRole('button', { name: 'Account menu' });
    this.enterClassCodeButton = this.banner.getByRole('button', { name: 'Enter Class Code' });
    this.classCodeBanner = page.getByRole('region', { name: 'Class code' });
    this.copyMagicLinkButton = this.classCodeBanner.getByRole('button', { name: /Copy Magic Link|Copied!/ });
    this.footer = page.getByRole('contentinfo');
  }

  async openAccountMenu(): Promise<Locator> {
    await this.accountMenuButton.click();
    const menu = this.page.getByRole('menu');
    await expect(menu).toBeVisible();
    return menu;
  }

  /** The class code the teacher's banner shows ('Your Class Code is {code}.'), once it shows one. */
  async shownClassCode(): Promise<string> {
    await expect(this.classCodeBanner).toContainText(/Your Class Code is [A-Z0-9]{8}\./);
    return /Your Class Code is ([A-Z0-9]{8})\./.exec((await this.classCodeBanner.textContent()) ?? '')![1]!;
  }

  /** A toast of the engine's queue (success: status, error: alert). */
  toast(text: string): Locator {
    return this.page.getByRole('status').or(this.page.getByRole('alert')).filter({ hasText: text });
  }

  /** Type a class code in the 'Enter Class Code' dialog and submit it. */
  async enterClassCode(code: string) {
    await this.enterClassCodeButton.click();
    const dialog = this.page.getByRole('dialog', { name: 'Enter Class Code' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Class Code' }).fill(code);
    await dialog.getByRole('button', { name: 'Submit' }).click();
    return dialog;
  }
}
