import { expect, test, type APIRequestContext } from '@playwright/test';
import { ListenPage } from './models/ListenPage';
import { PASSAGE_NUMBER_MESSAGES, SelectPassagePage } from './models/SelectPassagePage';
import { asLicensedReader } from './support/licensed';

const BEES = 'how-bees-make-honey';
const FOX = 'the-fox-who-counted-stars';

/**
 * The plain text of a passage, as the API serves it (the listen page shows it verbatim). Pass `page.request`, which
 * carries the page's session, so a licensed reader's premium passages are served.
 */
async function excerptText(request: APIRequestContext, slug: string, language: string, level: string, position: number): Promise<string> {
  const response = await request.get(`/api/v1/publications/${slug}/editions/passage`, {
    params: { publicationVersion: 'v1', language, level, position },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { text: string }).text;
}

// Premium levels (GOLD, SILVER), languages and narration outside English need a school license (SPEC §6).
test.use(asLicensedReader);

test.describe('Select-passage page', () => {
  test('validates the passage number with the exact messages and keeps Start Listening disabled until valid', async ({ page }) => {
    const select = new SelectPassagePage(page);
    await select.goto(BEES, 'v1', 'en-GOLD');
    await expect(select.heading('How Bees Make Honey')).toBeVisible();
    await expect(select.cover('How Bees Make Honey')).toBeVisible();
    await expect(select.startButton).toBeDisabled();
    await expect(select.anyMessage()).toHaveCount(0);

    await select.type('abc');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.notANumber)).toBeVisible();
    await expect(select.passageInput).toHaveAttribute('aria-invalid', 'true');
    await expect(select.startButton).toBeDisabled();

    await select.type('');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.empty)).toBeVisible();
    await expect(select.startButton).toBeDisabled();

    await select.type('0');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.outOfRange(8))).toBeVisible();
    await expect(select.startButton).toBeDisabled();

    await select.type('9');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.outOfRange(8))).toBeVisible();
    await expect(select.startButton).toBeDisabled();

    await select.type('-1');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.outOfRange(8))).toBeVisible();

    await select.type('2.5');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.notANumber)).toBeVisible();

    await select.type('8');
    await expect(select.anyMessage()).toHaveCount(0);
    await expect(select.passageInput).not.toHaveAttribute('aria-invalid', 'true');
    await expect(select.startButton).toBeEnabled();
  });

  test('pressing Enter on an empty field says what is missing', async ({ page }) => {
    const select = new SelectPassagePage(page);
    await select.goto(FOX, 'v1', 'en-SILVER');
    await select.passageInput.press('Enter');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.empty)).toBeVisible();
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/en-SILVER$/);
  });

  test('Enter submits a valid number and opens the listen page there with auto-play on', async ({ page }) => {
    const select = new SelectPassagePage(page);
    await select.goto(BEES, 'v1', 'es-ORIGINAL');
    await select.type('5');
    await select.passageInput.press('Enter');

    await expect(page).toHaveURL(/\/listen\/how-bees-make-honey\/v1\/es-ORIGINAL\/5$/);
    const listen = new ListenPage(page);
    await expect(listen.counter(5, 8)).toBeVisible();
    await expect(listen.passage(5)).toContainText(await excerptText(page.request, BEES, 'es', 'ORIGINAL', 5));
    // The listen flow was opened with autoPlay flagged.
    await expect(listen.autoPlaySwitch).toBeChecked();
  });

  test('Start Listening submits too; a bare level means English', async ({ page }) => {
    const select = new SelectPassagePage(page);
    await select.goto(FOX, 'v1', 'GOLD');
    await expect(page.getByText('English', { exact: true })).toBeVisible();
    await expect(page.getByText('Gold', { exact: true })).toBeVisible();
    await select.type('3');
    await select.startButton.click();

    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/GOLD\/3$/);
    const listen = new ListenPage(page);
    await expect(listen.passage(3)).toContainText(await excerptText(page.request, FOX, 'en', 'GOLD', 3));
  });

  test('an edition that does not exist allows only passage 1', async ({ page }) => {
    const select = new SelectPassagePage(page);
    await select.goto(FOX, 'v1', 'es-GOLD');
    await select.type('2');
    await expect(select.message(PASSAGE_NUMBER_MESSAGES.outOfRange(1))).toBeVisible();
    await expect(select.startButton).toBeDisabled();
    await select.type('1');
    await expect(select.startButton).toBeEnabled();
  });
});

test.describe('Listen page', () => {
  test('shows the passage text and the thumbnail and plays the narration: the clock advances, pause holds it', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(FOX, 'v1', 'en-ORIGINAL', 1);
    await expect(page.getByRole('heading', { level: 1, name: 'The Fox Who Counted Stars' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Cover of The Fox Who Counted Stars' })).toBeVisible();
    await expect(listen.passage(1)).toContainText(await excerptText(page.request, FOX, 'en', 'ORIGINAL', 1));
    await expect(listen.passage(1)).toContainText('Chapter 1: The Boast');
    // Opened directly (no autoPlay state): paused until play is pressed.
    await expect(listen.status).toHaveText('Paused');
    await expect(listen.playButton).toBeEnabled();
    const length = await listen.waitForAudio();
    expect(length).toBeGreaterThan(3);
    await expect(listen.clock).toHaveText(/^00:00 \/ \d{2}:\d{2}$/);

    await listen.playButton.click();
    await expect(listen.status).toHaveText('Now Playing');
    await expect(listen.pauseButton).toBeVisible();
    await expect.poll(async () => (await listen.clockSeconds())[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(2);

    await listen.pauseButton.click();
    await expect(listen.status).toHaveText('Paused');
    const held = await listen.clock.innerText();
    await page.waitForTimeout(1500);
    await expect(listen.clock).toHaveText(held);

    // The auto-play switch drives the machine.
    await expect(listen.autoPlaySwitch).not.toBeChecked();
    await listen.toggleAutoPlay();
    await expect(listen.autoPlaySwitch).toBeChecked();
    await listen.autoPlaySwitch.press('Space');
    await expect(listen.autoPlaySwitch).not.toBeChecked();
  });

  test('an edition without audio says Audio not available, disables play and asks for no narration', async ({ page }) => {
    // No unvoiced edition is in the library yet: present one by serving the publication with audioEnabled false.
    await page.route(new RegExp(`/api/v1/publications/${FOX}\\?`), async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { editions: { audioEnabled: boolean }[] };
      for (const edition of body.editions) edition.audioEnabled = false;
      await route.fulfill({ response, json: body });
    });
    const audioRequests: string[] = [];
    page.on('request', (r) => {
      if (/\/audioOnly|\/audio\//.test(r.url())) audioRequests.push(r.url());
    });
    const listen = new ListenPage(page);
    await listen.goto(FOX, 'v1', 'en-ORIGINAL', 1);
    await expect(listen.passage(1)).toContainText('Chapter 1: The Boast');
    await expect(listen.status).toHaveText('Audio not available');
    await expect(listen.playButton).toBeDisabled();
    await expect(listen.clock).toHaveCount(0);
    await page.waitForTimeout(500);
    expect(audioRequests).toEqual([]);
  });

  test('auto-play advances to the next passage when one ends, keeps playing, and stops at the last page', async ({ page }) => {
    test.setTimeout(90_000);
    const select = new SelectPassagePage(page);
    await select.goto(FOX, 'v1', 'en-GOLD');
    await select.type('7');
    await select.startButton.click();
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/en-GOLD\/7$/);

    const listen = new ListenPage(page);
    await expect(listen.autoPlaySwitch).toBeChecked();
    await expect(listen.status).toHaveText('Now Playing');
    await listen.waitForAudio();
    await expect.poll(async () => (await listen.clockSeconds())[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(1);

    // Skip to the end of passage 7 rather than listen to all of it.
    await listen.seekToEnd();
    await expect(listen.status).toHaveText('Finished');
    await expect(page).toHaveURL(/\/en-GOLD\/7$/);
    // After the delay it prefetches passage 8's narration and moves on.
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/en-GOLD\/8$/, { timeout: 15_000 });
    await expect(listen.counter(8, 8)).toBeVisible();
    await expect(listen.passage(8)).toContainText(await excerptText(page.request, FOX, 'en', 'GOLD', 8));
    await expect(listen.status).toHaveText('Now Playing');
    await expect(listen.autoPlaySwitch).toBeChecked();
    await expect.poll(async () => (await listen.clockSeconds())[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    const [, length8] = await listen.clockSeconds();
    expect(length8).toBeGreaterThan(3);

    // The last page: it finishes and stays there.
    await listen.seekToEnd();
    await expect(listen.status).toHaveText('Finished');
    await page.waitForTimeout(8000);
    await expect(listen.status).toHaveText('Finished');
    await expect(page).toHaveURL(/\/en-GOLD\/8$/);
    await expect(listen.nextLink).toHaveAttribute('aria-disabled', 'true');

    // Play from Finished starts the passage again at 0.
    await listen.playButton.click();
    await expect(listen.status).toHaveText('Now Playing');
    await expect.poll(async () => (await listen.clockSeconds())[0], { timeout: 5000 }).toBeLessThan(5);
  });

  test('pages through every passage with previous and next, disabled at the ends', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(BEES, 'v1', 'en-GOLD', 1);
    await expect(listen.previousLink).toHaveAttribute('aria-disabled', 'true');

    for (let position = 1; position < 8; position++) {
      await expect(listen.counter(position, 8)).toBeVisible();
      await listen.nextLink.click();
      await expect(page).toHaveURL(new RegExp(`/listen/how-bees-make-honey/v1/en-GOLD/${position + 1}$`));
      await expect(listen.passage(position + 1)).toContainText(await excerptText(page.request, BEES, 'en', 'GOLD', position + 1));
    }
    await expect(listen.nextLink).toHaveAttribute('aria-disabled', 'true');
    await expect(listen.nextLink).not.toHaveAttribute('href');

    await listen.previousLink.click();
    await expect(page).toHaveURL(/\/listen\/how-bees-make-honey\/v1\/en-GOLD\/7$/);
    await expect(listen.counter(7, 8)).toBeVisible();
    await expect(listen.nextLink).not.toHaveAttribute('aria-disabled', 'true');
  });

  test('keeps auto-play while paging', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(BEES, 'v1', 'en-GOLD', 2);
    await listen.toggleAutoPlay();
    await expect(listen.autoPlaySwitch).toBeChecked();
    await listen.nextLink.click();
    await expect(listen.counter(3, 8)).toBeVisible();
    await expect(listen.autoPlaySwitch).toBeChecked();
  });

  test('reads a right-to-left edition right to left', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(BEES, 'v1', 'ar-ORIGINAL', 2);
    await expect(listen.passage(2)).toHaveAttribute('dir', 'rtl');
    await expect(listen.passage(2)).toHaveAttribute('lang', 'ar');
    await expect(listen.passage(2)).toContainText(await excerptText(page.request, BEES, 'ar', 'ORIGINAL', 2));
  });

  test('a position past the end goes to the last passage; one that is not a number goes to the first', async ({ page }) => {
    const listen = new ListenPage(page);
    await page.goto(`/listen/${FOX}/v1/en-GOLD/42`);
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/en-GOLD\/8$/);
    await expect(listen.counter(8, 8)).toBeVisible();
    await page.goto(`/listen/${FOX}/v1/en-GOLD/abc`);
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/en-GOLD\/1$/);
    await expect(listen.counter(1, 8)).toBeVisible();
  });

  test('Choose another passage goes back to the select page', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(FOX, 'v1', 'pt-ORIGINAL', 4);
    await listen.chooseAnotherLink.click();
    const select = new SelectPassagePage(page);
    await expect(page).toHaveURL(/\/listen\/the-fox-who-counted-stars\/v1\/pt-ORIGINAL$/);
    await expect(select.passageInput).toBeVisible();
  });
});

test.describe('Listen page without a license', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a premium level shows the license panel instead of the text, and nothing plays', async ({ page }) => {
    const media: string[] = [];
    page.on('request', (r) => {
      if (/\.mp3(\?|$)/.test(r.url())) media.push(r.url());
    });
    const listen = new ListenPage(page);
    await listen.goto(FOX, 'v1', 'en-GOLD', 2);
    const panel = listen.passage(2).getByRole('region', { name: 'This content requires a School License' });
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Learn about School Licenses' })).toHaveAttribute('href', /^mailto:/);
    await expect(listen.passage(2)).not.toContainText('Chapter 1: The Boast');
    await expect(listen.status).toHaveText('Audio not available');
    await expect(listen.playButton).toBeDisabled();
    await expect(listen.clock).toHaveCount(0);
    await page.waitForTimeout(500);
    expect(media).toEqual([]);
  });

  test("narration outside English offers 'Unlock Premium Audio' and never plays; the free text reads", async ({ page }) => {
    // The server refuses the narration (403); no audio file is ever asked for.
    const media: string[] = [];
    page.on('request', (r) => {
      if (/\/audio\/|\.mp3/.test(r.url())) media.push(r.url());
    });
    const listen = new ListenPage(page);
    await listen.goto(BEES, 'v1', 'es-ORIGINAL', 3);
    await expect(listen.passage(3)).toContainText(await excerptText(page.request, BEES, 'es', 'ORIGINAL', 3));
    await expect(listen.status).toHaveText('Upgrade to access additional audio features');
    await expect(listen.clock).toHaveCount(0);
    await listen.playButton.click();
    const dialog = page.getByRole('dialog', { name: 'Unlock Premium Audio' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Sign In' })).toHaveAttribute(
      'href',
      `/sign-in?redirectUrl=${encodeURIComponent('/listen/how-bees-make-honey/v1/es-ORIGINAL/3')}`,
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(listen.status).toHaveText('Upgrade to access additional audio features');
    expect(media).toEqual([]);
  });

  test('English narration is free: the listen page plays it', async ({ page }) => {
    const listen = new ListenPage(page);
    await listen.goto(BEES, 'v1', 'en-ORIGINAL', 1);
    await listen.waitForAudio();
    await listen.playButton.click();
    await expect(listen.status).toHaveText('Now Playing');
    await expect.poll(async () => (await listen.clockSeconds())[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  });
});
