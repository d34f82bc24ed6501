import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';
import { parseClock } from './ListenPage';

/** The public teaser page (SPEC §2), /teaser/{slug}/{version}/{language}:{level}/{position}. */
export class TeaserPage {
  readonly shell: AppShell;
  readonly progress: Locator;
  readonly chapterButton: Locator;
  readonly chapterList: Locator;
  readonly passages: Locator;
  readonly previousButton: Locator;
  readonly nextButton: Locator;
  readonly jumpInput: Locator;
  readonly jumpButton: Locator;
  readonly audioBar: Locator;
  readonly playButton: Locator;
  readonly pauseButton: Locator;
  /** The audio bar's clock, 'mm:ss / mm:ss'. */
  readonly clock: Locator;
  readonly signInLink: Locator;
  readonly classCodeInput: Locator;
  readonly classCodeSubmit: Locator;
  readonly openInReaderLink: Locator;
  readonly notifications: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.progress = page.getByRole('progressbar');
    // React Aria's Select names its button by the chosen value and then the label 'Chapter'.
    this.chapterButton = page.getByRole('button', { name: /Chapter$/ });
    this.chapterList = page.getByRole('listbox');
    this.passages = page.getByRole('navigation', { name: 'Passages' });
    this.previousButton = this.passages.getByRole('button', { name: 'Previous passage' });
    this.nextButton = this.passages.getByRole('button', { name: 'Next passage' });
    this.jumpInput = this.passages.getByRole('textbox', { name: 'Jump to passage' });
    this.jumpButton = this.passages.getByRole('button', { name: 'Go' });
    this.audioBar = page.getByRole('region', { name: 'Audio' });
    this.playButton = this.audioBar.getByRole('button', { name: 'Play audio' });
    this.pauseButton = this.audioBar.getByRole('button', { name: 'Pause audio' });
    this.clock = this.audioBar.getByRole('timer', { name: 'Audio time' });
    this.signInLink = page.getByRole('link', { name: 'Sign In' });
    this.classCodeInput = page.getByRole('textbox', { name: 'Class Code' });
    this.classCodeSubmit = page.getByRole('button', { name: 'Submit' });
    this.openInReaderLink = page.getByRole('link', { name: 'Open in Reader' });
    this.notifications = page.getByRole('region', { name: 'Notifications' });
  }

  async goto(slug: string, version: string, edition: string, position: number | string) {
    await this.page.goto(`/teaser/${slug}/${version}/${edition}/${position}`);
    await expect(this.progress).toBeVisible();
  }

  /** The audio bar's clock as seconds: [current, length]. */
  async clockSeconds(): Promise<[number, number]> {
    return parseClock(await this.clock.innerText());
  }

  heading(title: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: title });
  }

  cover(title: string): Locator {
    return this.page.getByRole('img', { name: `Cover of ${title}` });
  }

  /** A fact from the header list: Edition, Version or Audio length. */
  fact(term: 'Edition' | 'Version' | 'Audio length'): Locator {
    return this.page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  }

  /** The one-line passage text, by passage number. */
  passage(position: number): Locator {
    return this.page.getByRole('region', { name: `Passage ${position}` }).locator('p');
  }

  percentText(percent: number): Locator {
    return this.page.getByText(`${percent}% complete`, { exact: true });
  }

  async chooseChapter(name: string) {
    await this.chapterButton.click();
    await expect(this.chapterList).toBeVisible();
    await this.chapterList.getByRole('option', { name }).click();
    await expect(this.chapterList).toBeHidden();
  }

  async jumpTo(text: string) {
    await this.jumpInput.fill(text);
    await this.jumpInput.press('Enter');
  }
}
