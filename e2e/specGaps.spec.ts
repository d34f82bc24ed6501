/**
 * The last spec gaps: the Terms of Service and Privacy Policy pages from content/legal/, the
 * navbar title's 'title by author' tooltip, and the hosted widget's hash routes on /sign-in and /sign-up.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { AuthPage } from './models/AccountPages';
import { AppShell } from './models/AppShell';
import { LegalPage } from './models/LegalPage';

test.describe('legal pages', () => {
  test('the footer leads to the Terms of Service and the Privacy Policy, which link to each other', async ({ page }) => {
    await page.goto('/catalog');
    const shell = new AppShell(page);
    await shell.footer.getByRole('link', { name: 'Terms of Service' }).click();
    const terms = new LegalPage(page, 'terms');
    await expect(page).toHaveURL(/\/terms$/);
    await expect(terms.heading).toBeVisible();
    await expect(page).toHaveTitle(/Terms of Service/);
    expect(await terms.sections.count()).toBeGreaterThanOrEqual(4);
    await expect(terms.article).not.toContainText('being prepared');
    await expect(terms.article).not.toContainText('**');

    await terms.article.getByRole('link', { name: 'Privacy Policy' }).click();
    const privacy = new LegalPage(page, 'privacy');
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(privacy.heading).toBeVisible();
    for (const section of ['What is stored on the server', 'What is stored in your browser', 'Who receives your data', 'How long data is kept', 'Deleting your data'])
      await expect(privacy.sections.filter({ hasText: section })).toBeVisible();
    await expect(privacy.article).toContainText("ask your school's Lectern administrator, or the operator of this Lectern server", { ignoreCase: true });
    await expect(privacy.article.locator('code', { hasText: 'npm run admin -- user delete <email>' })).toBeVisible();
    await expect(privacy.article).not.toContainText('](');
  });

  test('both pages pass axe', async ({ page }) => {
    for (const kind of ['terms', 'privacy'] as const) {
      await new LegalPage(page, kind).goto();
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), kind).toEqual([]);
    }
  });
});

test.describe('navbar title', () => {
  test("a publication's page names it in the navbar, with the tooltip 'title by author'", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/how-bees-make-honey/v1');
    const shell = new AppShell(page);
    const title = shell.banner.getByTitle('How Bees Make Honey by Theo Marchbank', { exact: true });
    await expect(title).toBeVisible();
    await expect(title).toHaveText('How Bees Make Honey by Theo Marchbank');
    // Placed after the logo, before the main navigation.
    const logoBox = await shell.banner.getByRole('link', { name: 'Lectern' }).boundingBox();
    const titleBox = await title.boundingBox();
    const navBox = await shell.mainNav.boundingBox();
    expect(titleBox!.x).toBeGreaterThan(logoBox!.x + logoBox!.width - 1);
    expect(titleBox!.x + titleBox!.width).toBeLessThanOrEqual(navBox!.x + 1);

    // Away from the title, the navbar names only the product.
    await shell.freeLibraryLink.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Free Library' })).toBeVisible();
    await expect(shell.banner.getByTitle(/ by /)).toHaveCount(0);
  });
});

test.describe('sign-in and sign-up hash routes', () => {
  test('a widget step shows the plain form and keeps the redirect target', async ({ page }) => {
    await page.goto('/sign-in?redirectUrl=%2Fprivacy#/factor-one');
    const signIn = new AuthPage(page, 'sign-in');
    await expect(signIn.heading).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Fprivacy$/);
    await expect(signIn.emailField).toBeVisible();

    await page.goto('/sign-up#/verify-email-address');
    const signUp = new AuthPage(page, 'sign-up');
    await expect(signUp.heading).toBeVisible();
    await expect(page).toHaveURL(/\/sign-up$/);
    await expect(signUp.nameField).toBeVisible();
  });

  test("the other widget's step goes to its page; an unknown step is dropped", async ({ page }) => {
    await page.goto('/sign-up?redirectUrl=%2Fcatalog#/factor-one');
    await expect(new AuthPage(page, 'sign-in').heading).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Fcatalog$/);

    await page.goto('/sign-in#/no-such-step');
    await expect(new AuthPage(page, 'sign-in').heading).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test("a widget's password-reset step goes to the Forgot Password page", async ({ page }) => {
    await page.goto('/sign-in#/reset-password');
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeVisible();

    await page.goto('/sign-up#/forgot-password');
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole('form', { name: 'Forgot Password' }).getByRole('textbox', { name: 'Email' })).toBeVisible();
  });
});
