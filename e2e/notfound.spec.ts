import { expect, test } from '@playwright/test';
import { NotFoundPage } from './models/NotFoundPage';

test.describe('Not found', () => {
  test('an unknown path shows the 404 page with a way home', async ({ page }) => {
    await page.goto('/no/such/deep/path');
    const notFound = new NotFoundPage(page);
    await expect(page).toHaveURL(/\/not-found$/);
    await expect(notFound.pageMessage).toBeVisible();
    await notFound.goHomeLink.click();
    await expect(page).toHaveURL(/\/catalog$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Free Library' })).toBeVisible();
  });

  test('a publication version that is not v + digits is not found', async ({ page }) => {
    await page.goto('/how-bees-make-honey/latest');
    await expect(new NotFoundPage(page).pageMessage).toBeVisible();
  });

  test('an unknown publication shows the Novel message', async ({ page }) => {
    await page.goto('/unknown-slug/v1');
    const notFound = new NotFoundPage(page);
    await expect(notFound.novelMessage).toBeVisible();
    await expect(notFound.goHomeLink).toHaveAttribute('href', '/');
    await expect(page).toHaveURL(/\/unknown-slug\/v1$/);
  });

  test('an unknown QR code shows the 404 page', async ({ page }) => {
    await page.goto('/qr/nope');
    const notFound = new NotFoundPage(page);
    await expect(notFound.novelMessage).toBeVisible();
    await expect(notFound.goHomeLink).toBeVisible();
  });
});
