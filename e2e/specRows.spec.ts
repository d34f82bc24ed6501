/**
 * Spec rows settled in docs/decisions.md ("Spec rows settled"), in Chromium:
 * - SPEC §4 Role: a reader without a role who signs up from the reader's class-code panel ('free account') comes
 *   back to the reader, and the role modal opens there too;
 * - SPEC §5 Passage position, §8 Reader error panel: position 0 is 'Passage not found' in the reader's own error
 *   panel, 'Not found' with 'Please choose another passage or Contact Support'.
 */
import { expect, test } from '@playwright/test';
import { AuthPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { ReaderPage } from './models/ReaderPage';
import { withoutPrimedAnswers } from './support/unprimed';

const FOX = '/the-fox-who-counted-stars/v1';

test('a sign-up from the reader’s class-code panel comes back to the reader, where the role modal asks for a role', async ({ page }) => {
  test.setTimeout(60_000);
  // The passage is a class-code passage here (no title of the library is shared with a class in this run).
  await withoutPrimedAnswers(page);
  await page.route('**/api/v1/passages?*', async (route) => {
    const response = await route.fetch();
    const passage = await response.json();
    await route.fulfill({ response, json: { ...passage, text: '', groupCodeRequired: true } });
  });
  const reader = new ReaderPage(page);
  const here = `${FOX}/en:original/2`;
  await reader.goto(here);
  const panel = page.getByRole('region', { name: 'Enter Class Code or Sign In' });
  await expect(panel).toBeVisible();
  await panel.getByRole('link', { name: 'free account' }).click();

  const signUp = new AuthPage(page, 'sign-up');
  await expect(signUp.heading).toBeVisible();
  await signUp.submit({ name: 'Panel Reader', email: uniqueEmail('panel'), password: 'amber-willow-lantern' });

  // Back in the reader, signed in and without a role: 'Personalize Your Experience'.
  await expect(page).toHaveURL(here);
  await expect(reader.heading).toHaveText('The Fox Who Counted Stars');
  const modal = new RoleModal(page);
  await expect(modal.dialog).toBeVisible();
  await expect(modal.prompt).toBeVisible();
  await modal.readerButton.click();
  await expect(modal.dialog).toBeHidden();
  // The role is saved: the reader opened again asks no more.
  await reader.goto(here);
  await expect(panel).toBeVisible();
  await expect(modal.dialog).toHaveCount(0);
  expect(((await (await page.request.get('/api/v1/users/me')).json()) as { role: string | null }).role).toBe('INDIVIDUAL');
});

test("position 0 shows the reader's error panel: 'Not found', 'Passage not found' and Contact Support", async ({ page }) => {
  const reader = new ReaderPage(page);
  await reader.goto(`${FOX}/en:original/0`);
  const panel = page.getByRole('alert').filter({ hasText: 'Passage not found' });
  await expect(panel.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(panel).toContainText('Please choose another passage or Contact Support');
  await expect(panel.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', /^mailto:/);
  // The reader's header still leads back to the title's page, once.
  await expect(reader.aboutLink).toHaveCount(1);
  await reader.aboutLink.click();
  await expect(page.getByRole('heading', { level: 1, name: 'The Fox Who Counted Stars' })).toBeVisible();
});
