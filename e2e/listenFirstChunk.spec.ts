/**
 * Listen on a text never narrated before: the server says its first sentence first, the reader plays that head while
 * the rest is made, and goes on in the whole narration from the seam. The words light up in the head and past the
 * seam, the player stays 'Now Playing' across it, and the chosen speed carries over.
 */
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';
import { UploadsPage } from './models/UploadsPage';
import { asLicensedTeacher } from './support/teacher';

const FIRST_SENTENCE = 'The red fox trotted across the frozen field while the winter sun came up over the hills.';
const STORY = [
  FIRST_SENTENCE,
  'Her tracks made a long and crooked line between the dark pines, and the crows called after her from the bare branches of the old oak tree.',
  'By noon she was asleep in her warm den under the roots, curled round, with her bushy tail over her nose.',
].join(' ');
const FIRST_SENTENCE_WORDS = FIRST_SENTENCE.split(/\s+/).length;

/**
 * Every audio element the app makes is kept with the sources it played (`playing` events): the reader's player
 * plays the head, then the whole narration.
 */
async function watchPlayedSources(page: Page) {
  await page.addInitScript(() => {
    const played: string[] = [];
    const elements: HTMLAudioElement[] = [];
    Object.assign(window, { __played: played, __elements: elements });
    const Native = window.Audio;
    window.Audio = function (src?: string) {
      const el = new Native(src);
      elements.push(el);
      el.addEventListener('playing', () => played.push(new URL(el.currentSrc || el.src).pathname));
      return el;
    } as unknown as typeof Audio;
  });
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { __played: string[] }).__played);
/** The reader's audio element now: its source's path, whether it plays, its speed. */
const readerAudio = (page: Page) =>
  page.evaluate(() => {
    const el = (window as unknown as { __elements: HTMLAudioElement[] }).__elements.find((a) => a.currentSrc || a.src);
    return el ? { path: new URL(el.currentSrc || el.src).pathname, paused: el.paused, rate: el.playbackRate, time: el.currentTime } : null;
  });

// This run's licensed teacher (every feature, the uploads' and the narration's included).
test.use(asLicensedTeacher);

test('Listen on a fresh upload plays its first sentence at once, then the whole, with the words lit across the seam', async ({ page }) => {
  test.setTimeout(120_000);
  await watchPlayedSources(page);
  const uploads = new UploadsPage(page);
  await uploads.goto();
  await uploads.upload('fox.txt', STORY, 'The Red Fox');
  await expect(uploads.success).toContainText('Uploaded “The Red Fox”: 1 passage.');

  await uploads.readLink('The Red Fox').click();
  const reader = new ReaderPage(page);
  await expect(page.getByText(FIRST_SENTENCE, { exact: false })).toBeVisible();
  await reader.primary.listenButton.click();
  await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
  await reader.chooseSpeed('0.75×');

  // The head plays first: its own MP3, with the first sentence's words lit as they are said.
  await expect.poll(async () => (await played(page))[0] ?? null, { timeout: 20_000 }).toMatch(/^\/audio\/head-flite-slt-[0-9a-f]{32}\.mp3$/);
  await expect
    .poll(async () => {
      const [audio, lit] = [await readerAudio(page), await reader.highlighted()];
      return Boolean(audio?.path.startsWith('/audio/head-') && lit.index !== null && lit.index < FIRST_SENTENCE_WORDS);
    }, { timeout: 20_000 })
    .toBe(true);

  // Then the whole narration, from the seam on: still 'Now Playing', at the chosen speed, and the words past the
  // first sentence light up.
  await expect.poll(async () => (await readerAudio(page))?.path ?? null, { timeout: 60_000 }).toMatch(/^\/audio\/flite-slt-[0-9a-f]{32}\.mp3$/);
  await expect.poll(async () => (await reader.highlighted()).index ?? -1, { timeout: 30_000 }).toBeGreaterThanOrEqual(FIRST_SENTENCE_WORDS);
  const audio = await readerAudio(page);
  expect(audio).toMatchObject({ paused: false, rate: 0.75 });
  expect(audio!.time).toBeGreaterThan(0);
  await expect(reader.audioStatus).toHaveText('Now Playing');
  const lit = await reader.highlighted();
  expect(lit.word).toHaveLength(1);
  expect(STORY.slice(STORY.indexOf(FIRST_SENTENCE) + FIRST_SENTENCE.length)).toContain(lit.word[0]);
  expect((await played(page)).filter((p) => !p.startsWith('/audio/head-'))).toHaveLength((await played(page)).length - 1);

  // Seeking back into the first sentence works in the whole narration, and its words light up again.
  await reader.seekSlider.focus();
  await page.keyboard.press('Home');
  await expect.poll(async () => (await reader.highlighted()).index ?? Infinity, { timeout: 15_000 }).toBeLessThan(FIRST_SENTENCE_WORDS);
  expect((await readerAudio(page))!.path).toMatch(/^\/audio\/flite-slt-/);
});
