/**
 * Forgot password in Chromium: "Forgot password?" on /sign-in → the email → the mail, read from the
 * outbox with `npm run admin -- outbox` (the e2e server has no SMTP_URL) → the link's page → a new password →
 * sign in with it, and the old one fails. Also: a hosted widget's reset step lands on the Forgot Password page,
 * and a spent link says so. Axe on both pages.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { AuthPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { linkMailedTo } from './support/outbox';

const OLD_PASSWORD = 'copper-meadow-lantern';
const NEW_PASSWORD = 'saffron-tide-beacon-4';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test('forgot password: the mail from the outbox, a new password, then only the new password signs in', async ({ page }) => {
  // Sign-up, sign-in and the admin CLI's starts take their time on a busy machine.
  test.setTimeout(180_000);
  const email = uniqueEmail('forgetful');
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto();
  await signUp.submit({ name: 'Forgetful Teacher', email, password: OLD_PASSWORD });
  const modal = new RoleModal(page);
  await modal.teacherButton.click();
  await expect(modal.dialog).toBeHidden();
  await page.context().clearCookies();

  const signIn = new AuthPage(page, 'sign-in');
  await signIn.goto();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeVisible();
  await expect(page).toHaveTitle('Forgot Password | Lectern');
  const form = page.getByRole('form', { name: 'Forgot Password' });
  await form.getByRole('textbox', { name: 'Email' }).fill(email);
  await form.getByRole('button', { name: 'Send Link' }).click();
  await expect(page.getByRole('status')).toHaveText('If an account exists for that address, we sent a link.');
  expect(await seriousViolations(page)).toEqual([]);

  const link = await linkMailedTo(email, 'Reset your Lectern password');
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a New Password' })).toBeVisible();
  const resetForm = page.getByRole('form', { name: 'Choose a New Password' });
  const newPassword = resetForm.getByLabel('New password', { exact: true });
  await expect(newPassword).toHaveAccessibleDescription(/At least 8 characters, not a common password\./);
  expect(await seriousViolations(page)).toEqual([]);
  // The same rules as sign-up.
  await newPassword.fill('password123');
  await resetForm.getByRole('button', { name: 'Set Password' }).click();
  await expect(newPassword).toHaveAccessibleDescription(/This password is too common/);
  await newPassword.fill(NEW_PASSWORD);
  await resetForm.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password was changed, and you were signed out everywhere. Sign in with your new password.');

  await page.getByRole('main').getByRole('link', { name: 'Sign In', exact: true }).click();
  await expect(signIn.heading).toBeVisible();
  await signIn.submit({ email, password: OLD_PASSWORD });
  await expect(signIn.formError).toHaveText('The email or password is incorrect.');
  await signIn.passwordField.fill(NEW_PASSWORD);
  await signIn.submitButton.click();
  await expect(page).toHaveURL(/\/catalog/);

  // The link worked once.
  await page.goto(link);
  await page.getByRole('form', { name: 'Choose a New Password' }).getByLabel('New password', { exact: true }).fill('another-long-phrase-7');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This password reset link is no longer valid: it was used already or it has expired. Ask for a new one.');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
});

test("a hosted widget's reset step and an unknown address get the same page and answer", async ({ page }) => {
  await page.goto('/sign-in#/reset-password');
  await expect(page).toHaveURL(/\/forgot-password$/);
  const form = page.getByRole('form', { name: 'Forgot Password' });
  await form.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('nobody'));
  await form.getByRole('button', { name: 'Send Link' }).click();
  await expect(page.getByRole('status')).toHaveText('If an account exists for that address, we sent a link.');
});
