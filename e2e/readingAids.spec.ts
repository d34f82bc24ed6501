import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';

/**
 * Reading aids (docs/reading-aids.md): the reading ruler. A band of 1, 2 or 3 lines stays clear and the
 * rest of the passage is dimmed; it follows the pointer, moves a line with ArrowUp and ArrowDown, is off by default,
 * is chosen from the toolbar (or the small screen's controls menu) and is remembered.
 */

const TITLE = '/the-lighthouse-keepers-apprentice/v1/en:original/1';

/** The ruler's slider in the primary column, and the two dimmed parts around its band. */
function ruler(reader: ReaderPage) {
  const column = reader.primary.region;
  return {
    slider: column.getByRole('slider', { name: 'Reading ruler' }),
    above: column.locator('[data-ruler-dim="above"]'),
    below: column.locator('[data-ruler-dim="below"]'),
  };
}

/** The top and bottom of each line of the primary passage's text, from its text boxes, in page pixels. */
async function textLines(text: Locator) {
  return text.evaluate((root) => {
    const lines: { top: number; bottom: number }[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        const line = lines.find((l) => Math.min(l.bottom, r.bottom) - Math.max(l.top, r.top) > r.height / 2);
        if (line) line.bottom = Math.max(line.bottom, r.bottom);
        else if (r.height > 0) lines.push({ top: r.top, bottom: r.bottom });
      }
    }
    return lines.sort((a, b) => a.top - b.top);
  });
}

/** The band's box against the lines: which lines lie wholly inside it. */
async function clearLines(_page: Page, slider: Locator, text: Locator): Promise<number[]> {
  const band = (await slider.boundingBox())!;
  // Both in the viewport's coordinates.
  const lines = await textLines(text);
  return lines.flatMap((line, i) => (line.top >= band.y - 1 && line.bottom <= band.y + band.height + 1 ? [i] : []));
}

test.describe('Reading ruler', () => {
  test.use({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });

  test('is off by default; chosen from the toolbar it keeps two lines clear, moves by keyboard and pointer, and is remembered', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    const { slider, above, below } = ruler(reader);
    await expect(reader.rulerButton).toContainText('Off');
    await expect(slider).toHaveCount(0);

    await reader.chooseFromToolbar(reader.rulerButton, '2 lines');
    await expect(reader.rulerButton).toContainText('2 lines');
    await expect(slider).toHaveAttribute('aria-valuetext', /^Lines 1 to 2 of \d+$/);
    const lineCount = Number((await slider.getAttribute('aria-valuetext'))!.match(/of (\d+)$/)![1]);
    expect(lineCount).toBeGreaterThan(4);
    await expect.poll(() => clearLines(page, slider, reader.primary.text)).toEqual([0, 1]);
    // Above the band nothing is dimmed yet (at most the margin over the first line); below it, the rest of the passage is.
    const first = (await textLines(reader.primary.text))[0];
    expect((await above.boundingBox())?.height ?? 0).toBeLessThan((first.bottom - first.top) / 2);
    expect((await below.boundingBox())!.height).toBeGreaterThan(50);
    await expect(below).toHaveCSS('background-color', /\/ 0\.8\)$|, 0\.8\)$/);

    // From the keyboard: Tab reaches it, ArrowDown and ArrowUp move it a line, End and Home to the ends.
    await slider.focus();
    await expect(slider).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(slider).toHaveAttribute('aria-valuetext', `Lines 2 to 3 of ${lineCount}`);
    await expect.poll(() => clearLines(page, slider, reader.primary.text)).toEqual([1, 2]);
    expect((await above.boundingBox())!.height).toBeGreaterThan(10);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await expect(slider).toHaveAttribute('aria-valuenow', '2');
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuetext', `Lines ${lineCount - 1} to ${lineCount} of ${lineCount}`);
    await page.keyboard.press('ArrowDown');
    await expect(slider).toHaveAttribute('aria-valuenow', String(lineCount - 1));
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuenow', '1');
    // The page's own arrows still turn the page: the ruler takes only up, down, Home and End.
    await expect(reader.primary.passageNumber).toHaveText('1');

    // The pointer over the text: the band centres on the line under it.
    const lines = await textLines(reader.primary.text);
    const fourth = lines[3];
    await page.mouse.move(400, (fourth.top + fourth.bottom) / 2);
    await expect(slider).toHaveAttribute('aria-valuetext', `Lines 4 to 5 of ${lineCount}`);

    // A new passage starts with the band on its first lines.
    await reader.nextButton.click();
    await reader.expectPosition(2);
    await expect(slider).toHaveAttribute('aria-valuenow', '1');

    // Remembered across a reload.
    await page.reload();
    await reader.expectPosition(2);
    await expect(reader.rulerButton).toContainText('2 lines');
    await expect(slider).toHaveAttribute('aria-valuetext', /^Lines 1 to 2 of \d+$/);

    // And off again.
    await reader.chooseFromToolbar(reader.rulerButton, 'Off');
    await expect(slider).toHaveCount(0);
  });

  test('one line and three lines; no axe violations with the ruler on', async ({ page }) => {
    test.setTimeout(90_000);
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    const { slider } = ruler(reader);
    await reader.chooseFromToolbar(reader.rulerButton, '1 line');
    await expect(slider).toHaveAttribute('aria-valuetext', /^Line 1 of \d+$/);
    await expect.poll(() => clearLines(page, slider, reader.primary.text)).toEqual([0]);
    await reader.chooseFromToolbar(reader.rulerButton, '3 lines');
    await expect(slider).toHaveAttribute('aria-valuetext', /^Lines 1 to 3 of \d+$/);
    await expect.poll(() => clearLines(page, slider, reader.primary.text)).toEqual([0, 1, 2]);

    // Reached with Tab, with a visible focus ring.
    await reader.primary.passageNumber.click();
    for (let i = 0; i < 20 && !(await slider.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(slider).toBeFocused();
    await expect(slider).toHaveAttribute('data-focus-visible', 'true');
    await expect(slider).toHaveCSS('outline-style', 'solid');
    // The toolbar's pickers, reached from the keyboard, show their focus ring as well.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 30 && !(await reader.rulerButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
    await expect(reader.rulerButton).toBeFocused();
    await expect(reader.rulerButton).toHaveCSS('outline-style', 'solid');
    await expect(reader.rulerButton).toHaveCSS('outline-width', '3px');

    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
    expect(serious).toEqual([]);
  });

  test('moves without animation when the reader asks for reduced motion, and glides otherwise', async ({ browser }) => {
    // Reduced motion: the app's stylesheet takes every transition's time away.
    for (const [reducedMotion, seconds] of [['reduce', 0], ['no-preference', 0.1]] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion });
      const page = await context.newPage();
      const reader = new ReaderPage(page);
      await reader.goto(TITLE);
      await reader.expectPosition(1);
      await reader.chooseFromToolbar(reader.rulerButton, '2 lines');
      await expect.poll(() => ruler(reader).slider.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration))).toBeCloseTo(seconds, 5);
      // A box the script moves (as a hint is placed next to its control) is where it was put at once, in either
      // case: the stylesheet turns no style change into a transition of its own.
      const moved = await page.evaluate(() => {
        const box = document.createElement('div');
        box.style.cssText = 'position: fixed; left: 0; top: 0; width: 10px; height: 10px';
        document.body.append(box);
        void box.offsetWidth;
        box.style.left = '300px';
        const result = { transitions: box.getAnimations().length, left: box.getBoundingClientRect().left };
        box.remove();
        return result;
      });
      expect(moved).toEqual({ transitions: 0, left: 300 });
      await context.close();
    }
  });
});

test.describe('Reading ruler on a small screen', () => {
  test.use({ viewport: { width: 375, height: 800 }, reducedMotion: 'reduce' });

  test("is chosen in the 'Reader controls menu'", async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    await page.mouse.move(10, 200);
    await reader.controlsMenuButton.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radiogroup', { name: 'Reading ruler' }).getByText('3 lines').click();
    await page.keyboard.press('Escape');
    await expect(ruler(reader).slider).toHaveAttribute('aria-valuetext', /^Lines 1 to 3 of \d+$/);
    await expect.poll(() => clearLines(page, ruler(reader).slider, reader.primary.text)).toEqual([0, 1, 2]);
  });
});
