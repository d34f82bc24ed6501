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

  /** The passage shown, by its number. */
  passage(position: number): Locator {
    return this.page.getByRole('region', { name: `Passage ${position}` });
  }

  /** 'Passage {n} of {count}' in the player. */
  counter(position: number, count: number): Locator {
    return this.player.getByText(`Passage ${position} of ${count}`);
  }
}
