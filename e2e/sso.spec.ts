/**
 * Single sign-on in Chromium: "Sign in with your school" against a real OpenID provider (oidc-provider
 * behind its own login and consent pages, e2e/support/oidcServer.ts, started by playwright.config.ts). The school
 * `maple` and its provider are added with the operator's CLI, and a roster with its principal is imported, as an
 * operator would. Covered: a teacher's first sign-in (a full-page redirect to the provider and back, a member of
 * Maple Primary School with the Teacher role and no role modal), the principal made an org admin by the roster, the
 * redirectUrl kept through the round trip, an address whose domain has no provider, a cancel at the provider, an
 * address the provider did not verify (no account, no session), and the password form's 'Email' field beside the
 * school form. Manage Account lists no organizations, so the membership is read from GET /users/me.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { OIDC_PORT } from '../playwright.config';
import { AuthPage, ManageAccountPage, ManageOrganizationPage, RoleModal, SignedInMenu, uniqueEmail } from './models/AccountPages';
import { ProviderPages, SchoolSignIn } from './models/SsoPages';
import { AdminCommandError, admin } from './support/admin';
import { E2E_OIDC_ACCOUNTS, E2E_OIDC_CLIENT_ID, E2E_OIDC_CLIENT_SECRET, E2E_OIDC_PASSWORD } from './support/oidcServer';

const ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
const ORG_SLUG = 'maple';
const ORG_NAME = 'Maple Primary School';
const TEACHER = E2E_OIDC_ACCOUNTS.find((a) => a.email === 'teacher@maple.school')!;
const PRINCIPAL = E2E_OIDC_ACCOUNTS.find((a) => a.email === 'principal@maple.school')!;
const UNVERIFIED = E2E_OIDC_ACCOUNTS.find((a) => a.email === 'unverified@maple.school')!;

const NOT_CONFIGURED = "Your school has not set up sign-in with Lectern for this address. Sign in with your email and password, or ask your school's IT team.";
const CANCELLED = 'You cancelled signing in. Choose how to sign in below.';
const NOT_VERIFIED = /did not confirm your email address, so no account was made/;

/** A OneRoster 1.2 file: the header, then one line per row, each value in the header's column (empty when missing). */
function csv(columns: readonly string[], rows: Record<string, string>[]): string {
  return [columns.join(','), ...rows.map((row) => columns.map((c) => row[c] ?? '').join(','))].join('\n') + '\n';
}

/** A tiny OneRoster 1.2 folder: Maple's principal, as `principal` (the org-admin role). */
function writeRoster(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'lectern-e2e-roster-'));
  const modified = '2026-08-20T09:00:00.000Z';
  const files: Record<string, string> = {
    'manifest.csv': csv(['propertyName', 'value'], [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.2' },
      { propertyName: 'file.orgs', value: 'bulk' },
      { propertyName: 'file.users', value: 'bulk' },
      { propertyName: 'file.roles', value: 'bulk' },
      { propertyName: 'file.enrollments', value: 'absent' },
      { propertyName: 'file.classes', value: 'absent' },
    ]),
    'orgs.csv': csv(['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'], [
      { sourcedId: 'org-maple', status: 'active', dateLastModified: modified, name: ORG_NAME, type: 'school', identifier: 'MPS' },
    ]),
    'users.csv': csv(
      [
        'sourcedId', 'status', 'dateLastModified', 'enabledUser', 'username', 'userIds', 'givenName', 'familyName', 'middleName',
        'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password', 'userMasterIdentifier', 'resourceSourcedIds',
        'preferredGivenName', 'preferredMiddleName', 'preferredFamilyName', 'primaryOrgSourcedId', 'pronouns',
      ],
      [
        {
          sourcedId: 'p-1', status: 'active', dateLastModified: modified, enabledUser: 'true', username: 'pat.principal',
          givenName: 'Pat', familyName: 'Principal', identifier: 'P-1', email: PRINCIPAL.email, primaryOrgSourcedId: 'org-maple',
        },
      ],
    ),
    'roles.csv': csv(['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role', 'beginDate', 'endDate', 'orgSourcedId', 'userProfileSourcedId'], [
      { sourcedId: 'role-p-1', status: 'active', dateLastModified: modified, userSourcedId: 'p-1', roleType: 'primary', role: 'principal', beginDate: '2026-09-01', orgSourcedId: 'org-maple' },
    ]),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder, name), text);
  return folder;
}

test.beforeAll(async () => {
  test.setTimeout(120_000); // three CLI commands on a busy machine
  try {
    await admin('org', 'create', ORG_NAME, '--slug', ORG_SLUG);
  } catch (error) {
    // A worker that restarts after a failure runs this again against the same server.
    if (!(error instanceof AdminCommandError && /exists already/.test(error.stderr + error.stdout))) throw error;
  }
  // `sso add` replaces a provider that is there; a re-import of the same roster changes nothing.
  const added = await admin(
    'sso', 'add', ORG_SLUG, '--issuer', ISSUER, '--client-id', E2E_OIDC_CLIENT_ID, '--client-secret', E2E_OIDC_CLIENT_SECRET,
    '--domain', 'maple.school', '--default-role', 'teacher',
  );
  expect(added).toContain(`single sign-on for ${ORG_SLUG}`);
  expect(added).not.toContain(E2E_OIDC_CLIENT_SECRET);
  const imported = await admin('roster', 'import', ORG_SLUG, writeRoster());
  expect(imported).toMatch(/^Imported the roster into /m);
});

/** Tabs opened during the test: a full-page redirect opens none. */
function watchNewPages(page: Page): Page[] {
  const opened: Page[] = [];
  page.context().on('page', (p) => opened.push(p));
  return opened;
}

/** From the school form to the provider's login page, in this same page. */
async function toProvider(page: Page, email: string, redirectUrl?: string): Promise<ProviderPages> {
  const school = new SchoolSignIn(page);
  await school.goto(redirectUrl);
  await school.start(email);
  const provider = new ProviderPages(page, ISSUER);
  await provider.expectLoginPage();
  return provider;
}

/** The whole round trip for `email`: back in Lectern on the page the sign-in lands on. */
async function signInWithSchool(page: Page, email: string, redirectUrl?: string) {
  const provider = await toProvider(page, email, redirectUrl);
  // The address typed in Lectern comes to the provider as its login hint.
  await expect(provider.emailField).toHaveValue(email);
  await provider.logIn(email, E2E_OIDC_PASSWORD);
  await provider.consent(appOrigin());
}

/** The app's origin (playwright.config.ts's baseURL). */
function appOrigin(): string {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('the sso spec needs the baseURL of playwright.config.ts');
  return new URL(base).origin;
}

async function currentUser(page: Page) {
  const response = await page.request.get('/api/v1/users/me');
  return { status: response.status(), body: response.ok() ? await response.json() : null };
}

test('a teacher signs in with their school: the provider in the same tab, then back in Lectern as a Maple teacher', async ({ page }) => {
  test.slow(); // two sites and an ID token check on a busy machine
  const opened = watchNewPages(page);
  await signInWithSchool(page, TEACHER.email);
  // The default target.
  await expect(page).toHaveURL(/\/catalog$/);
  expect(opened).toEqual([]);

  const menu = new SignedInMenu(page);
  const { card } = await menu.open();
  await expect(card.getByTestId('account-name')).toHaveText(TEACHER.name!);
  await expect(card.getByTestId('account-email')).toHaveText(TEACHER.email);
  await expect(card.getByTestId('account-role')).toHaveText('Teacher');
  // Members, not admins: no Manage Organization.
  await expect(page.getByRole('menuitem', { name: 'Manage Organization' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Manage Account' }).click();

  const account = new ManageAccountPage(page);
  await expect(account.heading).toBeVisible();
  await expect(page.getByText('Role: Teacher')).toBeVisible();
  // No Lectern password: the Password section says how to add one instead of asking for a current one, and the
  // school sign-in is linked already.
  const password = page.getByRole('region', { name: 'Password' });
  await expect(password).toContainText('You sign in with your school account, so this account has no password.');
  await expect(password.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  await expect(password.getByLabel('Current password')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Sign-in with your school' })).toContainText("Your account signs in with Maple Primary School's sign-in.");
  // Manage Account does not list organizations: the membership is read from GET /users/me.
  const me = await currentUser(page);
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ email: TEACHER.email, emailVerified: true, role: 'TEACHER' });
  expect(me.body.organizationMemberships).toEqual([expect.objectContaining({ role: 'org:member', organization: expect.objectContaining({ slug: ORG_SLUG, name: ORG_NAME }) })]);
  // They have a role, so no role modal: the user is loaded (the menu, the page) and none opened.
  await expect(new RoleModal(page).dialog).toHaveCount(0);
});

test("the roster's principal signs in as Maple's org admin; without a reading role they get the role modal", async ({ page }) => {
  test.slow();
  await signInWithSchool(page, PRINCIPAL.email);
  await expect(page).toHaveURL(/\/catalog$/);
  // The roster gives the org-admin role and no reading role (not the provider's default, teacher): the modal asks.
  const modal = new RoleModal(page);
  await expect(modal.dialog).toBeVisible();
  // Closed, not answered: they stay without a reading role.
  await modal.dialog.getByRole('button', { name: 'Close' }).click();
  await expect(modal.dialog).toBeHidden();

  const { menu } = await new SignedInMenu(page).open();
  await menu.getByRole('menuitem', { name: 'Manage Organization' }).click();
  const manage = new ManageOrganizationPage(page);
  await expect(manage.heading).toBeVisible();
  const maple = manage.organization(ORG_NAME);
  // The Members table (the roster's own table lists them too).
  const row = maple.members.getByRole('row').filter({ hasText: PRINCIPAL.email });
  await expect(row).toContainText(`${PRINCIPAL.name} (you)`);
  await expect(row).toContainText('Admin');
  const me = await currentUser(page);
  expect(me.body).toMatchObject({ email: PRINCIPAL.email, role: null });
  expect(me.body.organizationMemberships).toEqual([expect.objectContaining({ role: 'org:admin', organization: expect.objectContaining({ slug: ORG_SLUG }) })]);
});

test('the page asked for in redirectUrl is where the round trip lands', async ({ page }) => {
  test.slow();
  const target = '/catalog?search=moon';
  await signInWithSchool(page, TEACHER.email, target);
  await expect(page).toHaveURL((url) => url.pathname + url.search === target);
  await expect(page.getByRole('searchbox', { name: 'Search by title or author' })).toHaveValue('moon');
  expect((await currentUser(page)).status).toBe(200);
});

test('an address whose domain has no provider is told so under the field, and stays on the page', async ({ page }) => {
  const school = new SchoolSignIn(page);
  await school.goto();
  await school.start('someone@nowhere.example');
  await expect(school.emailField).toHaveAttribute('aria-invalid', 'true');
  await expect(school.emailField).toHaveAccessibleDescription(NOT_CONFIGURED);
  await expect(school.form.getByText(NOT_CONFIGURED)).toBeVisible();
  await expect(school.emailField).toBeFocused();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(school.alert).toHaveCount(0);
  // Typing again clears the message.
  await school.emailField.fill('someone@nowhere.exampl');
  await expect(school.emailField).not.toHaveAttribute('aria-invalid', 'true');
});

test('a cancel at the provider comes back to the sign-in page with the cancelled message, not signed in', async ({ page }) => {
  const provider = await toProvider(page, TEACHER.email, '/account');
  await provider.cancelButton.click();
  // Back on the sign-in page, which still knows where to go after signing in.
  await expect(page).toHaveURL(
    (url) =>
      url.origin === appOrigin() &&
      url.pathname === '/sign-in' &&
      url.searchParams.get('error') === 'access_denied' &&
      url.searchParams.get('redirectUrl') === '/account',
  );
  const school = new SchoolSignIn(page);
  await expect(school.alert).toHaveText(CANCELLED);
  await expect(new AuthPage(page, 'sign-in').heading).toBeVisible();
  expect((await currentUser(page)).status).toBe(401);
});

test('an address the provider did not verify comes back with its message, and no account or session', async ({ page }) => {
  test.slow();
  const provider = await toProvider(page, UNVERIFIED.email);
  await provider.logIn(UNVERIFIED.email, E2E_OIDC_PASSWORD);
  await provider.continueButton.click();
  await expect(page).toHaveURL((url) => url.origin === appOrigin() && url.pathname === '/sign-in' && url.searchParams.get('error') === 'email_not_verified');
  const school = new SchoolSignIn(page);
  await expect(school.alert).toHaveText(NOT_VERIFIED);
  expect((await currentUser(page)).status).toBe(401);
  // No account was made (the operator's CLI finds none to send a reset link to).
  await expect(admin('user', 'reset-link', UNVERIFIED.email)).rejects.toThrow(`No user with the email '${UNVERIFIED.email}'`);
});

test("the password form's 'Email' field is still the password sign-in's, beside the school form", async ({ page }) => {
  const PASSWORD = 'copper-meadow-lantern';
  const email = uniqueEmail('password');
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto();
  // The sign-up page has no school form.
  await expect(new SchoolSignIn(page).openButton).toHaveCount(0);
  await signUp.submit({ name: 'Paula Password', email, password: PASSWORD });
  const modal = new RoleModal(page);
  await modal.readerButton.click();
  await expect(modal.dialog).toBeHidden();
  await new SignedInMenu(page).signOut();
  await expect.poll(async () => (await currentUser(page)).status).toBe(401);

  const school = new SchoolSignIn(page);
  await school.goto('/account');
  await school.open();
  // 'Email' (exact) is the password form's field only, with the school form open.
  await expect(page.getByLabel('Email', { exact: true })).toHaveCount(1);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await expect(school.emailField).toHaveValue('');
  await new AuthPage(page, 'sign-in').submitButton.click();
  await expect(new ManageAccountPage(page).heading).toBeVisible();
  await expect(page.getByText('Role: Reader')).toBeVisible();
});
