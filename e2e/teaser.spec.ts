import { expect, test, type APIRequestContext } from '@playwright/test';
import { TeaserPage } from './models/TeaserPage';
import { asLicensedReader } from './support/licensed';

const FOX = 'the-fox-who-counted-stars';
const BEES = 'how-bees-make-honey';

/** The plain text of a passage, as the API serves it (tags already stripped). Pass `page.request`, which carries the page's session. */
async function excerptText(request: APIRequestContext, slug: string, language: string, level: string, position: number): Promise<string> {
  const response = await request.get(`/api/v1/publications/${slug}/editions/passage`, {
    params: { publicationVersion: 'v1', language, level, position },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { text: string }).text;
}

// Premium levels (GOLD, SILVER), languages and narration outside English need a school license (SPEC §6).
test.use(asLicensedReader);

test.describe('Public teaser page', () => {
  test('shows the cover, title, author, edition, version, audio, percent complete and one line of text', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:gold', 1);
    await expect(page).toHaveTitle('The Fox Who Counted Stars | Lectern');
    await expect(teaser.heading('The Fox Who Counted Stars')).toBeVisible();
    // In the page's byline (the navbar also names the author, for screen readers, beside the title).
    await expect(page.getByRole('main').getByText('Tamsin Harrowgate')).toBeVisible();
    await expect(teaser.cover('The Fox Who Counted Stars')).toBeVisible();
    await expect(teaser.fact('Edition')).toContainText('English');
    await expect(teaser.fact('Edition')).toContainText('Gold');
    await expect(teaser.fact('Version')).toHaveText('v1');
    // The audio length is the edition's narrated total, 'Xh Ym' or 'Ym' (its own test below checks the values).
    await expect(teaser.fact('Audio length')).toHaveText(/^(\d+h )?\d+m$|^Not narrated yet$/);
    // The audio bar plays this passage's narration.
    await expect(teaser.playButton).toBeEnabled();
    await expect.poll(async () => (await teaser.clockSeconds())[1], { timeout: 15_000 }).toBeGreaterThan(3);
    await expect(teaser.clock).toHaveText(/^00:00 \/ \d{2}:\d{2}$/);
    await teaser.playButton.click();
    await expect(teaser.pauseButton).toBeVisible();
    await expect.poll(async () => (await teaser.clockSeconds())[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await teaser.pauseButton.click();
    await expect(teaser.playButton).toBeVisible();
    const held = await teaser.clock.innerText();
    await page.waitForTimeout(1200);
    await expect(teaser.clock).toHaveText(held);

    await expect(teaser.percentText(13)).toBeVisible();
    await expect(teaser.progress).toHaveAttribute('aria-valuetext', '13% complete');
    await expect(teaser.chapterButton).toContainText('Chapter 1: The Boast');

    const line = teaser.passage(1);
    const text = await excerptText(page.request, FOX, 'en', 'GOLD', 1);
    await expect(line).toHaveText(text);
    expect(text).not.toMatch(/<[a-z/]/i);
    // One line: the text is clipped with an ellipsis, not wrapped.
    const box = await line.evaluate((el) => {
      const style = getComputedStyle(el);
      return { height: el.getBoundingClientRect().height, lineHeight: parseFloat(style.lineHeight), whiteSpace: style.whiteSpace, overflow: style.textOverflow };
    });
    expect(box.whiteSpace).toBe('nowrap');
    expect(box.overflow).toBe('ellipsis');
    expect(box.height).toBeLessThan(box.lineHeight * 1.5);
  });

  test("the audio length is the edition's narrated total as 'Xh Ym' or 'Ym'", async ({ page }) => {
    test.setTimeout(90_000);
    // Narrate every passage of the edition through the API (the server narrates a requested passage in about 1 s).
    const publication = async () => {
      const response = await page.request.get(`/api/v1/publications/${BEES}`, { params: { publicationVersion: 'v1' } });
      const body = (await response.json()) as { editions: { id: number; language: { code: string }; level: string; passageCount: number; audioTotalLength: number }[] };
      return body.editions.find((e) => e.language.code === 'en' && e.level === 'SILVER')!;
    };
    const edition = await publication();
    let totalMs = 0;
    for (let position = 1; position <= edition.passageCount; position++) {
      for (let attempt = 0; ; attempt++) {
        const response = await page.request.get('/api/v1/passages/audioOnly', { params: { editionId: edition.id, position } });
        const body = (await response.json()) as { status: string; audio?: { duration: number } };
        if (body.status === 'ready') {
          totalMs += body.audio!.duration;
          break;
        }
        expect(attempt).toBeLessThan(20);
        await page.waitForTimeout(1000);
      }
    }
    await expect.poll(async () => (await publication()).audioTotalLength, { timeout: 10_000 }).toBeCloseTo(totalMs / 1000, 0);
    const minutes = Math.max(1, Math.round(totalMs / 60_000));
    expect(minutes).toBeLessThan(60);
    const teaser = new TeaserPage(page);
    await teaser.goto(BEES, 'v1', 'en:silver', 1);
    await expect(teaser.fact('Audio length')).toHaveText(`${minutes}m`);

    // Longer editions show hours; an edition with nothing narrated yet says so. Served with those totals:
    for (const [total, text] of [
      [3725, '1h 2m'],
      [7200, '2h 0m'],
      [0, 'Not narrated yet'],
    ] as const) {
      await page.unrouteAll();
      await page.route(new RegExp(`/api/v1/publications/${BEES}\\?`), async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { editions: { audioTotalLength: number }[] };
        for (const e of body.editions) e.audioTotalLength = total;
        await route.fulfill({ response, json: body });
      });
      await teaser.goto(BEES, 'v1', 'en:silver', 2);
      await expect(teaser.fact('Audio length')).toHaveText(text);
    }
  });

  test('an edition without audio says Audio not available in the bar', async ({ page }) => {
    await page.route(new RegExp(`/api/v1/publications/${FOX}\\?`), async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { editions: { audioEnabled: boolean }[] };
      for (const e of body.editions) e.audioEnabled = false;
      await route.fulfill({ response, json: body });
    });
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:gold', 2);
    await expect(teaser.fact('Audio length')).toHaveText('Audio not available');
    await expect(teaser.audioBar).toContainText('Audio not available');
    await expect(teaser.playButton).toBeDisabled();
    await expect(teaser.clock).toHaveCount(0);
  });

  test('next and previous move one passage and stop at the ends', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:gold', 1);
    await expect(teaser.previousButton).toBeDisabled();
    await teaser.nextButton.click();
    await expect(page).toHaveURL(/\/teaser\/the-fox-who-counted-stars\/v1\/en:gold\/2$/);
    await expect(teaser.percentText(25)).toBeVisible();
    await expect(teaser.passage(2)).toHaveText(await excerptText(page.request, FOX, 'en', 'GOLD', 2));
    await expect(teaser.previousButton).toBeEnabled();

    await teaser.previousButton.click();
    await expect(page).toHaveURL(/\/teaser\/the-fox-who-counted-stars\/v1\/en:gold\/1$/);
    await expect(teaser.percentText(13)).toBeVisible();

    await teaser.goto(FOX, 'v1', 'en:gold', 7);
    await teaser.nextButton.click();
    await expect(page).toHaveURL(/\/8$/);
    await expect(teaser.percentText(100)).toBeVisible();
    await expect(teaser.nextButton).toBeDisabled();
  });

  test('the jump input takes only whole numbers greater than 0', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:silver', 2);
    await expect(teaser.jumpButton).toBeDisabled();

    await teaser.jumpInput.fill('abc');
    await expect(teaser.jumpInput).toHaveValue('');
    await teaser.jumpInput.fill('-4');
    await expect(teaser.jumpInput).toHaveValue('4');
    await teaser.jumpInput.fill('0');
    await expect(teaser.jumpButton).toBeDisabled();
    await teaser.jumpInput.press('Enter');
    await expect(page).toHaveURL(/\/en:silver\/2$/);

    await teaser.jumpTo('6');
    await expect(page).toHaveURL(/\/teaser\/the-fox-who-counted-stars\/v1\/en:silver\/6$/);
    await expect(teaser.percentText(75)).toBeVisible();
    await expect(teaser.chapterButton).toContainText('Chapter 3: Many Eyes');
    await expect(teaser.passage(6)).toHaveText(await excerptText(page.request, FOX, 'en', 'SILVER', 6));

    await teaser.jumpInput.fill('4');
    await teaser.jumpButton.click();
    await expect(page).toHaveURL(/\/en:silver\/4$/);
    await expect(teaser.percentText(50)).toBeVisible();
  });

  test('the chapter dropdown lists the chapters and goes to the one chosen', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:gold', 5);
    await expect(teaser.chapterButton).toContainText('Chapter 2: A Long Night Alone');
    await teaser.chapterButton.click();
    await expect(teaser.chapterList.getByRole('option')).toHaveText([
      'Chapter 1: The Boast',
      'Chapter 2: A Long Night Alone',
      'Chapter 3: Many Eyes',
    ]);
    await page.keyboard.press('Escape');

    await teaser.chooseChapter('Chapter 3: Many Eyes');
    await expect(page).toHaveURL(/\/teaser\/the-fox-who-counted-stars\/v1\/en:gold\/6$/);
    await expect(teaser.percentText(75)).toBeVisible();
    await expect(teaser.passage(6)).toHaveText(await excerptText(page.request, FOX, 'en', 'GOLD', 6));

    await teaser.chooseChapter('Chapter 1: The Boast');
    await expect(page).toHaveURL(/\/en:gold\/1$/);
    await expect(teaser.percentText(13)).toBeVisible();
  });

  test('other languages: the line reads right to left in Arabic', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(BEES, 'v1', 'ar:original', 3);
    await expect(teaser.fact('Edition')).toContainText('Arabic');
    await expect(teaser.passage(3)).toHaveAttribute('dir', 'rtl');
    await expect(teaser.passage(3)).toHaveText(await excerptText(page.request, BEES, 'ar', 'ORIGINAL', 3));
    await expect(teaser.percentText(38)).toBeVisible();
  });
});

/** Visitors: no account and no class code. */
test.describe('Public teaser page for visitors', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('visitors get Sign In back to the reader and a class-code entry', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'zh:original', 3);
    await expect(teaser.openInReaderLink).toHaveCount(0);
    await expect(teaser.signInLink).toHaveAttribute('href', `/sign-in?redirectUrl=${encodeURIComponent('/the-fox-who-counted-stars/v1/zh:original/3')}`);

    await expect(teaser.classCodeSubmit).toBeDisabled();
    await expect(teaser.classCodeInput).toHaveAttribute('maxlength', '8');
    await teaser.classCodeInput.fill('abc12');
    await expect(teaser.classCodeInput).toHaveValue('ABC12');
    await expect(teaser.classCodeSubmit).toBeDisabled();
    await teaser.classCodeInput.fill('ab-12345');
    await expect(teaser.classCodeSubmit).toBeDisabled();
    await teaser.classCodeInput.fill('');
    await teaser.classCodeInput.pressSequentially('abcd1234xy');
    await expect(teaser.classCodeInput).toHaveValue('ABCD1234');
    await expect(teaser.classCodeSubmit).toBeEnabled();

    // Class codes cannot be verified yet, so the engine answers 'Invalid Class Code'.
    await teaser.classCodeSubmit.click();
    await expect(teaser.notifications.getByText('Invalid Class Code')).toBeVisible();
    // Toasts last 2 seconds.
    await expect(teaser.notifications.getByText('Invalid Class Code')).toBeHidden({ timeout: 5000 });
  });

  test('Sign In goes to the sign-in page carrying the reader address', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'pt:original', 2);
    await teaser.signInLink.click();
    await expect(page).toHaveURL(/\/sign-in\?redirectUrl=%2Fthe-fox-who-counted-stars%2Fv1%2Fpt%3Aoriginal%2F2$/);
  });

  test('a premium level shows the license message instead of its line, and its audio is not offered', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(FOX, 'v1', 'en:gold', 2);
    await expect(teaser.heading('The Fox Who Counted Stars')).toBeVisible();
    const line = page.getByRole('region', { name: 'Passage 2' });
    await expect(line).toContainText('This content requires a School License');
    await expect(line.getByRole('link', { name: 'Learn about School Licenses' })).toHaveAttribute('href', /^mailto:/);
    // No line of the passage: only the message (the line is the paragraph in the edition's language).
    await expect(line.locator('p[lang]')).toHaveCount(0);
    await expect(teaser.audioBar).toContainText('Audio not available');
    await expect(teaser.playButton).toBeDisabled();
    // Visitors can still sign in or enter a class code.
    await expect(teaser.signInLink).toBeVisible();
    await expect(teaser.classCodeInput).toBeVisible();
  });

  test("narration outside English offers 'Unlock Premium Audio'; the free line reads", async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto(BEES, 'v1', 'es:original', 2);
    await expect(teaser.passage(2)).toHaveText(await excerptText(page.request, BEES, 'es', 'ORIGINAL', 2));
    await expect(teaser.audioBar).toContainText('Upgrade to access additional audio features');
    await teaser.playButton.click();
    const dialog = page.getByRole('dialog', { name: 'Unlock Premium Audio' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });
});
