import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** The listen page (SPEC §2 route table; §4 Audio control state: listen flow), /listen/{slug}/{version}/{editionSlug}/{position}. */
export class ListenPage {
  readonly shell: AppShell;
  readonly player: Locator;
  /** The player's state: 'Paused', 'Now Playing', 'Finished', 'Loading Next', 'Closed', or 'Audio not available'. */
  readonly status: Locator;
  readonly playButton: Locator;
  readonly pauseButton: Locator;
  readonly autoPlaySwitch: Locator;
  /** The clock, 'mm:ss / mm:ss' (current / length). */
  readonly clock: Locator;
  readonly seekSlider: Locator;
  readonly passages: Locator;
  readonly previousLink: Locator;
  readonly nextLink: Locator;
  readonly chooseAnotherLink: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.player = page.getByRole('region', { name: 'Listen player' });
    this.status = this.player.getByRole('status');
    this.playButton = this.player.getByRole('button', { name: 'Play' });
    this.pauseButton = this.player.getByRole('button', { name: 'Pause' });
    this.autoPlaySwitch = this.player.getByRole('switch', { name: 'Auto-play' });
    this.clock = this.player.getByRole('timer', { name: 'Audio time' });
    this.seekSlider = this.player.getByRole('slider', { name: 'Seek' });
    this.passages = page.getByRole('navigation', { name: 'Passages' });
    this.previousLink = this.passages.getByRole('link', { name: 'Previous passage' });
    this.nextLink = this.passages.getByRole('link', { name: 'Next passage' });
    this.chooseAnotherLink = page.getByRole('link', { name: 'Choose another passage' });
  }

  async goto(slug: string, version: string, editionSlug: string, position: number | string) {
    await this.page.goto(`/listen/${slug}/${version}/${editionSlug}/${position}`);
    await expect(this.player).toBeVisible();
  }

  /** Click the auto-play switch where the user sees it (its input is visually hidden under the track). */
  async toggleAutoPlay() {
    await this.player.locator('label').filter({ hasText: 'Auto-play' }).click();
  }

  /** The clock as seconds: [current, length]. */
  async clockSeconds(): Promise<[number, number]> {
    return parseClock(await this.clock.innerText());
  }

  /** Wait until the narration is loaded (the clock shows a length), then return the length in seconds. */
  async waitForAudio(): Promise<number> {
    await expect.poll(async () => (await this.clockSeconds())[1], { timeout: 15_000 }).toBeGreaterThan(0);
    return (await this.clockSeconds())[1];
  }

  /** Seek to the last whole second with the seek bar, as a keyboard user would (End). */
  async seekToEnd() {
    await expect(this.seekSlider).toBeEnabled();
    await this.seekSlider.focus();
    await this.seekSlider.press('End');
  }

  /** The passage shown, by its number. */
  passage(position: number): Locator {
    return this.page.getByRole('region', { name: `Passage ${position}` });
  }

  /** 'Passage {n} of {count}' in the player. */
  counter(position: number, count: number): Locator {
    return this.player.getByText(`Passage ${position} of ${count}`);
  }
}

/** 'mm:ss / mm:ss' → [seconds, seconds]. */
export function parseClock(text: string): [number, number] {
  const match = /^(\d{2,}):(\d{2}) \/ (\d{2,}):(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`Not a clock: '${text}'`);
  const [, m1, s1, m2, s2] = match.map(Number);
  return [m1 * 60 + s1, m2 * 60 + s2];
}
