/**
 * Accounts in the browser: sign-up and sign-in with the server's errors, the role modal, the
 * signed-in menu, sign-out, redirect targets (a different domain is blocked), Manage Account, and axe on the
 * two pages. Every run uses new email addresses; the server's data dir is fresh per run anyway.
 */
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { AppShell } from './models/AppShell';
import { AuthPage, ManageAccountPage, RoleModal, SignedInMenu, uniqueEmail } from './models/AccountPages';
import { expectMailTo, linkMailedTo } from './support/outbox';

const PASSWORD = 'copper-meadow-lantern';

/** `npm run admin -- …` against the e2e server's data dir (it reaches the running server through its admin socket). */
function admin(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/bin/admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '.data-e2e', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Sign up a new account; with `role`, also answer the role modal that follows. */
async function signUpFresh(page: Page, name: string, options: { redirectUrl?: string; role?: 'Teacher' | 'Reader' } = {}) {
  const email = uniqueEmail(name.split(' ')[0]!.toLowerCase());
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto(options.redirectUrl);
  await signUp.submit({ name, email, password: PASSWORD });
  if (options.role) {
    const modal = new RoleModal(page);
    await (options.role === 'Teacher' ? modal.teacherButton : modal.readerButton).click();
    await expect(modal.dialog).toBeHidden();
  }
  return email;
}

test.describe('Sign-up', () => {
  test('the pages link to each other, keeping the redirect target', async ({ page }) => {
    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto('/how-bees-make-honey/v1');
    await expect(page).toHaveTitle('Sign In | Lectern');
    // Outside the main layout: no navbar.
    await expect(new AppShell(page).mainNav).toHaveCount(0);
    await expect(signIn.otherPageLink).toHaveAttribute('href', `/sign-up?redirectUrl=${encodeURIComponent('/how-bees-make-honey/v1')}`);
    await signIn.otherPageLink.click();
    const signUp = new AuthPage(page, 'sign-up');
    await expect(signUp.heading).toBeVisible();
    await expect(signUp.otherPageLink).toHaveAttribute('href', `/sign-in?redirectUrl=${encodeURIComponent('/how-bees-make-honey/v1')}`);
  });

  test('a short password is caught in the form, a common one by the server', async ({ page }) => {
    const signUp = new AuthPage(page, 'sign-up');
    await signUp.goto();
    await signUp.submit({ name: 'Short Password', email: uniqueEmail('short'), password: 'abc123' });
    await expect(signUp.passwordField).toHaveAccessibleDescription(/Password must be at least 8 characters\./);
    await expect(page).toHaveURL(/\/sign-up$/);

    await signUp.passwordField.fill('password123');
    await signUp.submitButton.click();
    await expect(page.getByText('This password is too common. Choose one that is harder to guess.')).toBeVisible();
    await expect(signUp.passwordField).toHaveAccessibleDescription(/This password is too common/);
    await expect(page).toHaveURL(/\/sign-up$/);
    // Nobody was signed in.
    expect((await page.request.get('/api/v1/users/me')).status()).toBe(401);
  });

  test('a taken email is refused under the email field', async ({ page, browser }) => {
    const email = uniqueEmail('taken');
    const first = await browser.newContext();
    const other = await first.newPage();
    const signUpOther = new AuthPage(other, 'sign-up');
    await signUpOther.goto();
    await signUpOther.submit({ name: 'First Owner', email, password: PASSWORD });
    await expect(other).toHaveURL(/\/catalog$/);
    await first.close();

    const signUp = new AuthPage(page, 'sign-up');
    await signUp.goto();
    await signUp.submit({ name: 'Second Try', email, password: PASSWORD });
    await expect(page.getByText('An account with this email already exists. Sign in instead.')).toBeVisible();
    await expect(signUp.emailField).toHaveAccessibleDescription('An account with this email already exists. Sign in instead.');
  });
});

test.describe('Signed in', () => {
  test('sign up, pick a role in the modal, see the account menu, sign out', async ({ page }) => {
    const email = await signUpFresh(page, 'Tess Teacher', { redirectUrl: '/catalog?p=2' });
    await expect(page).toHaveURL(/\/catalog\?p=2$/);

    const modal = new RoleModal(page);
    await expect(modal.dialog).toBeVisible();
    await expect(modal.prompt).toBeVisible();
    await expect(modal.readerButton).toBeVisible();
    await modal.teacherButton.click();
    await expect(modal.dialog).toBeHidden();
    const me = await page.request.get('/api/v1/users/me');
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email, name: 'Tess Teacher', role: 'TEACHER' });

    const menu = new SignedInMenu(page);
    const { menu: items, card } = await menu.open();
    await expect(card.getByText('Tess Teacher')).toBeVisible();
    await expect(card.getByText(email)).toBeVisible();
    await expect(card.getByText('Teacher', { exact: true })).toBeVisible();
    await expect(items.getByRole('menuitem', { name: 'Manage Account' })).toHaveAttribute('href', '/account');
    await expect(items.getByRole('menuitem', { name: 'Manage Organization' })).toHaveCount(0);
    await expect(items.getByRole('menuitem', { name: 'Sign In' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // A reload keeps the session and the role: no modal.
    await page.reload();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await (await menu.open()).menu.getByRole('menuitem', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/catalog$/);
    const anon = await new AppShell(page).openAccountMenu();
    await expect(anon.getByRole('menuitem', { name: 'Sign In' })).toBeVisible();
    await expect(anon.getByRole('menuitem', { name: 'Sign Up' })).toBeVisible();
    await expect(anon.getByRole('menuitem', { name: 'Contact Support' })).toBeVisible();
    await expect(modal.dialog).toBeHidden();
    // The session ended on the server.
    expect((await page.request.get('/api/v1/users/me')).status()).toBe(401);
  });

  test('closing the role modal is remembered until sign-out', async ({ page }) => {
    const email = await signUpFresh(page, 'Dana Dismiss');
    const modal = new RoleModal(page);
    await expect(modal.dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(modal.dialog).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Free Library' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await expect(modal.dialog).toBeHidden();
    expect((await (await page.request.get('/api/v1/users/me')).json()).role).toBeNull();

    await new SignedInMenu(page).signOut();
    await expect(page).toHaveURL(/\/catalog$/);
    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto();
    await signIn.submit({ email, password: PASSWORD });
    await expect(page).toHaveURL(/\/catalog$/);
    await expect(modal.dialog).toBeVisible();
    await modal.readerButton.click();
    await expect(modal.dialog).toBeHidden();
    expect((await (await page.request.get('/api/v1/users/me')).json()).role).toBe('INDIVIDUAL');
    const { card } = await new SignedInMenu(page).open();
    await expect(card.getByText('Reader', { exact: true })).toBeVisible();
  });

  test('sign in: a wrong password is refused, the right one returns to redirectUrl', async ({ page, browser }) => {
    const setup = await browser.newContext();
    const email = await signUpFresh(await setup.newPage(), 'Sam Signin', { role: 'Reader' });
    await setup.close();

    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto('/how-bees-make-honey/v1');
    await signIn.submit({ email, password: 'not-my-password' });
    await expect(signIn.formError).toHaveText('The email or password is incorrect.');
    await expect(page).toHaveURL(/\/sign-in\?/);

    await signIn.passwordField.fill(PASSWORD);
    await signIn.submitButton.click();
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v1$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How Bees Make Honey' })).toBeVisible();
    const { card } = await new SignedInMenu(page).open();
    await expect(card.getByText(email)).toBeVisible();
  });

  test('a redirectUrl on another domain is blocked; sign-in goes to the catalog instead', async ({ page, browser }) => {
    const setup = await browser.newContext();
    const email = await signUpFresh(await setup.newPage(), 'Cross Domain', { role: 'Reader' });
    await setup.close();

    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto('https://evil.example/steal');
    await expect(page.getByRole('alert')).toHaveText('Navigation to a different domain is blocked.');
    await signIn.submit({ email, password: PASSWORD });
    await expect(page).toHaveURL(/\/catalog$/);
    expect(page.url()).not.toContain('evil.example');
  });

  test('Manage Account: name, email and password', async ({ page }) => {
    // The email change's mail is read with the admin CLI, whose starts take their time on a busy machine.
    test.setTimeout(180_000);
    const email = await signUpFresh(page, 'Nina Name', { role: 'Reader' });
    await expect(page).toHaveURL(/\/catalog$/);
    const account = new ManageAccountPage(page);
    await (await new SignedInMenu(page).open()).menu.getByRole('menuitem', { name: 'Manage Account' }).click();
    await expect(account.heading).toBeVisible();
    await expect(page).toHaveURL(/\/account$/);

    await account.nameForm.getByRole('textbox', { name: 'Name' }).fill('Nina Newname');
    await account.nameForm.getByRole('button', { name: 'Save Name' }).click();
    await expect(account.nameForm.getByRole('status')).toHaveText('Name saved.');
    expect((await (await page.request.get('/api/v1/users/me')).json()).name).toBe('Nina Newname');

    const newEmail = uniqueEmail('changed');
    await account.emailForm.getByRole('textbox', { name: 'Email' }).fill(newEmail);
    await account.emailForm.getByRole('button', { name: 'Save Email' }).click();
    await expect(account.emailForm.getByRole('status')).toHaveText(`We sent a link to ${newEmail}. Your email changes when you open it.`);
    // Nothing changes until the link mailed to the new address is opened; it leads back here.
    expect((await (await page.request.get('/api/v1/users/me')).json()).email).toBe(email);
    await page.goto(await linkMailedTo(newEmail, 'Confirm your new Lectern email'));
    await expect(page).toHaveURL(/\/account$/);
    await expect(account.emailForm.getByRole('textbox', { name: 'Email' })).toHaveValue(newEmail);
    await expectMailTo(email, 'Your Lectern email was changed');

    const current = account.passwordForm.getByLabel('Current password');
    const next = account.passwordForm.getByLabel('New password');
    await current.fill('wrong-password-here');
    await next.fill('amber-canyon-willow');
    await account.passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect(current).toHaveAccessibleDescription('The password is incorrect.');
    await current.fill(PASSWORD);
    await account.passwordForm.getByRole('button', { name: 'Change Password' }).click();
    await expect(account.passwordForm.getByRole('status')).toHaveText('Password changed. Other devices have been signed out.');

    // The new email and password sign in; the old email does not.
    await new SignedInMenu(page).signOut();
    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto('/account');
    await signIn.submit({ email, password: 'amber-canyon-willow' });
    await expect(signIn.formError).toHaveText('The email or password is incorrect.');
    await signIn.emailField.fill(newEmail);
    await signIn.passwordField.fill('amber-canyon-willow');
    await signIn.submitButton.click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(account.nameForm.getByRole('textbox', { name: 'Name' })).toHaveValue('Nina Newname');
  });
});

test.describe('Organization admins', () => {
  test('get Manage Organization in the menu, with the license status', async ({ page }) => {
    const email = await signUpFresh(page, 'Olga Admin', { role: 'Teacher' });
    const slug = `e2e-school-${Date.now()}`;
    admin('org', 'create', 'E2E School', '--slug', slug);
    admin('user', 'org-admin', email, slug);
    admin('license', 'grant', slug, 'AUDIO,LEVELS', '--expires', '2099-07-31');

    await page.reload();
    const { menu } = await new SignedInMenu(page).open();
    await menu.getByRole('menuitem', { name: 'Manage Organization' }).click();
    await expect(page).toHaveURL(/\/organization$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Manage Organization' })).toBeVisible();
    const school = page.getByRole('region', { name: 'E2E School' });
    await expect(school.getByRole('heading', { name: 'License status' })).toBeVisible();
    await expect(school.getByText('Valid through 31 July 2099')).toBeVisible();
    await expect(school.getByRole('list', { name: 'Licensed features' }).getByRole('listitem')).toHaveText(['Audio', 'Additional reading levels']);
  });
});

test.describe('Accessibility of the account pages', () => {
  test('sign-in, with an error shown', async ({ page }) => {
    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn.submit({ email: uniqueEmail('nobody'), password: 'whatever-it-is' });
    await expect(signIn.formError).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('sign-up, with field errors shown', async ({ page }) => {
    const signUp = new AuthPage(page, 'sign-up');
    await signUp.goto('https://evil.example/');
    await signUp.submitButton.click();
    await expect(signUp.nameField).toHaveAttribute('aria-invalid', 'true');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
