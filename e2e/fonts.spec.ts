import { expect, test, type Locator, type Page } from '@playwright/test';
import { ReaderPage } from './models/ReaderPage';
import { TeaserPage } from './models/TeaserPage';
import { asLicensedReader } from './support/licensed';

/**
 * Fonts for every script (docs/decisions.md "Fonts for every script"). This machine, like CI, has only Debian's
 * default fonts: no Chinese, Urdu or Bengali glyphs of its own. So a passage in those scripts reads only because the
 * app ships self-hosted Noto faces, and only the unicode-range slices its characters fall in are fetched.
 */

interface Script {
  name: string;
  path: string;
  lang: string;
  family: string;
  /** The prefix of the family's font files in dist/assets. */
  file: string;
  /** A Unicode script property, for picking a character of the passage to measure. */
  script: string;
  /** The most font files one passage may fetch. */
  maxFiles: number;
}

const SCRIPTS: Script[] = [
  // 97 numbered slices (plus 4 for Latin, Cyrillic and Vietnamese) in dist; one passage needs 17. The others have
  // their script's file plus small Latin ones, of which a passage may need one (punctuation; Urdu's spaces).
  { name: 'Chinese', path: '/the-fox-who-counted-stars/v1/zh:original/1', lang: 'zh', family: 'Noto Sans SC', file: 'noto-sans-sc-', script: 'Han', maxFiles: 20 },
  { name: 'Arabic', path: '/how-bees-make-honey/v1/ar:original/1', lang: 'ar', family: 'Noto Naskh Arabic', file: 'noto-naskh-arabic-', script: 'Arabic', maxFiles: 3 },
  { name: 'Urdu', path: '/the-crow-who-kept-shiny-things/v1/ur:original/1', lang: 'ur', family: 'Noto Nastaliq Urdu', file: 'noto-nastaliq-urdu-', script: 'Arabic', maxFiles: 3 },
  { name: 'Bengali', path: '/why-the-moon-changes-shape/v1/bn:original/1', lang: 'bn', family: 'Noto Sans Bengali', file: 'noto-sans-bengali-', script: 'Bengali', maxFiles: 3 },
];

/** Every font file the page has fetched so far, as URLs, and the bytes of their bodies. */
function recordFonts(page: Page): string[] & { bytes: Promise<number>[] } {
  const fonts = Object.assign([] as string[], { bytes: [] as Promise<number>[] });
  page.on('requestfinished', (request) => {
    if (request.resourceType() !== 'font' && !/\.woff2?(\?|$)/.test(request.url())) return;
    fonts.push(request.url());
    fonts.bytes.push(request.sizes().then((s) => s.responseBodySize));
  });
  return fonts;
}

/** How many faces of this family the page has loaded. */
async function loadedFaces(page: Page, family: string): Promise<number> {
  return page.evaluate((family) => [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === family && f.status === 'loaded').length, family);
}

/**
 * The Han characters of an element (its section header and text) that are drawn as wide as the missing-glyph box
 * in their own element's font. Every Han glyph of Noto Sans SC is one em wide; the box is far narrower. Only for Han:
 * joined Arabic letters and Bengali marks have widths of every size.
 */
async function hanDrawnAsBoxes(root: Locator): Promise<string[]> {
  return root.evaluate((root) => {
    const boxes = new Set<string>();
    const range = document.createRange();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('[aria-hidden="true"]')) continue;
      // A private-use character no font here has, in the same element: the missing-glyph box.
      const probe = document.createElement('span');
      probe.textContent = '\u{10FFFD}';
      parent.appendChild(probe);
      const missing = probe.getBoundingClientRect().width;
      probe.remove();
      const text = node.textContent ?? '';
      let i = 0;
      for (const ch of text) {
        if (/\p{Script=Han}/u.test(ch)) {
          range.setStart(node, i);
          range.setEnd(node, i + ch.length);
          if (Math.abs(range.getBoundingClientRect().width - missing) < 0.5) boxes.add(ch);
        }
        i += ch.length;
      }
    }
    return [...boxes];
  });
}

test.use(asLicensedReader);
test.use({ viewport: { width: 1280, height: 900 } });

test.describe('Fonts for every script', () => {
  for (const s of SCRIPTS) {
    test(`the ${s.name} passage draws real glyphs from ${s.family}, fetching only a few files from our origin`, async ({ page, baseURL }) => {
      const fonts = recordFonts(page);
      const reader = new ReaderPage(page);
      await reader.goto(s.path);
      await reader.expectPosition(1);
      await expect(reader.primary.passage).toHaveAttribute('lang', s.lang);

      // The browser fetches a face when a glyph in its range is laid out; wait for one, then for all to settle.
      await expect.poll(() => loadedFaces(page, s.family)).toBeGreaterThan(0);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));

      const m = await reader.primary.text.evaluate(
        (el, { family, script }) => {
          const text = el.textContent ?? '';
          const glyph = [...text].find((c) => new RegExp(`\\p{Script=${script}}`, 'u').test(c)) ?? '';
          const font = getComputedStyle(el).fontFamily;
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.font = `32px ${font}`;
          // A private-use character no font here has: it draws as the missing-glyph box.
          const missing = ctx.measureText('\u{10FFFD}').width;
          const width = ctx.measureText(glyph).width;
          return { glyph, font, width, missing, check: document.fonts.check(`32px "${family}"`, glyph) };
        },
        { family: s.family, script: s.script },
      );
      expect(m.glyph, 'the passage has a character of its script').not.toBe('');
      expect(m.font).toContain(s.family);
      expect(m.check).toBe(true);
      expect(m.width).toBeGreaterThan(0);
      expect(m.width, `"${m.glyph}" is as wide as the missing-glyph box`).not.toBeCloseTo(m.missing, 1);

      if (s.script === 'Han') {
        expect(await hanDrawnAsBoxes(reader.primary.passage), 'characters drawn as empty boxes').toEqual([]);
        // The toolbar's section picker names the current section in the passage's language.
        const section = page.getByRole('button', { name: /第一章/ }).locator('span[lang="zh"]');
        await expect(section).toBeVisible();
        expect(await hanDrawnAsBoxes(section), 'toolbar characters drawn as empty boxes').toEqual([]);
      }

      // Only this family's slices for the passage's characters: a handful, all from our own origin (CSP font-src 'self').
      const family = fonts.filter((url) => url.includes(`/assets/${s.file}`));
      expect(family.length).toBeGreaterThan(0);
      expect(family.length).toBeLessThanOrEqual(s.maxFiles);
      for (const url of fonts) expect(url.startsWith(`${baseURL}/assets/`), url).toBe(true);
      const kb = (await Promise.all(fonts.bytes)).reduce((a, b) => a + b, 0) / 1024;
      test.info().annotations.push({ type: 'font files', description: `${s.name}: ${family.length} ${s.family} file(s), ${kb.toFixed(1)} KB: ${family.map((u) => u.split('/').pop()).join(' ')}` });

      await page.screenshot({ path: test.info().outputPath(`${s.lang}-passage.png`) });
    });
  }

  test('Urdu is set in Nastaliq with lines tall enough for it', async ({ page }) => {
    const reader = new ReaderPage(page);
    await reader.goto('/the-crow-who-kept-shiny-things/v1/ur:original/1');
    await reader.expectPosition(1);
    await expect.poll(() => loadedFaces(page, 'Noto Nastaliq Urdu')).toBeGreaterThan(0);
    const style = await reader.primary.text.evaluate((el) => {
      const s = getComputedStyle(el);
      return { first: s.fontFamily.split(',')[0].replace(/["']/g, '').trim(), ratio: parseFloat(s.lineHeight) / parseFloat(s.fontSize) };
    });
    expect(style.first).toBe('Noto Nastaliq Urdu');
    expect(style.ratio).toBeGreaterThanOrEqual(2);
  });

  test('the teaser shows Chinese excerpts in Noto Sans SC too', async ({ page }) => {
    const teaser = new TeaserPage(page);
    await teaser.goto('the-fox-who-counted-stars', 'v1', 'zh:original', 3);
    const excerpt = page.locator('main p[lang="zh"]').first();
    await expect(excerpt).toBeVisible();
    await expect.poll(() => loadedFaces(page, 'Noto Sans SC')).toBeGreaterThan(0);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(await excerpt.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Noto Sans SC');
    expect(await hanDrawnAsBoxes(excerpt), 'characters drawn as empty boxes').toEqual([]);
  });

  test('the catalog fetches none of these fonts and does not even declare them', async ({ page }) => {
    const fonts = recordFonts(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const declared = await page.evaluate(() => [...document.fonts].map((f) => f.family.replace(/["']/g, '')).filter((f) => f.startsWith('Noto')));
    expect(declared).toEqual([]);
    expect(fonts.filter((url) => /\/assets\/noto-/.test(url))).toEqual([]);
  });
});
