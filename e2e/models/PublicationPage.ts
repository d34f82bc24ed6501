import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** The publication detail page (SPEC §2 Publication detail). */
export class PublicationPage {
  readonly shell: AppShell;
  readonly backLink: Locator;
  readonly readOnlineLink: Locator;
  readonly tabs: Locator;
  readonly overviewTab: Locator;
  readonly readingLevelsTab: Locator;
  readonly overviewPanel: Locator;
  readonly readingLevelsPanel: Locator;
  readonly levelChips: Locator;
  readonly classroomSettingsTab: Locator;
  readonly classroomSettingsPanel: Locator;
  readonly visibilitySwitch: Locator;
  readonly visibleBadge: Locator;
  readonly hideButton: Locator;
  readonly showButton: Locator;
  readonly shareButton: Locator;
  readonly shareDialog: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.backLink = page.getByRole('link', { name: 'Back to Library' });
    this.readOnlineLink = page.getByRole('link', { name: 'Read Online' });
    this.tabs = page.getByRole('tablist');
    this.overviewTab = page.getByRole('tab', { name: 'Overview' });
    this.readingLevelsTab = page.getByRole('tab', { name: 'Reading Levels' });
    this.overviewPanel = page.getByRole('tabpanel', { name: 'Overview' });
    this.readingLevelsPanel = page.getByRole('tabpanel', { name: 'Reading Levels' });
    this.levelChips = page.getByRole('list', { name: 'Available Reading Levels' }).getByRole('listitem');
    this.classroomSettingsTab = page.getByRole('tab', { name: 'Classroom Settings' });
    this.classroomSettingsPanel = page.getByRole('tabpanel', { name: 'Classroom Settings' });
    this.visibilitySwitch = this.classroomSettingsPanel.getByRole('switch', { name: 'Visible to Students' });
    this.visibleBadge = page.getByRole('article').locator('header').getByText('Visible to Students', { exact: true });
    this.hideButton = page.getByRole('button', { name: 'Hide from Students' });
    this.showButton = page.getByRole('button', { name: 'Show to Students' });
    this.shareButton = page.getByRole('button', { name: 'Share with Students' });
    this.shareDialog = page.getByRole('dialog', { name: 'Share with Students' });
  }

  async openClassroomSettings() {
    await this.classroomSettingsTab.click();
    await expect(this.classroomSettingsPanel).toBeVisible();
  }

  async goto(path: string) {
    await this.page.goto(path);
  }

  heading(title: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: title });
  }

  section(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  async openReadingLevels() {
    await this.readingLevelsTab.click();
    await expect(this.readingLevelsTab).toHaveAttribute('aria-selected', 'true');
    await expect(this.readingLevelsPanel).toBeVisible();
  }

  /** The body rows of every reading-levels table. */
  levelRows(): Locator {
    return this.readingLevelsPanel.getByRole('table').getByRole('row').filter({ has: this.page.getByRole('cell') });
  }
}
