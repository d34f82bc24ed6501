/**
 * Tap a word to hear it (docs/reading-aids.md "Tap a word"): word mode from the toolbar; a tapped
 * word is said from its speech mark to the next (the player pauses meanwhile and resumes after); Shift+tap and the
 * word's menu play the passage from the word; the keyboard's word cursor; decode mode; both columns; the audio gate.
 *
 * A word is said in a few hundred milliseconds, quicker than an assertion polls, so the passage's
 * data-word-state / data-word-start (WordMode.tsx) are recorded by a MutationObserver as they change, with the
 * reader player's element's paused state at that moment. Narration is made on demand (NARRATION_CONCURRENCY=0):
 * each test first has the passage narrated through the column's Listen toggle, as the audio specs do.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ReaderPage, type ReaderColumn } from './models/ReaderPage';
import { asLicensedReader } from './support/licensed';
import { watchAudioElements } from './support/audioElements';

const LIGHTHOUSE = '/the-lighthouse-keepers-apprentice/v1';

interface WordBox {
  word: string;
  /** The word's offset in the passage's plain text (paragraphs trimmed, joined by a newline). */
  start: number;
  /** The middle of its first character, in the viewport. */
  x: number;
  y: number;
}

/** The words of a rendered passage text, with their plain-text offsets and where to tap them. */
function wordsOf(text: Locator): Promise<WordBox[]> {
  return text.evaluate((root) => {
    const out: { word: string; start: number; x: number; y: number }[] = [];
    let base = 0;
    let first = true;
    for (const p of Array.from(root.querySelectorAll('p'))) {
      const nodes: { node: Text; at: number }[] = [];
      let full = '';
      const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        nodes.push({ node: n as Text, at: full.length });
        full += (n as Text).data;
      }
      const trimmed = full.trim();
      if (!trimmed) continue;
      if (!first) base += 1;
      first = false;
      const lead = full.length - full.trimStart().length;
      for (const m of full.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu)) {
        const i = m.index!;
        const piece = [...nodes].reverse().find((n) => n.at <= i)!;
        const range = document.createRange();
        range.setStart(piece.node, i - piece.at);
        range.setEnd(piece.node, i - piece.at + 1);
        const r = range.getBoundingClientRect();
        out.push({ word: m[0], start: base + i - lead, x: r.left + r.width / 2, y: r.top + r.height / 2 });
      }
      base += trimmed.length;
    }
    return out;
  });
}

/** The n-th word of at least five letters in the text, among those on screen above the bottom bar. */
async function longWord(column: ReaderColumn, n = 0): Promise<WordBox> {
  const height = column.page.viewportSize()!.height;
  const words = (await wordsOf(column.text)).filter((w) => w.word.length >= 5 && w.y > 0 && w.y < height - 160);
  expect(words.length).toBeGreaterThan(n);
  return words[n];
}

/** A narrated passage's speech marks (offsets into its plain text, times in ms), from the API. */
async function speechMarks(page: Page, slug: string, language: string, level: string, position: number): Promise<{ offset: number; time: number }[]> {
  const detail = await (await page.request.get(`/api/v1/publications/${slug}`)).json();
  const edition = detail.editions.find((e: { id: number; language: { code: string }; level: string }) => e.language.code === language && e.level === level);
  const passage = await (await page.request.get(`/api/v1/passages?editionId=${edition.id}&position=${position}`)).json();
  if (passage.audio) return passage.audio.speechMarks;
  const audio = await (await page.request.get(`/api/v1/passages/${passage.id}/audio?editionId=${edition.id}`)).json();
  return audio.status === 'ready' ? audio.audio.speechMarks : [];
}


/** The index of the audio element that plays now (the reader's player), or -1. */
const playingElement = (page: Page) => page.evaluate(() => (window as unknown as { __audios: HTMLAudioElement[] }).__audios.findIndex((a) => !a.paused));
const elementTime = (page: Page, index: number) => page.evaluate((i) => (window as unknown as { __audios: HTMLAudioElement[] }).__audios[i].currentTime, index);

interface WordLogEntry {
  state: string | null;
  start: string | null;
  /** The watched audio element (the reader's player) was paused then; null when none is watched. */
  playerPaused: boolean | null;
}

/** Record every change of the column's data-word-state and data-word-start from now on. */
async function recordWords(column: ReaderColumn, playerElement = -1) {
  await column.text.evaluate((el, index) => {
    const w = window as unknown as { __wordLog: unknown[]; __wordObserver?: MutationObserver; __audios?: HTMLAudioElement[] };
    w.__wordObserver?.disconnect();
    w.__wordLog = [];
    const note = () =>
      w.__wordLog.push({
        state: el.getAttribute('data-word-state'),
        start: el.getAttribute('data-word-start'),
        playerPaused: index >= 0 && w.__audios ? w.__audios[index].paused : null,
      });
    w.__wordObserver = new MutationObserver(note);
    w.__wordObserver.observe(el, { attributes: true, attributeFilter: ['data-word-state', 'data-word-start'] });
  }, playerElement);
}
const wordLog = (page: Page): Promise<WordLogEntry[]> => page.evaluate(() => (window as unknown as { __wordLog: WordLogEntry[] }).__wordLog);

/** The word was said: it went to 'speaking' with this start, and then back to nothing. */
async function expectSaid(page: Page, column: ReaderColumn, start: number) {
  await expect.poll(async () => (await wordLog(page)).some((e) => e.state === 'speaking' && e.start === String(start)), { timeout: 15_000 }).toBe(true);
  await expect(column.text).not.toHaveAttribute('data-word-state', { timeout: 15_000 });
}

/** Have the column's passage narrated (it is made on demand), then close the player. */
async function narrate(reader: ReaderPage, column: ReaderColumn) {
  await column.listenButton.click();
  await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 30_000 });
  await reader.closePlayerButton.click();
  await expect(reader.audioStatus).toHaveText('Closed');
}

async function turnWordModeOn(reader: ReaderPage) {
  await reader.page.mouse.move(10, 200);
  await reader.wordsButton.click();
  await expect(reader.wordsButton).toHaveAttribute('aria-pressed', 'true');
  await expect(reader.primary.text).toHaveAttribute('data-word-mode', '');
}

/** The text of the page's ranges of a CSS highlight. */
const highlightText = (page: Page, name: string) =>
  page.evaluate((n) => [...((CSS.highlights.get(n) as Set<Range> | undefined) ?? [])].map((r) => r.toString()), name);

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test.describe('Tap a word to hear it', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  // Narration is made on demand, and axe runs: slow on a loaded 2-core machine.
  test.setTimeout(90_000);

  test('word mode from the toolbar: a tapped word is said, a drag still selects, and the setting is kept', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await expect(reader.wordsButton).toHaveAttribute('aria-pressed', 'false');
    await expect(reader.primary.text).not.toHaveAttribute('data-word-mode');
    await reader.expectTooltip(reader.wordsButton, 'Tap a word to hear it');

    await narrate(reader, reader.primary);
    await turnWordModeOn(reader);
    await expect(reader.primary.text).toHaveCSS('cursor', 'pointer');

    // A tap on a word says that word.
    const word = await longWord(reader.primary, 2);
    await recordWords(reader.primary);
    await page.mouse.click(word.x, word.y);
    await expectSaid(page, reader.primary, word.start);
    // The player was closed, and stays closed.
    await expect(reader.audioStatus).toHaveText('Closed');

    // A drag selects text, as ever, and says nothing.
    const words = await wordsOf(reader.primary.text);
    await recordWords(reader.primary);
    await page.mouse.move(words[1].x - 3, words[1].y);
    await page.mouse.down();
    await page.mouse.move(words[5].x, words[5].y, { steps: 5 });
    await page.mouse.up();
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toContain(words[3].word);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await wordLog(page)).toEqual([]);

    // Kept across a reload.
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('lectern.v1.readerSettings') ?? 'null'));
    expect(saved.wordMode).toBe(true);
    await page.reload();
    await reader.expectPosition(1);
    await expect(reader.wordsButton).toHaveAttribute('aria-pressed', 'true');
    await expect(reader.primary.text).toHaveAttribute('data-word-mode', '');

    // And off again: a tap is a tap.
    await page.mouse.move(10, 200);
    await reader.wordsButton.click();
    await expect(reader.wordsButton).toHaveAttribute('aria-pressed', 'false');
    await expect(reader.primary.text).not.toHaveAttribute('data-word-mode');
    await expect(reader.primary.text).not.toHaveAttribute('tabindex');
  });

  test('while the player plays, a tapped word pauses it, and it resumes after the word', async ({ page }) => {
    await watchAudioElements(page);
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await turnWordModeOn(reader);

    await reader.primary.listenButton.click();
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 30_000 });
    await expect.poll(() => playingElement(page)).toBeGreaterThanOrEqual(0);
    const player = await playingElement(page);
    await expect.poll(() => elementTime(page, player)).toBeGreaterThan(0.5);

    const word = await longWord(reader.primary, 6);
    await recordWords(reader.primary, player);
    const before = await elementTime(page, player);
    await page.mouse.click(word.x, word.y);
    await expectSaid(page, reader.primary, word.start);
    // While the word was said, the player was paused.
    const log = await wordLog(page);
    expect(log.filter((e) => e.state === 'speaking').every((e) => e.playerPaused === true)).toBe(true);
    // Then it plays on from where it was.
    await expect(reader.audioStatus).toHaveText('Now Playing');
    await expect.poll(() => elementTime(page, player)).toBeGreaterThan(before + 0.5);
  });

  test('Shift+tap plays the passage from the word', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await narrate(reader, reader.primary);
    const marks = await speechMarks(page, 'the-lighthouse-keepers-apprentice', 'en', 'ORIGINAL', 1);
    expect(marks.length).toBeGreaterThan(20);
    await turnWordModeOn(reader);

    // A word well into the narration.
    const word = await longWord(reader.primary, 15);
    const mark = marks.find((m) => m.offset >= word.start && m.offset < word.start + word.word.length)!;
    expect(mark.time).toBeGreaterThan(8000);

    await page.keyboard.down('Shift');
    await page.mouse.click(word.x, word.y);
    await page.keyboard.up('Shift');
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect(reader.primary.listenButton).toHaveAttribute('aria-pressed', 'true');
    // The player starts at the word (its clock shows whole seconds), not from the passage's start.
    await expect.poll(() => reader.clockSeconds(reader.currentClock), { timeout: 5_000 }).toBeGreaterThanOrEqual(Math.floor(mark.time / 1000));
    expect(await reader.clockSeconds(reader.currentClock)).toBeLessThan(mark.time / 1000 + 5);
    // Shift+click selected nothing.
    expect(await page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
  });

  test('from the keyboard: Tab to the passage, arrows choose a word, Enter says it, Shift+F10 opens its menu; axe passes', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await narrate(reader, reader.primary);
    await turnWordModeOn(reader);
    const words = await wordsOf(reader.primary.text);

    // The passage text is one tab stop, after the column's Listen toggle, with its name and description.
    await reader.primary.listenButton.focus();
    await page.keyboard.press('Tab');
    await expect(reader.primary.text).toBeFocused();
    await expect(reader.primary.text).toHaveAccessibleName('Words');
    await expect(reader.primary.text).toHaveAccessibleDescription('Use the arrow keys to choose a word, Enter to hear it, Shift+Enter to play from it');
    await expect(reader.primary.text).toHaveAttribute('data-focus-visible', 'true');
    await expect(reader.primary.text).toHaveCSS('outline-style', 'solid');
    // The cursor starts on the first word.
    await expect(reader.primary.text).toHaveAttribute('data-word-cursor', String(words[0].start));
    expect(await highlightText(page, 'lectern-word-cursor')).toEqual([words[0].word]);

    // ArrowRight twice: the third word; the page does not turn.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(reader.primary.text).toHaveAttribute('data-word-cursor', String(words[2].start));
    expect(await highlightText(page, 'lectern-word-cursor')).toEqual([words[2].word]);
    await expect(reader.primary.passageNumber).toHaveText('1');
    await expect(page).toHaveURL(/\/1$/);

    // Enter says it.
    await recordWords(reader.primary);
    await page.keyboard.press('Enter');
    await expectSaid(page, reader.primary, words[2].start);

    // ArrowLeft goes back a word; End and Home to the last and first.
    await page.keyboard.press('ArrowLeft');
    await expect(reader.primary.text).toHaveAttribute('data-word-cursor', String(words[1].start));
    await page.keyboard.press('End');
    await expect(reader.primary.text).toHaveAttribute('data-word-cursor', String(words[words.length - 1].start));
    await page.keyboard.press('Home');
    await expect(reader.primary.text).toHaveAttribute('data-word-cursor', String(words[0].start));
    await page.keyboard.press('ArrowRight');

    // No serious axe violations with word mode on and the cursor showing.
    expect(await seriousViolations(page)).toEqual([]);

    // Shift+F10 opens the word's menu; Escape closes it and focus comes back to the passage.
    await page.keyboard.press('Shift+F10');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem')).toHaveText(['Say this word', 'Play from here']);
    await expect(menu.getByRole('menuitem', { name: 'Say this word' })).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(reader.primary.text).toBeFocused();
    // The ContextMenu key opens it too.
    await page.keyboard.press('ContextMenu');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(reader.primary.text).toBeFocused();

    // 'Say this word' from the menu, by keyboard.
    await page.keyboard.press('Shift+F10');
    await expect(menu).toBeVisible();
    await recordWords(reader.primary);
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    await expectSaid(page, reader.primary, words[1].start);

    // Shift+Enter plays from the cursor's word.
    await page.keyboard.press('Shift+Enter');
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
  });

  test("the word's context menu offers 'Play from here'", async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await narrate(reader, reader.primary);
    await turnWordModeOn(reader);
    const word = await longWord(reader.primary, 4);

    await page.mouse.click(word.x, word.y, { button: 'right' });
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    // It opens at the word.
    const box = (await menu.boundingBox())!;
    expect(Math.abs(box.y - word.y)).toBeLessThan(60);
    await menu.getByRole('menuitem', { name: 'Play from here' }).click();
    await expect(menu).toBeHidden();
    await expect(reader.audioStatus).toHaveText('Now Playing', { timeout: 15_000 });
    await expect(reader.primary.listenButton).toHaveAttribute('aria-pressed', 'true');
  });

  test('a column whose narration is locked offers the upgrade', async ({ page }) => {
    const reader = new ReaderPage(page);
    // English narration is free; Arabic needs AUDIO (SPEC §6 Feature gates: Audio).
    await reader.goto('/how-bees-make-honey/v1/en:original/ar:original/1');
    await reader.expectPosition(1);
    await expect(reader.secondary.passage).toHaveAttribute('lang', 'ar');
    await turnWordModeOn(reader);
    await expect(reader.secondary.text).toHaveAttribute('data-word-mode', '');

    await recordWords(reader.secondary);
    const word = await longWord(reader.secondary, 1);
    await page.mouse.click(word.x, word.y);
    const dialog = page.getByRole('dialog', { name: 'Unlock Premium Audio' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    expect(await wordLog(page)).toEqual([]);
    await expect(reader.audioStatus).toHaveText('Closed');
  });
});

test.describe('Tap a word to hear it, licensed', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test.setTimeout(120_000);
  test.use(asLicensedReader);

  test('in decode mode a tapped word is said', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await narrate(reader, reader.primary);
    const plainWords = await wordsOf(reader.primary.text);
    await page.mouse.move(10, 200);
    await reader.decodeButton.click();
    await expect(reader.primary.text).toHaveAttribute('data-decoded', '');
    await expect(reader.primary.text.locator('.dc-word').first()).toBeVisible();
    await turnWordModeOn(reader);

    // A word of several syllables, tapped on its first letter; its plain-text offset is the undecoded word's.
    const decodedWords = await wordsOf(reader.primary.text);
    expect(decodedWords.map((w) => w.word)).toEqual(plainWords.map((w) => w.word));
    const index = decodedWords.findIndex((w) => w.word.length >= 7);
    await recordWords(reader.primary);
    await page.mouse.click(decodedWords[index].x, decodedWords[index].y);
    await expectSaid(page, reader.primary, plainWords[index].start);
  });

  test('in two columns, a word of the right column is said there', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/es:original/1`);
    await reader.expectPosition(1);
    await expect(reader.secondary.passage).toHaveAttribute('lang', 'es');
    await narrate(reader, reader.secondary);
    await turnWordModeOn(reader);
    await expect(reader.secondary.text).toHaveAttribute('data-word-mode', '');

    const word = await longWord(reader.secondary, 3);
    await page.evaluate(() => ((window as unknown as { __primaryStates: string[] }).__primaryStates = []));
    await reader.primary.text.evaluate((el) => {
      new MutationObserver(() => (window as unknown as { __primaryStates: (string | null)[] }).__primaryStates.push(el.getAttribute('data-word-state'))).observe(el, {
        attributes: true,
        attributeFilter: ['data-word-state'],
      });
    });
    await recordWords(reader.secondary);
    await page.mouse.click(word.x, word.y);
    await expectSaid(page, reader.secondary, word.start);
    // The left column said nothing.
    expect(await page.evaluate(() => (window as unknown as { __primaryStates: string[] }).__primaryStates)).toEqual([]);
  });
});

test.describe('Tap a word to hear it on a small screen', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test("word mode is in the 'Reader controls menu'", async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(`${LIGHTHOUSE}/en:original/1`);
    await reader.expectPosition(1);
    await page.mouse.move(10, 200);
    await reader.controlsMenuButton.click();
    const dialog = page.getByRole('dialog', { name: 'Reader controls' });
    const toggle = dialog.getByRole('button', { name: 'Words', exact: true });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Escape');
    await expect(reader.primary.text).toHaveAttribute('data-word-mode', '');
  });
});
