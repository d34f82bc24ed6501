import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';

/**
 * Type and spacing (docs/reading-aids.md): the text menu offers a font (the default serif,
 * Atkinson Hyperlegible, Lexend, OpenDyslexic, all self-hosted), spacing (Default, Wide, Wider: WCAG 1.4.12) and a
 * page tint (white, cream, blue-grey, dark, each 7:1 for the text). Chosen in the toolbar or the small screen's
 * controls menu, kept across reloads.
 */

const TITLE = '/the-lighthouse-keepers-apprentice/v1/en:original/1';

/** The passage text's computed type and spacing. */
function passageStyle(page: Page) {
  return page.locator('main .passage-text').first().evaluate((el) => {
    const cs = getComputedStyle(el);
    const p2 = el.querySelectorAll('p')[1];
    const fontSize = parseFloat(cs.fontSize);
    return {
      fontFamily: cs.fontFamily,
      lineHeight: parseFloat(cs.lineHeight) / fontSize,
      letterSpacing: cs.letterSpacing === 'normal' ? 0 : parseFloat(cs.letterSpacing) / fontSize,
      wordSpacing: parseFloat(cs.wordSpacing || '0') / fontSize,
      paragraphSpacing: p2 ? parseFloat(getComputedStyle(p2).marginTop) / fontSize : null,
      background: getComputedStyle(el.closest('main')!).backgroundColor,
      color: cs.color,
    };
  });
}

/**
 * Contrast violations on the reading page: AAA (7:1, axe's color-contrast-enhanced) for the passage text, AA for
 * everything else on the page (the section line, the passage number, the column's controls).
 */
async function contrastViolations(page: Page) {
  const summary = (results: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    results.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  const text = await new AxeBuilder({ page }).include('main .passage-text').withRules(['color-contrast-enhanced']).analyze();
  const rest = await new AxeBuilder({ page }).include('main').withRules(['color-contrast']).analyze();
  // The passage's text was looked at, not skipped.
  expect(text.passes.find((p) => p.id === 'color-contrast-enhanced')?.nodes.length ?? 0).toBeGreaterThan(0);
  return [...summary(text), ...summary(rest)];
}

test.describe('Type and spacing', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('a font is chosen in the text menu, drawn from our own files, and kept after a reload', async ({ page }) => {
    const reader = new ReaderPage(page);
    const fontFiles: string[] = [];
    page.on('response', (r) => {
      if (/\.woff2$/.test(r.url())) fontFiles.push(new URL(r.url()).pathname);
    });
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    expect((await passageStyle(page)).fontFamily).not.toContain('OpenDyslexic');

    await reader.chooseTextSetting('Font', 'OpenDyslexic');
    await expect.poll(async () => (await passageStyle(page)).fontFamily).toMatch(/^"?OpenDyslexic"?,/);
    // The face is loaded from this server and draws the passage.
    await expect.poll(() => page.evaluate(() => document.fonts.check('16px OpenDyslexic', 'The keeper'))).toBe(true);
    await expect.poll(() => fontFiles.some((f) => /^\/assets\/opendyslexic-latin-400-normal.*\.woff2$/.test(f))).toBe(true);

    await page.reload();
    await reader.expectPosition(1);
    await expect.poll(async () => (await passageStyle(page)).fontFamily).toMatch(/^"?OpenDyslexic"?,/);
    await reader.chooseTextSetting('Font', 'Atkinson Hyperlegible');
    await expect.poll(async () => (await passageStyle(page)).fontFamily).toMatch(/^"?Atkinson Hyperlegible"?,/);
    await reader.chooseTextSetting('Font', 'Lexend');
    await expect.poll(async () => (await passageStyle(page)).fontFamily).toMatch(/^"?Lexend"?,/);
    await reader.chooseTextSetting('Font', 'Default');
    await expect.poll(async () => (await passageStyle(page)).fontFamily).toMatch(/^"?Iowan Old Style"?,/);
  });

  test('Wider spacing meets WCAG 1.4.12 and Default is the passage as it was', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    const before = await passageStyle(page);
    expect(before.lineHeight).toBeCloseTo(1.75, 2);
    expect(before.letterSpacing).toBe(0);
    expect(before.paragraphSpacing).toBeCloseTo(0.9, 2);

    await reader.chooseTextSetting('Spacing', 'Wider');
    await expect.poll(async () => (await passageStyle(page)).letterSpacing).toBeCloseTo(0.12, 2);
    const wider = await passageStyle(page);
    expect(wider.lineHeight).toBeGreaterThanOrEqual(1.5);
    expect(wider.wordSpacing).toBeCloseTo(0.16, 2);
    expect(wider.paragraphSpacing).toBeGreaterThanOrEqual(2);

    await reader.chooseTextSetting('Spacing', 'Wide');
    await expect.poll(async () => (await passageStyle(page)).letterSpacing).toBeCloseTo(0.05, 2);
    await page.reload();
    await reader.expectPosition(1);
    await expect.poll(async () => (await passageStyle(page)).letterSpacing).toBeCloseTo(0.05, 2);
    await expect(reader.textSizeButton).toContainText('Default');
  });

  test('every page tint reads at 7:1 or more (axe, AAA) and is kept after a reload', async ({ page }) => {
    test.slow(); // four full axe runs of the reading page
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    const backgrounds = new Set<string>();
    for (const tint of ['Cream', 'Blue-grey', 'Dark', 'White']) {
      await reader.chooseTextSetting('Page tint', tint);
      await expect.poll(async () => backgrounds.has((await passageStyle(page)).background)).toBe(false);
      backgrounds.add((await passageStyle(page)).background);
      // Away from the toolbar, so its fade does not overlap the analysis.
      await page.mouse.move(640, 600);
      expect(await contrastViolations(page), tint).toEqual([]);
    }
    expect(backgrounds.size).toBe(4);
    await reader.chooseTextSetting('Page tint', 'Dark');
    await page.reload();
    await reader.expectPosition(1);
    await expect(page.locator('main')).toHaveAttribute('data-page-tint', 'dark');
    await expect.poll(async () => (await passageStyle(page)).background).toBe('rgb(18, 23, 23)');
  });
});

test.describe('Type and spacing on a small screen', () => {
  test.use({ viewport: { width: 375, height: 760 } });

  test("the largest type, widest spacing and OpenDyslexic neither clip nor overlap at 375 px, chosen in the 'Reader controls menu'", async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto(TITLE);
    await reader.expectPosition(1);
    await page.mouse.move(10, 200);
    await reader.controlsMenuButton.click();
    const dialog = page.getByRole('dialog', { name: 'Reader controls' });
    for (const [group, option] of [['Text size', 'Extra Large'], ['Font', 'OpenDyslexic'], ['Spacing', 'Wider'], ['Page tint', 'Cream']]) {
      const radios = dialog.getByRole('radiogroup', { name: group });
      await radios.getByText(option, { exact: true }).click();
      await expect(radios.getByRole('radio', { name: option, exact: true })).toBeChecked();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await passageStyle(page)).letterSpacing).toBeCloseTo(0.12, 2);
    await expect.poll(() => page.evaluate(() => document.fonts.check('16px OpenDyslexic', 'The keeper'))).toBe(true);

    const layout = await page.evaluate(() => {
      const text = document.querySelector('main .passage-text')!;
      const paragraphs = [...text.querySelectorAll('p')].map((p) => p.getBoundingClientRect());
      const range = document.createRange();
      const words: DOMRect[] = [];
      const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        range.selectNodeContents(node);
        words.push(...range.getClientRects());
      }
      return {
        pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        textRight: Math.max(...words.map((r) => r.right)),
        textLeft: Math.min(...words.map((r) => r.left)),
        paragraphsOverlap: paragraphs.some((r, i) => i > 0 && r.top < paragraphs[i - 1].bottom),
        textBox: text.getBoundingClientRect().toJSON() as DOMRect,
      };
    });
    expect(layout.pageOverflow).toBeLessThanOrEqual(0);
    expect(layout.paragraphsOverlap).toBe(false);
    expect(layout.textLeft).toBeGreaterThanOrEqual(0);
    expect(layout.textRight).toBeLessThanOrEqual(375);
    expect(layout.textRight).toBeLessThanOrEqual(layout.textBox.right + 1);
  });
});
