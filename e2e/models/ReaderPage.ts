import { expect, type Locator, type Page } from '@playwright/test';

/** One passage column of the reader (SPEC §2 Reader screen, each passage column). */
export class ReaderColumn {
  readonly languageButton: Locator;
  readonly levelButton: Locator;
  readonly listenButton: Locator;
  /** The passage itself: it carries lang and dir. */
  readonly passage: Locator;
  readonly passageNumber: Locator;
  readonly text: Locator;
  readonly image: Locator;

  constructor(
    readonly page: Page,
    readonly region: Locator,
  ) {
    this.languageButton = region.getByRole('button', { name: /language/i });
    this.levelButton = region.getByRole('button', { name: /reading level/i });
    this.listenButton = region.getByRole('button', { name: 'Listen' });
    this.passage = region.getByRole('article');
    this.passageNumber = this.passage.getByTestId('passage-number');
    this.text = this.passage.locator('.passage-text');
    this.image = this.passage.getByRole('img');
  }

  /** The section header, 'part // section'. */
  sectionHeader(text: string): Locator {
    return this.passage.getByText(text, { exact: true });
  }

  async openLanguages(): Promise<Locator> {
    await this.languageButton.click();
    const listbox = this.page.getByRole('listbox', { name: 'Languages' });
    await expect(listbox).toBeVisible();
    return listbox;
  }

  get languageSearch(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search languages' });
  }

  /** Pick a language by its name, optionally after typing a search. */
  async chooseLanguage(name: string, search?: string) {
    const listbox = await this.openLanguages();
    if (search !== undefined) await this.languageSearch.fill(search);
    await listbox.getByRole('group', { name: 'all languages' }).getByRole('option', { name: new RegExp(`^${name}`, 'i') }).click();
    await expect(listbox).toBeHidden();
  }

  async chooseLevel(label: string) {
    await this.levelButton.click();
    const listbox = this.page.getByRole('listbox', { name: 'Reading levels' });
    await expect(listbox).toBeVisible();
    await listbox.getByRole('option', { name: label }).click();
    await expect(listbox).toBeHidden();
  }
}

/** The reader screen (SPEC §2 Reader screen). */
export class ReaderPage {
  readonly aboutLink: Locator;
  readonly heading: Locator;
  readonly toolbar: Locator;
  readonly shortcutButton: Locator;
  readonly decodeButton: Locator;
  readonly textSizeButton: Locator;
  readonly columnsButton: Locator;
  readonly rulerButton: Locator;
  /** Word mode's toggle (docs/reading-aids.md "Tap a word"). */
  readonly wordsButton: Locator;
  readonly controlsMenuButton: Locator;
  readonly passages: Locator;
  readonly previousButton: Locator;
  readonly nextButton: Locator;
  readonly pageInput: Locator;
  readonly audioPlayer: Locator;
  readonly playButton: Locator;
  readonly pauseButton: Locator;
  readonly audioStatus: Locator;
  readonly currentClock: Locator;
  readonly durationClock: Locator;
  readonly seekSlider: Locator;
  readonly speedButton: Locator;
  readonly closePlayerButton: Locator;
  readonly decodeLegend: Locator;
  readonly primary: ReaderColumn;
  readonly secondary: ReaderColumn;

  constructor(readonly page: Page) {
    this.aboutLink = page.getByRole('link', { name: 'About this book' });
    this.heading = page.getByRole('banner').getByRole('heading', { level: 1 });
    this.toolbar = page.getByRole('group', { name: 'Reader tools' });
    this.shortcutButton = this.toolbar.getByRole('button', { name: /Go to section/ });
    this.decodeButton = this.toolbar.getByRole('button', { name: 'Decode' });
    this.textSizeButton = this.toolbar.getByRole('button', { name: /Text size/ });
    this.columnsButton = this.toolbar.getByRole('button', { name: /Columns$/ });
    this.rulerButton = this.toolbar.getByRole('button', { name: /Reading ruler/ });
    this.wordsButton = this.toolbar.getByRole('button', { name: 'Words', exact: true });
    this.controlsMenuButton = this.toolbar.getByRole('button', { name: 'Reader controls menu' });
    this.passages = page.getByRole('navigation', { name: 'Passages' });
    this.previousButton = this.passages.getByRole('button', { name: 'Previous passage' });
    this.nextButton = this.passages.getByRole('button', { name: 'Next passage' });
    this.pageInput = this.passages.getByRole('textbox', { name: 'Page' });
    this.audioPlayer = this.passages.getByRole('group', { name: 'Audio player' });
    this.playButton = this.audioPlayer.getByRole('button', { name: 'Play', exact: true });
    this.pauseButton = this.audioPlayer.getByRole('button', { name: 'Pause', exact: true });
    this.audioStatus = this.audioPlayer.getByRole('status');
    this.currentClock = this.audioPlayer.getByTestId('audio-current');
    this.durationClock = this.audioPlayer.getByTestId('audio-duration');
    this.seekSlider = this.audioPlayer.getByRole('slider', { name: 'Seek' });
    this.speedButton = this.audioPlayer.getByRole('button', { name: /Playback speed/ });
    this.closePlayerButton = this.audioPlayer.getByRole('button', { name: 'Close audio player' });
    this.decodeLegend = page.getByRole('complementary', { name: 'Decode legend' });
    this.primary = new ReaderColumn(page, page.getByRole('region', { name: /^(Passage|Left) column$/ }));
    this.secondary = new ReaderColumn(page, page.getByRole('region', { name: 'Right column' }));
  }

  async goto(path: string) {
    await this.page.goto(path);
  }

  /** The passage at this position (in any column). */
  passage(position: number): Locator {
    return this.page.getByRole('article', { name: new RegExp(`^Passage ${position},`) });
  }

  /** Wait until the primary column shows this position and return its text. */
  async expectPosition(position: number): Promise<string> {
    await expect(this.primary.passageNumber).toHaveText(String(position));
    await expect(this.primary.passage).toHaveAccessibleName(new RegExp(`^Passage ${position},`));
    return ((await this.primary.text.textContent()) ?? '').trim();
  }

  /** Move the pointer so the auto-hiding toolbar shows, then pick from a toolbar dropdown. */
  async chooseFromToolbar(button: Locator, option: string) {
    await this.page.mouse.move(10, 200);
    await button.click();
    const listbox = this.page.getByRole('listbox');
    await expect(listbox).toBeVisible();
    await listbox.getByRole('option', { name: option, exact: true }).click();
    await expect(listbox).toBeHidden();
  }

  /** Open the toolbar's text menu and pick one option of one of its groups (Text size, Font, Spacing, Page tint). */
  async chooseTextSetting(group: string, option: string) {
    await this.page.mouse.move(10, 200);
    await this.textSizeButton.click();
    const dialog = this.page.getByRole('dialog', { name: 'Text settings' });
    await expect(dialog).toBeVisible();
    const radios = dialog.getByRole('radiogroup', { name: group });
    await radios.getByText(option, { exact: true }).click();
    await expect(radios.getByRole('radio', { name: option, exact: true })).toBeChecked();
    await this.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  async chooseSection(name: string) {
    await this.page.mouse.move(10, 200);
    await this.shortcutButton.click();
    const listbox = this.page.getByRole('listbox', { name: 'Sections' });
    await expect(listbox).toBeVisible();
    await listbox.getByRole('option', { name: new RegExp(`^${name}`) }).click();
    await expect(listbox).toBeHidden();
  }

  /** Move the pointer onto a control the way a hand does (from beside it, in steps), for its tooltip. */
  /**
   * Points the mouse at a control, as a person does, and waits for its tooltip to say `text`.
   * The pointer comes from outside the control each try: if the page moved the control
   * between measuring it and arriving (a passage settling, the toolbar showing), the next
   * try points again instead of waiting on a hover that never happened.
   */
  async expectTooltip(control: Locator, text: string) {
    await expect(async () => {
      await this.page.mouse.move(1, 1);
      await expect(this.page.getByRole('tooltip')).toHaveCount(0, { timeout: 2_000 });
      await control.hover();
      await expect(this.page.getByRole('tooltip')).toHaveText(text, { timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
  }

  async chooseSpeed(label: string) {
    await this.speedButton.click();
    const listbox = this.page.getByRole('listbox', { name: 'Playback speeds' });
    await expect(listbox).toBeVisible();
    await listbox.getByRole('option', { name: label, exact: true }).click();
    await expect(listbox).toBeHidden();
  }

  /** The spoken word the primary column highlights now: its mark index, and the text of the CSS highlight ranges. */
  async highlighted(column: ReaderColumn = this.primary): Promise<{ index: number | null; word: string[]; sentence: string[] }> {
    return column.text.evaluate((el: HTMLElement) => {
      const text = (name: string) => [...((CSS.highlights.get(name) as Set<Range> | undefined) ?? [])].map((r) => r.toString());
      const index = el.dataset.highlightWord;
      return { index: index === undefined ? null : Number(index), word: text('lectern-word'), sentence: text('lectern-sentence') };
    });
  }

  /** Seconds shown by a clock 'mm:ss'. */
  async clockSeconds(clock: Locator): Promise<number> {
    const [mm, ss] = ((await clock.textContent()) ?? '00:00').split(':').map(Number);
    return mm * 60 + ss;
  }

  /** Press an arrow key with focus on the page itself (not in a field or a menu). */
  async pressArrow(key: 'ArrowLeft' | 'ArrowRight') {
    await this.page.locator('main').focus();
    await this.page.keyboard.press(key);
  }
}
