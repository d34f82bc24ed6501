/**
 * The reader's narration in real Chromium with real audio (SPEC §4 Audio control state, Highlight, Decode):
 * the server narrates on demand, the player plays it (autoplay is allowed by the launch flag in
 * playwright.config.ts), the clocks move, the highlighted word moves forward, the speed and the seek bar work,
 * paging starts the next passage from 0, and decode turns highlight off.
 */
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';
import { watchAudioElements } from './support/audioElements';
import { asLicensedReader } from './support/licensed';

const LIGHTHOUSE = '/the-lighthouse-keepers-apprentice/v1';


/** The reader's element: the one that has a source. */
const readerAudio = (page: Page) =>
  page.evaluate(() => {
    const el = (window as unknown as { __audios: HTMLAudioElement[] }).__audios.find((a) => a.currentSrc || a.src);
    return el ? { src: el.src, rate: el.playbackRate, paused: el.paused, time: el.currentTime } : null;
  });

async function editionId(page: Page, language: string, level: string): Promise<number> {
  const detail = await (await page.request.get('/api/v1/publications/the-lighthouse-keepers-apprentice')).json();
  return detail.editions.find((e: { id: number; language: { code: string }; level: string }) => e.language.code === language && e.level === level).id;
}

test.describe('Reader audio', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.setTimeout(60_000);

  test('plays a passage with its words highlighted as they are spoken; speed, seek and paging', async ({ page }) => {
    await watchAudioElements(page);
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await expect(reader.audioStatus).toHaveText('Closed');

    // Listen: the player opens on this column's edition and plays, with highlight on.
    await reader.primary.listenButton.click();
    await expect(reader.primary.listenButton).toHaveAttribute('aria-pressed', 'true');
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect(reader.pauseButton).toBeVisible();
    await expect(reader.durationClock).not.toHaveText('00:00', { timeout: 15_000 });
    await expect(reader.durationClock).toHaveText(/^\d{2}:\d{2}$/);

    // The clock advances, and so does the highlighted word.
    await expect.poll(() => reader.clockSeconds(reader.currentClock), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await reader.highlighted()).index, { timeout: 10_000 }).not.toBeNull();
    const first = await reader.highlighted();
    expect(first.word).toHaveLength(1);
    expect(first.word[0]).toMatch(/^[\p{L}\p{N}’']+$/u);
    expect(first.sentence).toHaveLength(1);
    expect(first.sentence[0]).toContain(first.word[0]);
    const passageText = (await reader.primary.text.textContent()) ?? '';
    expect(passageText).toContain(first.sentence[0]);
    await expect.poll(async () => (await reader.highlighted()).index!, { timeout: 10_000 }).toBeGreaterThan(first.index! + 2);
    const audio = await readerAudio(page);
    expect(audio).toMatchObject({ paused: false, rate: 1 });
    expect(audio!.src).toMatch(/\/audio\/.+\.mp3$/);

    // Speed: 2× plays the element at double rate, and is saved for this edition.
    await reader.chooseSpeed('2×');
    await expect(reader.speedButton).toContainText('2×');
    await expect.poll(async () => (await readerAudio(page))?.rate).toBe(2);
    const id = await editionId(page, 'en', 'ORIGINAL');
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('lectern.v1.audioSettings') ?? 'null'));
    expect(saved.playbackSpeed).toEqual({ [id]: 2 });

    // Pause, then seek with the keyboard: the clock and the highlight jump ahead.
    await reader.pauseButton.click();
    await expect(reader.audioStatus).toHaveText('Paused');
    const before = await reader.clockSeconds(reader.currentClock);
    const wordBefore = (await reader.highlighted()).index!;
    await reader.seekSlider.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => reader.clockSeconds(reader.currentClock)).toBeGreaterThanOrEqual(before + 7);
    expect((await readerAudio(page))!.time).toBeGreaterThanOrEqual(before + 7);
    await expect.poll(async () => (await reader.highlighted()).index!).toBeGreaterThan(wordBefore + 5);

    // Paging starts the next passage from 0 (and it keeps its speed).
    await reader.playButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing');
    await reader.nextButton.click();
    await reader.expectPosition(2);
    await expect(reader.currentClock).toHaveText('00:00');
    await expect.poll(async () => (await readerAudio(page))?.src, { timeout: 15_000 }).not.toBe(audio!.src);
    await expect.poll(async () => (await readerAudio(page))?.time ?? 99).toBeLessThan(3);
    await expect.poll(async () => (await readerAudio(page))?.rate).toBe(2);
    await expect.poll(async () => (await reader.highlighted()).index, { timeout: 15_000 }).not.toBeNull();
    expect((await reader.highlighted()).index!).toBeLessThan(wordBefore);

    // Close: the player shows Closed and the highlight goes.
    await reader.closePlayerButton.click();
    await expect(reader.audioStatus).toHaveText('Closed');
    await expect.poll(async () => (await reader.highlighted()).word).toEqual([]);
    expect((await readerAudio(page))?.paused ?? true).toBe(true);
  });

  test('without a license, narration outside English and decode mode offer the upgrade', async ({ page }) => {
    const audioRequests: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/v1\/passages\/\d+\/audio/.test(r.url())) audioRequests.push(r.url());
    });
    const reader = new ReaderPage(page);
    await reader.goto('/how-bees-make-honey/v1/en:original/ar:original/1');
    await reader.expectPosition(1);
    await expect(reader.secondary.passage).toHaveAttribute('lang', 'ar');
    // English narration is free to everyone; Arabic narration needs AUDIO (SPEC §6 Feature gates: Audio).
    await expect(reader.primary.listenButton).toHaveAttribute('aria-pressed', 'false');
    await expect(reader.secondary.listenButton).not.toHaveAttribute('aria-pressed');
    await reader.expectTooltip(reader.secondary.listenButton, 'Upgrade to access additional audio features');
    await reader.secondary.listenButton.click();
    const audio = page.getByRole('dialog', { name: 'Unlock Premium Audio' });
    await expect(audio).toBeVisible();
    await expect(audio).toContainText('require a School License');
    await audio.getByRole('button', { name: 'Close' }).click();
    await expect(audio).toBeHidden();
    await expect(reader.audioStatus).toHaveText('Closed');
    expect(audioRequests).toEqual([]);

    // Decode mode needs DECODE: 'Unlock Premium Decode', 'Decode Mode requires a school license.'
    await page.mouse.move(10, 200);
    await reader.decodeButton.click();
    const decode = page.getByRole('dialog', { name: 'Unlock Premium Decode' });
    await expect(decode).toBeVisible();
    await expect(decode).toContainText('Decode Mode requires a school license.');
    await page.keyboard.press('Escape');
    await expect(decode).toBeHidden();
    await expect(reader.primary.text).not.toHaveAttribute('data-decoded', '');
  });

  test('the playbackSpeed query parameter sets the speed', async ({ page }) => {
    const id = await editionId(page, 'en', 'ORIGINAL');
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/3?playbackSpeed=${id}:1.5,12345:7`);
    await reader.expectPosition(3);
    await reader.primary.listenButton.click();
    await expect(reader.speedButton).toContainText('1.5×');
    await reader.chooseSpeed('0.75×');
    await expect(page).toHaveURL(`${LIGHTHOUSE}/en:original/3?playbackSpeed=${id}:0.75`);
    await reader.goto(`${LIGHTHOUSE}/en:original/3?playbackSpeed=default`);
    await reader.expectPosition(3);
    await expect(reader.audioStatus).toHaveText('Paused');
    await reader.playButton.click();
    await expect(reader.speedButton).toContainText('1×');
  });
});

/** Narration outside English and decode mode need a school license: these run as a licensed reader. */
test.describe('Reader audio, licensed', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.setTimeout(60_000);
  test.use(asLicensedReader);

  test('in two columns, the column whose edition plays is highlighted, right to left too', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/how-bees-make-honey/v1/en:original/ar:original/1');
    await reader.expectPosition(1);
    await expect(reader.secondary.passage).toHaveAttribute('dir', 'rtl');
    await reader.secondary.listenButton.click();
    await expect(reader.secondary.listenButton).toHaveAttribute('aria-pressed', 'true');
    await expect(reader.primary.listenButton).toHaveAttribute('aria-pressed', 'false');
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect.poll(async () => (await reader.highlighted(reader.secondary)).index, { timeout: 15_000 }).not.toBeNull();
    const first = await reader.highlighted(reader.secondary);
    expect(first.word).toHaveLength(1);
    expect(first.word[0]).toMatch(/^\p{Script=Arabic}+/u);
    expect((await reader.secondary.text.textContent()) ?? '').toContain(first.sentence[0]);
    expect((await reader.highlighted(reader.primary)).index).toBeNull();
    await expect.poll(async () => (await reader.highlighted(reader.secondary)).index!, { timeout: 10_000 }).toBeGreaterThan(first.index! + 1);

    // The left column's Listen moves the player (and the highlight) to English.
    await reader.primary.listenButton.click();
    await expect.poll(async () => (await reader.highlighted(reader.primary)).word[0] ?? '', { timeout: 15_000 }).toMatch(/^[A-Za-z’']+$/);
    expect((await reader.highlighted(reader.secondary)).index).toBeNull();
  });

  test('decode mode turns highlight off, and shows the decoded text with its legend', async ({ page }) => {
    // The licensed reader holds DECODE (SPEC §4 Decode: the edition has decode mode and the user the feature).
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await reader.primary.listenButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect.poll(async () => (await reader.highlighted()).word.length, { timeout: 15_000 }).toBe(1);
    await expect(reader.primary.text.locator('.dc-word')).toHaveCount(0);

    await page.mouse.move(10, 200);
    await reader.decodeButton.click();
    await expect(reader.decodeButton).toHaveAttribute('aria-pressed', 'true');
    await expect(reader.primary.text).toHaveAttribute('data-decoded', '', { timeout: 15_000 });
    await expect.poll(async () => await reader.highlighted()).toEqual({ index: null, word: [], sentence: [] });
    await expect(reader.primary.text.locator('.dc-word').first()).toBeVisible();
    expect(await reader.primary.text.locator('.dc-syl').count()).toBeGreaterThan(0);
    expect(await reader.primary.text.locator('.dc-digraph, .dc-team, .dc-r').count()).toBeGreaterThan(0);
    await expect(reader.decodeLegend).toBeVisible();
    for (const label of ['Syllables', 'Two letters, one sound', 'Vowel team', 'Bossy r', 'Silent letter', 'Consonant + le', 'Heart word']) {
      await expect(reader.decodeLegend.getByText(label, { exact: true })).toBeVisible();
    }
    // The audio plays on; the decoded text reads the same as the plain text.
    await expect(reader.audioStatus).toHaveText('Now Playing');

    // Close the player, and decode off again: the plain text returns.
    await reader.primary.listenButton.click();
    await expect(reader.audioStatus).toHaveText('Closed');
    await page.mouse.move(10, 200);
    await reader.decodeButton.click();
    await expect(reader.primary.text).not.toHaveAttribute('data-decoded', '');
    await expect(reader.decodeLegend).toBeHidden();
  });
});
