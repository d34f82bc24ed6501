import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { CatalogPage } from './models/CatalogPage';

test.describe('Free Library', () => {
  test('a new visitor opening / lands on the Free Library with the titles', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/catalog$/);
    const catalog = new CatalogPage(page);
    await expect(catalog.heading).toBeVisible();
    await expect(page).toHaveTitle('Free Library | Lectern');
    await catalog.waitForCards();
    expect(await catalog.cardLinks.count()).toBeGreaterThanOrEqual(4);
    for (const title of ["The Lighthouse Keeper's Apprentice", 'How Bees Make Honey', 'Pip and the Paper Moon', 'The Fox Who Counted Stars']) {
      await expect(catalog.card(title)).toBeVisible();
    }
    // Each card shows a cover and links to the publication page.
    // The cover is decorative inside the card link (the title names it), so it is found by tag, not role.
    await expect(catalog.card('How Bees Make Honey').locator('img')).toHaveAttribute('src', /cover/);
    await expect(catalog.card('How Bees Make Honey')).toHaveAttribute('href', /^\/how-bees-make-honey\/v\d+$/);
    await expect(catalog.searchBox).toHaveAttribute('placeholder', 'Search by title or author');
  });

  test('the shared layout has the navbar, the anonymous menu and the footer', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    const shell = catalog.shell;
    await expect(shell.banner.getByText('Lectern', { exact: true })).toBeVisible();
    await expect(shell.freeLibraryLink).toHaveAttribute('href', '/catalog');
    await expect(shell.shopLink).toHaveAttribute('target', '_blank');
    await expect(shell.shopLink).toHaveAttribute('rel', /noopener/);

    const menu = await shell.openAccountMenu();
    await expect(menu.getByRole('menuitem', { name: 'Contact Support' })).toHaveAttribute('href', /^mailto:/);
    await expect(menu.getByRole('menuitem', { name: 'Sign In' })).toHaveAttribute('href', '/sign-in?redirectUrl=%2Fcatalog');
    await expect(menu.getByRole('menuitem', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up?redirectUrl=%2Fcatalog');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await expect(shell.footer.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
    await expect(shell.footer.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
    await expect(shell.footer.getByText(`© ${new Date().getFullYear()} Lectern`)).toBeVisible();
  });

  test('searching narrows the titles and keeps the address in step', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.waitForCards();

    await catalog.search('bee');
    await expect(page).toHaveURL(/[?&]search=bee(&|$)/);
    await expect(catalog.cardTitles).toHaveText(['How Bees Make Honey']);

    await catalog.search('zzqxv');
    await expect(catalog.emptyMessage).toBeVisible();
    await expect(catalog.cardLinks).toHaveCount(0);
    await expect(page).toHaveURL(/search=zzqxv/);

    await catalog.clearSearchButton.click();
    await expect(catalog.searchBox).toHaveValue('');
    await expect(page).toHaveURL(/\/catalog$/);
    await expect.poll(() => catalog.cardLinks.count()).toBeGreaterThanOrEqual(4);

    await catalog.searchBox.fill('honey');
    await catalog.searchBox.press('Escape');
    await expect(catalog.searchBox).toHaveValue('');
  });

  test('a search in the address is shown in the search box', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto('search=fox');
    await expect(catalog.searchBox).toHaveValue('fox');
    await expect(catalog.cardTitles).toHaveText(['The Fox Who Counted Stars']);
  });

  test('sorting by Title Z–A reverses the order', async ({ page, request }) => {
    // Every title, A–Z, as the API sorts them; the catalog shows them 16 to a page.
    const all = (await (await request.get('/api/v1/publications?sort=title_a_z&pageSize=100')).json()).items.map((i: { title: string }) => i.title);
    expect(all.length).toBeGreaterThan(16);
    const catalog = new CatalogPage(page);
    await catalog.goto();
    const aToZ = await catalog.titleTexts();
    expect(aToZ).toEqual(all.slice(0, 16));

    await catalog.chooseSort('Title Z–A');
    await expect(page.getByText('Sorted by Title Z–A')).toBeVisible();
    await expect(catalog.cardTitles.first()).not.toHaveText(aToZ[0]);
    const zToA = await catalog.titleTexts();
    expect(zToA).toEqual([...all].reverse().slice(0, 16));

    // The menu shows the current choice.
    await catalog.sortButton.click();
    await expect(page.getByRole('menuitemradio', { name: 'Title Z–A' })).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('Escape');
  });

  test('page controls: page 1 disables previous, and a page past the end is clamped', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.waitForCards();
    await expect(catalog.pagination).toBeVisible();
    await expect(catalog.previousButton).toBeDisabled();
    await expect(catalog.pageButton(1)).toHaveAttribute('aria-current', 'page');
    await expect(catalog.pageInput).toHaveValue('1');
    const lastPage = Number((await catalog.pagination.getByText(/^of \d+$/).textContent())?.replace('of ', ''));
    // The library has more than 16 titles: two pages.
    expect(lastPage).toBe(2);
    await expect(catalog.nextButton).toBeEnabled();
    await catalog.nextButton.click();
    await expect(page).toHaveURL(/p=2/);
    await expect(catalog.pageButton(2)).toHaveAttribute('aria-current', 'page');
    await expect.poll(() => catalog.cardLinks.count()).toBeGreaterThanOrEqual(4);
    await expect(catalog.previousButton).toBeEnabled();

    await catalog.goto('p=99');
    await catalog.waitForCards();
    await expect(page).not.toHaveURL(/p=99/);
    await expect(catalog.pageInput).toHaveValue(String(lastPage));
    await expect(catalog.pageButton(lastPage)).toHaveAttribute('aria-current', 'page');
    await expect(catalog.nextButton).toBeDisabled();
  });

  test('the typed page input takes digits only and ignores pages out of range', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.waitForCards();
    const lastPage = Number((await catalog.pagination.getByText(/^of \d+$/).textContent())?.replace('of ', ''));

    await catalog.pageInput.fill('');
    await catalog.pageInput.pressSequentially('a!');
    await expect(catalog.pageInput).toHaveValue('');

    await catalog.pageInput.pressSequentially(String(lastPage + 1));
    await expect(catalog.pagination.getByText(`Enter a page from 1 to ${lastPage}`)).toBeVisible();
    await expect(catalog.pageInput).toHaveAttribute('aria-invalid', 'true');
    await expect(catalog.pageInput).toHaveAccessibleDescription(`Enter a page from 1 to ${lastPage}`);
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.waitForTimeout(800);
    await expect(page).not.toHaveURL(/p=/);
    await expect(catalog.pageButton(1)).toHaveAttribute('aria-current', 'page');
  });

  test('a new search goes back to page 1', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto('p=99');
    await catalog.waitForCards();
    await catalog.search('fox');
    await expect(page).toHaveURL(/\/catalog\?search=fox$/);
    await expect(catalog.cardTitles).toHaveText(['The Fox Who Counted Stars']);
  });

  test('a card opens the publication page', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.card('Pip and the Paper Moon').click();
    await expect(page).toHaveURL(/\/pip-and-the-paper-moon\/v\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Pip and the Paper Moon' })).toBeVisible();
  });
});
