import { expect, type Locator, type Page } from '@playwright/test';

/**
 * "Sign in with your school" on /sign-in (src/ui/screens/auth/SsoSignIn.tsx): the button that opens a
 * form with one 'School email' field and 'Continue', and the alert where a failed round trip's `?error=` shows.
 */
export class SchoolSignIn {
  /** The part of the sign-in page below the password form. */
  readonly region: Locator;
  readonly openButton: Locator;
  readonly form: Locator;
  readonly emailField: Locator;
  readonly continueButton: Locator;
  /** The round trip's error (`/sign-in?error=<code>`), at the top of the card. */
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'Other ways to sign in' });
    this.openButton = this.region.getByRole('button', { name: 'Sign in with your school' });
    this.form = this.region.getByRole('form', { name: 'Sign in with your school' });
    this.emailField = this.form.getByRole('textbox', { name: 'School email' });
    this.continueButton = this.form.getByRole('button', { name: 'Continue' });
    this.alert = page.getByRole('alert');
  }

  /** /sign-in, with `redirectUrl` when given. */
  async goto(redirectUrl?: string) {
    const query = redirectUrl === undefined ? '' : `?${new URLSearchParams({ redirectUrl })}`;
    await this.page.goto(`/sign-in${query}`);
    await expect(this.openButton.or(this.form)).toBeVisible();
  }

  async open() {
    await this.openButton.click();
    await expect(this.emailField).toBeVisible();
  }

  /** Open the form, type the address and press Continue. */
  async start(email: string) {
    await this.open();
    await this.emailField.fill(email);
    await this.continueButton.click();
  }
}

/**
 * The school's provider (tests/support/oidcProvider.ts, served by e2e/support/oidcServer.ts): its login page
 * ('Email', 'Password', 'Sign-in', 'Cancel') and its consent page ('Continue', 'Cancel').
 */
export class ProviderPages {
  readonly loginHeading: Locator;
  readonly emailField: Locator;
  readonly passwordField: Locator;
  readonly signInButton: Locator;
  readonly consentHeading: Locator;
  readonly continueButton: Locator;
  readonly cancelButton: Locator;

  constructor(
    readonly page: Page,
    /** The provider's origin, e.g. http://127.0.0.1:3101. */
    readonly issuer: string,
  ) {
    this.loginHeading = page.getByRole('heading', { level: 1, name: 'Sign-in' });
    this.emailField = page.getByRole('textbox', { name: 'Email' });
    this.passwordField = page.getByLabel('Password');
    this.signInButton = page.getByRole('button', { name: 'Sign-in' });
    this.consentHeading = page.getByRole('heading', { level: 1, name: 'Authorize' });
    this.continueButton = page.getByRole('button', { name: 'Continue' });
    this.cancelButton = page.getByRole('button', { name: 'Cancel' });
  }

  /** The page is on the provider's login page (a full-page navigation: this same page, on the provider's origin). */
  async expectLoginPage() {
    await expect(this.page).toHaveURL((url) => url.origin === this.issuer);
    await expect(this.loginHeading).toBeVisible();
  }

  /** Log in; the consent page follows. */
  async logIn(email: string, password: string) {
    await this.emailField.fill(email);
    await this.passwordField.fill(password);
    await this.signInButton.click();
    await expect(this.consentHeading).toBeVisible();
  }

  /** Allow on the consent page: the provider sends the browser back to the app. */
  async consent(appOrigin: string) {
    await this.continueButton.click();
    await expect(this.page).toHaveURL((url) => url.origin === appOrigin);
  }
}
