import { expect, type Locator, type Page } from '@playwright/test';
import { AppShell } from './AppShell';

/** The Classroom Library (SPEC §2 Classroom Library). */
export class ClassroomPage {
  readonly shell: AppShell;
  readonly heading: Locator;
  readonly searchBox: Locator;
  readonly titles: Locator;
  readonly cardLinks: Locator;
  readonly cardTitles: Locator;
  readonly teachersOnlyBanner: Locator;
  readonly noTitlesMessage: Locator;
  readonly teacherEmptyLink: Locator;
  readonly studentEmptyMessage: Locator;
  readonly classCodeForm: Locator;
  /** The teacher's 'Class activity' panel. */
  readonly activityPanel: Locator;

  constructor(readonly page: Page) {
    this.shell = new AppShell(page);
    this.heading = page.getByRole('heading', { level: 1, name: 'Classroom Library' });
    this.searchBox = page.getByRole('searchbox', { name: 'Search by title or author' });
    this.titles = page.getByRole('list', { name: 'Titles' });
    this.cardLinks = this.titles.getByRole('link');
    this.cardTitles = this.titles.getByRole('heading', { level: 2 });
    this.teachersOnlyBanner = page.getByRole('region', { name: 'Teachers Only' });
    this.noTitlesMessage = page.getByRole('heading', { name: 'No titles visible to students' });
    this.teacherEmptyLink = page.getByRole('link', { name: 'Go to Free Library to make titles visible' });
    this.studentEmptyMessage = page.getByText('Ask your teacher to add titles to the Classroom Library');
    this.classCodeForm = page.getByRole('region', { name: 'Enter Class Code' });
    this.activityPanel = page.getByRole('region', { name: 'Class activity' });
  }

  async goto(query = '') {
    await this.page.goto(`/classroom-catalog${query ? `?${query}` : ''}`);
    await expect(this.heading).toBeVisible();
  }

  count(n: number): Locator {
    return this.page.getByText(`${n} ${n === 1 ? 'title' : 'titles'} available`);
  }

  card(title: string): Locator {
    return this.cardLinks.filter({ has: this.page.getByRole('heading', { name: title, exact: true }) });
  }

  /** One week's figures in the Class activity panel: 'This week' or 'Last week'. */
  activityWeek(label: 'This week' | 'Last week'): Locator {
    return this.activityPanel.getByRole('group', { name: label });
  }

  /** A card's eye toggle (teachers): pressed means visible to students. */
  eyeToggle(title: string): Locator {
    return this.titles.getByRole('button', { name: `Visible to students: ${title}` });
  }
}
