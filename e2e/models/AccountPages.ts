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

/** Manage Organization (/organization): one region per administered organization. */
export class ManageOrganizationPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Manage Organization' });
  }

  async goto() {
    await this.page.goto('/organization');
    await expect(this.heading).toBeVisible();
  }

  organization(name: string) {
    const region = this.page.getByRole('region', { name });
    const inviteForm = region.getByRole('form', { name: `Invite to ${name}` });
    return {
      region,
      members: region.getByRole('table', { name: 'Members' }),
      memberRow: (email: string) => region.getByRole('row').filter({ hasText: email }),
      inviteForm,
      inviteEmail: inviteForm.getByRole('textbox', { name: 'Email' }),
      inviteRole: (role: 'Member' | 'Admin') => inviteForm.getByRole('radio', { name: role }),
      /** Choose a role by clicking its label (React Aria's radio input is visually hidden). */
      chooseRole: async (role: 'Member' | 'Admin') => {
        await inviteForm.locator('label').filter({ hasText: new RegExp(`^${role}$`) }).click();
        await expect(inviteForm.getByRole('radio', { name: role })).toBeChecked();
      },
      createLinkButton: inviteForm.getByRole('button', { name: 'Create Invite Link' }),
      inviteLink: region.getByRole('textbox', { name: 'Invite link' }),
      copyInviteLinkButton: region.getByRole('button', { name: /^(Copy Invite Link|Copied!)$/ }),
      pendingInvitations: region.getByRole('list', { name: 'Pending invitations' }),
      noPendingInvitations: region.getByText('No pending invitations.'),
    };
  }
}

/** The page an invite link opens (/accept-invitation/{id}). */
export class AcceptInvitationPage {
  readonly heading: Locator;
  readonly acceptButton: Locator;
  readonly signUpLink: Locator;
  readonly signInLink: Locator;
  /** Shown while the invitee's address is not confirmed. */
  readonly confirmAddress: Locator;
  readonly sendNewLinkButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Accept Invitation' });
    this.acceptButton = page.getByRole('button', { name: 'Accept Invitation' });
    this.confirmAddress = page.getByText(/^To accept, confirm that .+ is your address/);
    this.sendNewLinkButton = page.getByRole('button', { name: 'Send a new link' });
    const main = page.getByRole('main');
    this.signUpLink = main.getByRole('link', { name: 'Sign Up', exact: true });
    this.signInLink = main.getByRole('link', { name: 'Sign In', exact: true });
  }
}
