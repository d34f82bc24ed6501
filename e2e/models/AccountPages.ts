import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** /sign-in and /sign-up (SPEC §2 Sign-in and sign-up), found by their labels and roles. */
export class AuthPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly nameField: Locator;
  readonly emailField: Locator;
  readonly passwordField: Locator;
  readonly submitButton: Locator;
  readonly formError: Locator;
  readonly otherPageLink: Locator;

  constructor(
    readonly page: Page,
    readonly mode: 'sign-in' | 'sign-up',
  ) {
    const title = mode === 'sign-in' ? 'Sign In' : 'Sign Up';
    this.heading = page.getByRole('heading', { level: 1, name: title });
    this.form = page.getByRole('form', { name: title });
    this.nameField = this.form.getByRole('textbox', { name: 'Name' });
    this.emailField = this.form.getByRole('textbox', { name: 'Email' });
    this.passwordField = this.form.getByLabel('Password', { exact: true });
    this.submitButton = this.form.getByRole('button', { name: title });
    this.formError = page.getByRole('alert');
    this.otherPageLink = page.getByRole('main').getByRole('link', { name: mode === 'sign-in' ? 'Sign Up' : 'Sign In', exact: true });
  }

  async goto(redirectUrl?: string) {
    const query = redirectUrl === undefined ? '' : `?${new URLSearchParams({ redirectUrl })}`;
    await this.page.goto(`/${this.mode}${query}`);
    await expect(this.heading).toBeVisible();
  }

  async fill(values: { name?: string; email: string; password: string }) {
    if (values.name !== undefined) await this.nameField.fill(values.name);
    await this.emailField.fill(values.email);
    await this.passwordField.fill(values.password);
  }

  async submit(values: { name?: string; email: string; password: string }) {
    await this.fill(values);
    await this.submitButton.click();
  }
}

/** The role-selection modal (SPEC §2). */
export class RoleModal {
  readonly dialog: Locator;
  readonly prompt: Locator;
  readonly teacherButton: Locator;
  readonly readerButton: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Personalize Your Experience' });
    this.prompt = this.dialog.getByText('How are you using the product?');
    this.teacherButton = this.dialog.getByRole('button', { name: "I'm a Teacher" });
    this.readerButton = this.dialog.getByRole('button', { name: "I'm a Reader" });
  }
}

/** The signed-in right-hand menu: avatar, a card with name, email and role, Manage Account, Sign Out. */
export class SignedInMenu {
  readonly shell: AppShell;
  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
  }

  async open() {
    const menu = await this.shell.openAccountMenu();
    const card = this.page.getByTestId('account-card');
    return { menu, card };
  }

  async signOut() {
    const { menu } = await this.open();
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  }
}

/** Manage Account (/account). */
export class ManageAccountPage {
  readonly heading: Locator;
  readonly nameForm: Locator;
  readonly emailForm: Locator;
  readonly passwordForm: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Manage Account' });
    this.nameForm = page.getByRole('form', { name: 'Name' });
    this.emailForm = page.getByRole('form', { name: 'Email' });
    this.passwordForm = page.getByRole('form', { name: 'Password' });
  }

  async goto() {
    await this.page.goto('/account');
    await expect(this.heading).toBeVisible();
  }
}

let counter = 0;
/** An email no earlier run used. */
export function uniqueEmail(label = 'reader'): string {
  return `e2e.${label}.${Date.now()}.${process.pid}.${counter++}@example.org`;
}
