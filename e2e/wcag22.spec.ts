/**
 * WCAG 2.2 checks that axe does not make (docs/accessibility.md cites these tests):
 * - 1.4.1 Use of Color: decode mode marks each kind of letter group with more than colour;
 * - 2.5.8 Target Size (Minimum) on the catalog, reader, listen and teacher pages, on a phone and on a desktop;
 * - 2.4.11 Focus Not Obscured (Minimum): Tab through the reader with the toolbar, the player and each dialog open
 *   (and 3.2.1 On Focus: the walk never changes the page);
 * - 2.5.3 Label in Name: a control's visible text is part of its accessible name;
 * - 2.5.7 Dragging Movements: the reading ruler moves without dragging;
 * - 3.3.8 Accessible Authentication (Minimum): sign-in takes pasted credentials and offers autocomplete;
 * - 1.4.10 Reflow at 320 CSS px, dialogs included;
 * - 1.4.12 Text Spacing: with the criterion's spacing applied, no text is cut off;
 * - 1.4.11 Non-text Contrast: text field borders at 3:1 or more;
 * - 1.4.13 Content on Hover or Focus: a tooltip is hoverable and dismissible.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { AuthPage } from './models/AccountPages';
import { CatalogPage } from './models/CatalogPage';
import { ClassroomPage } from './models/ClassroomPage';
import { ListenPage } from './models/ListenPage';
import { PublicationPage } from './models/PublicationPage';
import { ReaderPage } from './models/ReaderPage';
import { asLicensedReader } from './support/licensed';
import { asLicensedTeacher } from './support/teacher';
import { clippedText, focusedCoverage, horizontalOverflow, labelNotInName, targetSizeFailures, TEXT_SPACING_CSS, weakFieldBorders } from './support/wcag22';

const READER = '/the-fox-who-counted-stars/v1/en:original/1';
const PIP = 'Pip and the Paper Moon';

// Each test visits several pages and measures every element of each, on a shared 2-core machine: twice the default
// timeout.
test.describe.configure({ timeout: 60_000 });

// The toolbar fades out after a while without activity: with reduced motion (which the app honours) it is either
// shown or hidden, never half way.
test.use({ reducedMotion: 'reduce' });

const VIEWPORTS = [
  { name: 'a phone', viewport: { width: 412, height: 915 } },
  { name: 'a desktop', viewport: { width: 1280, height: 800 } },
];

/** A page to look at, and what shows that it is ready. */
interface OtherPage {
  path: string;
  ready: (page: Page) => Locator;
}

/** The pages a visitor reaches besides the catalog, the reader and sign-in. */
const VISITOR_PAGES: OtherPage[] = [
  { path: '/listen/how-bees-make-honey/v1/en-GOLD', ready: (page) => page.getByRole('heading', { level: 1, name: 'How Bees Make Honey' }) },
  { path: '/teaser/the-fox-who-counted-stars/v1/en:original/3', ready: (page) => page.getByRole('region', { name: 'Passage 3' }) },
  { path: '/sign-up', ready: (page) => page.getByRole('heading', { level: 1, name: 'Sign Up' }) },
  { path: '/terms', ready: (page) => page.getByRole('heading', { level: 1 }) },
  { path: '/no-such-page', ready: (page) => page.getByRole('heading', { level: 1 }) },
];

/** A teacher's own pages (the licensed teacher administers their school). */
const TEACHER_PAGES: OtherPage[] = [
  { path: '/account', ready: (page) => page.getByRole('heading', { level: 1, name: 'Manage Account' }) },
  { path: '/organization', ready: (page) => page.getByRole('heading', { level: 1, name: 'Manage Organization' }) },
  { path: '/uploads', ready: (page) => page.getByRole('heading', { level: 1, name: 'My Uploads' }) },
];

/** Open each page and run a check on it; a failure names the page. */
async function onEachPage(page: Page, pages: OtherPage[], check: (path: string) => Promise<void>) {
  for (const { path, ready } of pages) {
    await page.goto(path);
    await expect(ready(page)).toBeVisible();
    await check(path);
  }
}

/** 2.5.8 on the page as it is now: several controls were measured, and none is too small and too close to another. */
async function expectTargetSizes(page: Page, where?: string) {
  const { measured, failures } = await targetSizeFailures(page);
  expect.soft(measured, where).toBeGreaterThan(3);
  expect.soft(failures, where).toEqual([]);
}

/** Open the reader at a passage and show its toolbar (the pointer moving over the page shows it). */
async function openReader(page: Page, path = READER) {
  const reader = new ReaderPage(page);
  await reader.goto(path);
  await reader.expectPosition(Number(path.split('/').at(-1)));
  await page.mouse.move(10, 200);
  await expect(reader.toolbar).toBeVisible();
  return reader;
}

/** Open the narration player of the primary column (it shows in the passages bar). */
async function openPlayer(reader: ReaderPage) {
  await reader.page.mouse.move(10, 200);
  await reader.primary.listenButton.click();
  await expect(reader.seekSlider).toBeVisible();
  await reader.pauseButton.or(reader.playButton).first().waitFor();
  if (await reader.pauseButton.isVisible()) await reader.pauseButton.click();
  await expect(reader.playButton).toBeVisible();
}

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`2.5.8 Target size on ${name}`, () => {
    test.use({ viewport });

    test('the Free Library and the sign-in page', async ({ page }) => {
      const catalog = new CatalogPage(page);
      await catalog.goto();
      await catalog.waitForCards();
      await expectTargetSizes(page);
      await catalog.sortButton.click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectTargetSizes(page);
      await page.keyboard.press('Escape');

      const signIn = new AuthPage(page, 'sign-in');
      await signIn.goto();
      await expectTargetSizes(page);
    });

    test('the measurement flags two small controls side by side and exempts a link inside a sentence', async ({ page }) => {
      await new AuthPage(page, 'sign-in').goto();
      await page.locator('main').evaluate((main) => {
        const probe = document.createElement('div');
        probe.innerHTML =
          '<button style="all: unset; display: inline-block; width: 10px; height: 10px">a</button>' +
          '<button style="all: unset; display: inline-block; width: 10px; height: 10px; margin-left: 4px">b</button>' +
          '<p>Read <a href="#probe">this</a> now.</p>';
        main.prepend(probe);
      });
      const { failures } = await targetSizeFailures(page);
      expect(failures.map((f) => f.control)).toEqual(expect.arrayContaining(['button "a"', 'button "b"']));
      expect(failures.filter((f) => f.control === 'a "this"')).toEqual([]);
    });

    test.describe('as a licensed reader', () => {
      test.use(asLicensedReader);

      test('the reader with its toolbar, the player and the text menu', async ({ page }) => {
        const reader = await openReader(page);
        await expectTargetSizes(page);
        await openPlayer(reader);
        await page.mouse.move(10, 200);
        await expectTargetSizes(page);
        if (viewport.width >= 1024) {
          await reader.textSizeButton.click();
          const dialog = page.getByRole('dialog', { name: 'Text settings' });
          await expect(dialog).toBeVisible();
          await expectTargetSizes(page);
        } else {
          await reader.controlsMenuButton.click();
          await expect(page.getByRole('dialog', { name: 'Reader controls' })).toBeVisible();
          await expectTargetSizes(page);
        }
      });

      test('the listen page', async ({ page }) => {
        const listen = new ListenPage(page);
        await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
        await expect(listen.passage(3).locator('p')).toBeVisible();
        await listen.waitForAudio();
        await expectTargetSizes(page);
      });
    });

    test('the select-passage, teaser, sign-up, terms and not-found pages', async ({ page }) => {
      await onEachPage(page, VISITOR_PAGES, (path) => expectTargetSizes(page, path));
    });

    test.describe('as a licensed teacher', () => {
      test.use(asLicensedTeacher);

      test('Manage Account, Manage Organization and My Uploads', async ({ page }) => {
        await onEachPage(page, TEACHER_PAGES, (path) => expectTargetSizes(page, path));
      });

      test('the Free Library with the class-code banner, the Classroom Library and the share dialog', async ({ page }) => {
        const catalog = new CatalogPage(page);
        await catalog.goto();
        await catalog.shell.shownClassCode();
        await catalog.waitForCards();
        await expectTargetSizes(page);

        const classroom = new ClassroomPage(page);
        await classroom.goto();
        await expect(classroom.teachersOnlyBanner).toBeVisible();
        await expectTargetSizes(page);

        await catalog.goto();
        await catalog.card(PIP).click();
        const publication = new PublicationPage(page);
        await expect(publication.heading(PIP)).toBeVisible();
        await expectTargetSizes(page);
        await publication.shareButton.click();
        await expect(publication.shareDialog).toBeVisible();
        await expectTargetSizes(page);
      });
    });
  });
}

test.describe('2.5.3 Label in name', () => {
  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`on ${name}`, () => {
      test.use({ viewport });

      test('the Free Library, sign-in and the other pages of a visitor', async ({ page }) => {
        const catalog = new CatalogPage(page);
        await catalog.goto();
        await catalog.waitForCards();
        expect.soft(await labelNotInName(page)).toEqual([]);
        await new AuthPage(page, 'sign-in').goto();
        expect.soft(await labelNotInName(page)).toEqual([]);
        await onEachPage(page, VISITOR_PAGES, async (path) => expect.soft(await labelNotInName(page), path).toEqual([]));
      });

      test.describe('as a licensed reader', () => {
        test.use(asLicensedReader);

        test('the reader with the player, and the listen page', async ({ page }) => {
          const reader = await openReader(page);
          await openPlayer(reader);
          await page.mouse.move(10, 200);
          expect.soft(await labelNotInName(page)).toEqual([]);
          const listen = new ListenPage(page);
          await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
          await listen.waitForAudio();
          expect.soft(await labelNotInName(page)).toEqual([]);
        });
      });

      test.describe('as a licensed teacher', () => {
        test.use(asLicensedTeacher);

        test("the teacher's Free Library, the Classroom Library and their own pages", async ({ page }) => {
          const catalog = new CatalogPage(page);
          await catalog.goto();
          await catalog.shell.shownClassCode();
          await catalog.waitForCards();
          expect.soft(await labelNotInName(page)).toEqual([]);
          const classroom = new ClassroomPage(page);
          await classroom.goto();
          await expect(classroom.teachersOnlyBanner).toBeVisible();
          expect.soft(await labelNotInName(page)).toEqual([]);
          await onEachPage(page, TEACHER_PAGES, async (path) => expect.soft(await labelNotInName(page), path).toEqual([]));
        });
      });
    });
  }
});

test.describe('2.4.11 Focus not obscured in the reader', () => {
  test.use(asLicensedReader);

  /**
   * Press Tab `stops` times from where the focus is, and return every stop whose control nothing shows: entirely
   * under the toolbar, the player, a dialog, or out of view. At least `atLeast` controls must take the focus.
   */
  async function hiddenFocusStops(page: Page, stops = 60, atLeast = 4) {
    const hidden: { focused: string; coveredBy: string[] }[] = [];
    const seen = new Map<number, string>();
    const address = page.url();
    for (let i = 0; i < stops; i++) {
      await page.keyboard.press('Tab');
      const coverage = await focusedCoverage(page);
      if (!coverage) continue;
      if (coverage.hidden) hidden.push({ focused: coverage.focused, coveredBy: coverage.coveredBy });
      seen.set(coverage.key, coverage.focused);
    }
    // The walk went somewhere: several controls took the focus.
    expect(seen.size, JSON.stringify([...seen.values()])).toBeGreaterThanOrEqual(atLeast);
    // Focus alone never changes the page (3.2.1 On Focus).
    expect(page.url()).toBe(address);
    return hidden;
  }

  for (const { name, viewport } of VIEWPORTS) {
    test(`on ${name}: with the toolbar and the player open, then with each dialog open`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const reader = await openReader(page);
      await openPlayer(reader);
      await page.locator('body').focus();
      expect(await hiddenFocusStops(page)).toEqual([]);

      if (viewport.width >= 1024) {
        await page.mouse.move(10, 200);
        await reader.textSizeButton.click();
        await expect(page.getByRole('dialog', { name: 'Text settings' })).toBeVisible();
        expect(await hiddenFocusStops(page, 20)).toEqual([]);
        await page.keyboard.press('Escape');
      } else {
        await page.mouse.move(10, 200);
        await reader.controlsMenuButton.click();
        await expect(page.getByRole('dialog', { name: 'Reader controls' })).toBeVisible();
        expect(await hiddenFocusStops(page, 30)).toEqual([]);
        await page.keyboard.press('Escape');
      }

      // A premium level of a premium title without the feature opens the upgrade dialog: seen by a visitor.
      await page.context().clearCookies();
      await reader.goto('/the-fox-who-counted-stars/v1/en:gold/2');
      await expect(page.getByRole('region', { name: 'This content requires a School License' })).toBeVisible();
      await page.mouse.move(10, 200);
      await reader.primary.levelButton.click();
      await page.getByRole('listbox', { name: 'Reading levels' }).getByRole('option', { name: 'Silver' }).click();
      await expect(page.getByRole('dialog', { name: 'Unlock Premium Levels' })).toBeVisible();
      expect(await hiddenFocusStops(page, 10, 2)).toEqual([]);
    });
  }
});

test.describe('1.4.1 Use of color: decode mode', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test.use(asLicensedReader);

  test('each kind of letter group has a mark besides its colour, unlike plain letters and every other kind', async ({ page }) => {
    const reader = await openReader(page);
    await reader.decodeButton.click();
    await expect(reader.decodeLegend).toBeVisible();
    await expect(reader.primary.text.locator('.dc-digraph, .dc-team, .dc-r').first()).toBeVisible();
    // One of each kind, as the decoder marks them, in the decoded passage; then each one's look without its colour.
    const looks = await reader.primary.text.evaluate((text) => {
      const kinds = ['dc-digraph', 'dc-team', 'dc-r', 'dc-silent', 'dc-cle', 'dc-heart'];
      const probe = document.createElement('span');
      probe.innerHTML = `plain ${kinds.map((kind) => `<span class="${kind}">ab</span>`).join(' ')}`;
      text.querySelector('p')!.append(probe);
      const look = (el: Element) => {
        const cs = getComputedStyle(el);
        const line = cs.textDecorationLine === 'none' ? 'none' : `${cs.textDecorationLine} ${cs.textDecorationStyle}`;
        return `${line}, ${cs.fontStyle}, ${cs.fontWeight}`;
      };
      const result = { plain: look(probe), ...Object.fromEntries(kinds.map((kind) => [kind, look(probe.querySelector(`.${kind}`)!)])) };
      probe.remove();
      return result as Record<string, string>;
    });
    expect(new Set(Object.values(looks)).size, JSON.stringify(looks)).toBe(Object.keys(looks).length);
  });
});

test.describe('1.4.11 Non-text contrast: text field borders', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  /** The fields of the page as it is now: at least one, and every border at 3:1 or more. */
  async function expectFieldBorders(page: Page, where: string) {
    const { measured, weak } = await weakFieldBorders(page);
    expect.soft(measured, where).toBeGreaterThan(0);
    expect.soft(weak, where).toEqual([]);
  }

  test('sign-in, the catalog search and page fields, the select-passage and teaser fields, and the class-code dialog', async ({ page }) => {
    await new AuthPage(page, 'sign-in').goto();
    await expectFieldBorders(page, 'sign-in');
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.waitForCards();
    await expectFieldBorders(page, 'catalog');
    await onEachPage(page, VISITOR_PAGES.slice(0, 2), (path) => expectFieldBorders(page, path));
    await catalog.goto();
    await catalog.shell.enterClassCodeButton.click();
    await expect(page.getByRole('dialog', { name: 'Enter Class Code' })).toBeVisible();
    await expectFieldBorders(page, 'Enter Class Code');
  });

  test.describe('as a licensed reader', () => {
    test.use(asLicensedReader);

    test("the reader's page field and the language search", async ({ page }) => {
      const reader = await openReader(page);
      await expectFieldBorders(page, 'reader');
      await reader.primary.openLanguages();
      await expectFieldBorders(page, 'language search');
    });
  });

  test.describe('as a licensed teacher', () => {
    test.use(asLicensedTeacher);

    test('Manage Account, Manage Organization (the invite field) and My Uploads', async ({ page }) => {
      await onEachPage(page, TEACHER_PAGES, (path) => expectFieldBorders(page, path));
    });
  });
});

test.describe('1.4.13 Content on hover or focus: tooltips', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test.use(asLicensedReader);

  test('a tooltip stays while the pointer moves onto it, and Escape dismisses it without moving the pointer', async ({ page }) => {
    // The page's clock is driven by the test, so "it stays" is measured past the close delay without waiting.
    await page.clock.install();
    const reader = await openReader(page);
    const tooltip = page.getByRole('tooltip');
    const button = reader.primary.listenButton;
    const box = (await button.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    await page.clock.runFor(1_500);
    await expect(tooltip).toHaveText('Highlight text as audio plays');

    // Onto the tooltip itself, then well past the close delay: still shown.
    const tip = (await tooltip.boundingBox())!;
    await page.mouse.move(tip.x + tip.width / 2, tip.y + tip.height / 2, { steps: 4 });
    await page.clock.runFor(2_000);
    await expect(tooltip).toHaveText('Highlight text as audio plays');

    // Dismissed with Escape, the pointer still on it.
    await page.keyboard.press('Escape');
    await expect(tooltip).toHaveCount(0);
  });
});

test.describe('2.2.1 Timing adjustable: toasts', () => {
  test('a toast stays while the pointer is over it or focus is in it, and goes 2 seconds after both left', async ({ page }) => {
    // The page's clock stops before the toast shows, and moves in 50 ms steps until it does: so its 2 seconds pass
    // only when the test says.
    await page.clock.install();
    const classroom = new ClassroomPage(page);
    await page.goto('/classroom-catalog');
    const input = classroom.classCodeForm.getByRole('textbox', { name: 'Class Code' });
    await expect(input).toBeVisible();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 10);
    await input.fill('ZZZZ9999');
    await classroom.classCodeForm.getByRole('button', { name: 'Submit' }).click();
    const toast = classroom.shell.toast('Invalid Class Code');
    await expect
      .poll(async () => {
        if (await toast.isVisible()) return true;
        await page.clock.runFor(50);
        return false;
      }, { intervals: [50] })
      .toBe(true);

    // The pointer over it: held.
    await toast.hover();
    await page.clock.runFor(10_000);
    await expect(toast).toBeVisible();

    // Focus on its Dismiss button, the pointer gone: still held.
    const dismiss = toast.getByRole('button', { name: 'Dismiss' });
    await dismiss.focus();
    await page.mouse.move(5, 5);
    await page.clock.runFor(10_000);
    await expect(toast).toBeVisible();

    // Focus gone too: its 2 seconds start again.
    await dismiss.blur();
    await page.clock.runFor(1_900);
    await expect(toast).toBeVisible();
    await page.clock.runFor(200);
    await expect(toast).toHaveCount(0);
  });
});

test.describe('2.5.7 Dragging movements: the reading ruler', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('moves a line at a time from the keyboard, and to a line by pointing at it, without a drag', async ({ page }) => {
    const reader = await openReader(page, '/the-lighthouse-keepers-apprentice/v1/en:original/1');
    await reader.chooseFromToolbar(reader.rulerButton, '2 lines');
    const slider = reader.primary.region.getByRole('slider', { name: 'Reading ruler' });
    await expect(slider).toHaveAttribute('aria-valuenow', '1');

    // The keyboard: ArrowDown moves the band one line down, the band's box with it.
    const before = (await slider.boundingBox())!;
    await slider.focus();
    await page.keyboard.press('ArrowDown');
    await expect(slider).toHaveAttribute('aria-valuenow', '2');
    await expect.poll(async () => (await slider.boundingBox())!.y).toBeGreaterThan(before.y);

    // A single click on a line further down (no button held while moving) places the band there.
    const text = (await reader.primary.text.boundingBox())!;
    await page.mouse.click(text.x + 40, text.y + text.height * 0.6);
    await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow'))).toBeGreaterThan(3);
  });
});

test.describe('3.3.8 Accessible authentication: sign-in', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the email and password fields take pasted text, offer autocomplete, and no puzzle is asked', async ({ page }) => {
    const signIn = new AuthPage(page, 'sign-in');
    await signIn.goto();
    await expect(signIn.emailField).toHaveAttribute('autocomplete', /^(username|email)$/);
    await expect(signIn.passwordField).toHaveAttribute('autocomplete', 'current-password');

    // A paste, as a password manager or the clipboard gives it: the paste event is not cancelled, and the text lands.
    for (const [field, value] of [
      [signIn.emailField, 'pasted.reader@example.org'],
      [signIn.passwordField, 'pasted-secret-phrase'],
    ] as const) {
      await field.focus();
      const accepted = await field.evaluate((el, text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
        return el.dispatchEvent(event);
      }, value);
      expect(accepted).toBe(true);
      await page.keyboard.insertText(value);
      await expect(field).toHaveValue(value);
    }

    // Only the two fields (Playwright counts the password field as a textbox too) and the button: no captcha, puzzle,
    // or question to answer.
    await expect(signIn.form.getByRole('textbox')).toHaveCount(2);
    await expect(signIn.form.locator('input:not([type=hidden])')).toHaveCount(2);
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect(page.getByText(/captcha|prove you are human|solve/i)).toHaveCount(0);
  });
});

test.describe('1.4.10 Reflow at 320 CSS px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('the Free Library, sign-in, the reader with the player, and the listen page scroll one way only', async ({ page }) => {
    const catalog = new CatalogPage(page);
    await catalog.goto();
    await catalog.waitForCards();
    expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });
    await catalog.card(PIP).click();
    await expect(new PublicationPage(page).heading(PIP)).toBeVisible();
    expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });

    await new AuthPage(page, 'sign-in').goto();
    expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });
  });

  test('the select-passage, teaser, sign-up, terms and not-found pages', async ({ page }) => {
    await onEachPage(page, VISITOR_PAGES, async (path) => expect.soft(await horizontalOverflow(page), path).toEqual({ document: 0, dialogs: [] }));
  });

  test.describe('as a licensed reader', () => {
    test.use(asLicensedReader);

    test('the reader with the player and the controls menu, and the listen page', async ({ page }) => {
      const reader = await openReader(page);
      expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });
      await openPlayer(reader);
      expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });
      await page.mouse.move(10, 200);
      await reader.controlsMenuButton.click();
      await expect(page.getByRole('dialog', { name: 'Reader controls' })).toBeVisible();
      expect((await horizontalOverflow(page)).document).toBe(0);
      expect((await horizontalOverflow(page)).dialogs.filter((d) => d.overflow > 0)).toEqual([]);
      await page.keyboard.press('Escape');

      const listen = new ListenPage(page);
      await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
      await listen.waitForAudio();
      expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });
    });
  });

  test.describe('as a licensed teacher', () => {
    test.use(asLicensedTeacher);

    test('Manage Account, Manage Organization and My Uploads', async ({ page }) => {
      await onEachPage(page, TEACHER_PAGES, async (path) => expect.soft(await horizontalOverflow(page), path).toEqual({ document: 0, dialogs: [] }));
    });

    test('the Classroom Library, the Free Library with the class-code banner, and the share dialog', async ({ page }) => {
      const classroom = new ClassroomPage(page);
      await classroom.goto();
      await expect(classroom.teachersOnlyBanner).toBeVisible();
      expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });

      const catalog = new CatalogPage(page);
      await catalog.goto();
      await catalog.shell.shownClassCode();
      await catalog.waitForCards();
      expect(await horizontalOverflow(page)).toEqual({ document: 0, dialogs: [] });

      await catalog.card(PIP).click();
      const publication = new PublicationPage(page);
      await expect(publication.heading(PIP)).toBeVisible();
      await publication.shareButton.click();
      await expect(publication.shareDialog).toBeVisible();
      const overflow = await horizontalOverflow(page);
      expect(overflow.document).toBe(0);
      expect(overflow.dialogs).toEqual([{ name: expect.any(String), overflow: 0 }]);
    });
  });
});

test.describe('1.4.12 Text spacing', () => {
  /**
   * Apply the criterion's spacing to the page as it is now, and list the text it cuts off. Text that is cut off
   * before the spacing too is left out: that is a design choice the criterion does not judge (the teaser's
   * one-line excerpt, SPEC §2), not a loss the spacing causes.
   */
  async function clippedWithSpacing(page: Page) {
    const key = (c: { element: string; text: string }) => `${c.element} ${c.text}`;
    const before = new Set((await clippedText(page)).map(key));
    await page.addStyleTag({ content: TEXT_SPACING_CSS });
    // The layout settles in a frame.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    return (await clippedText(page)).filter((c) => !before.has(key(c)));
  }

  for (const { name, viewport } of VIEWPORTS) {
    test.describe(`on ${name}`, () => {
      test.use({ viewport });

      test('the Free Library, a publication and sign-in', async ({ page }) => {
        const catalog = new CatalogPage(page);
        await catalog.goto();
        await catalog.waitForCards();
        expect.soft(await clippedWithSpacing(page)).toEqual([]);
        await catalog.card(PIP).click();
        await expect(new PublicationPage(page).heading(PIP)).toBeVisible();
        expect.soft(await clippedWithSpacing(page)).toEqual([]);
        await new AuthPage(page, 'sign-in').goto();
        expect.soft(await clippedWithSpacing(page)).toEqual([]);
      });

      test('the select-passage, teaser, sign-up, terms and not-found pages', async ({ page }) => {
        await onEachPage(page, VISITOR_PAGES, async (path) => expect.soft(await clippedWithSpacing(page), path).toEqual([]));
      });

      test.describe('as a licensed reader', () => {
        test.use(asLicensedReader);

        test('the reader with the player, and the listen page', async ({ page }) => {
          const reader = await openReader(page);
          await openPlayer(reader);
          await page.mouse.move(10, 200);
          expect.soft(await clippedWithSpacing(page)).toEqual([]);
          const listen = new ListenPage(page);
          await listen.goto('the-fox-who-counted-stars', 'v1', 'en-GOLD', 3);
          await listen.waitForAudio();
          expect.soft(await clippedWithSpacing(page)).toEqual([]);
        });
      });

      test.describe('as a licensed teacher', () => {
        test.use(asLicensedTeacher);

        test('Manage Account, Manage Organization and My Uploads', async ({ page }) => {
          await onEachPage(page, TEACHER_PAGES, async (path) => expect.soft(await clippedWithSpacing(page), path).toEqual([]));
        });

        test('the Free Library with the class-code banner, the Classroom Library and the share dialog', async ({ page }) => {
          const catalog = new CatalogPage(page);
          await catalog.goto();
          await catalog.shell.shownClassCode();
          await catalog.waitForCards();
          expect.soft(await clippedWithSpacing(page)).toEqual([]);
          const classroom = new ClassroomPage(page);
          await classroom.goto();
          await expect(classroom.teachersOnlyBanner).toBeVisible();
          expect.soft(await clippedWithSpacing(page)).toEqual([]);
          await catalog.goto();
          await catalog.card(PIP).click();
          const publication = new PublicationPage(page);
          await expect(publication.heading(PIP)).toBeVisible();
          await publication.shareButton.click();
          await expect(publication.shareDialog).toBeVisible();
          expect.soft(await clippedWithSpacing(page)).toEqual([]);
        });
      });
    });
  }
});
