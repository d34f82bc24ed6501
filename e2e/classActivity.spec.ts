/**
 * Class activity (the teacher sees class activity after a student reads with the code):
 * - a teacher signs up, picks 'I'm a Teacher', is licensed through the admin CLI, shows a title to students, and
 *   sees the empty Class activity panel in the Classroom Library;
 * - a student opens the magic link in a fresh browser context and reads three passages of that title (the browser
 *   sends 'Viewed Passage' to POST /api/v1/events with the class code);
 * - the teacher's panel then counts them this week, lists the title among the most read (a link to its page) and
 *   has today in the per-day table, with nothing about the student; axe finds nothing serious.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { admin } from './support/admin';
import { AuthPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { AppShell } from './models/AppShell';
import { CatalogPage } from './models/CatalogPage';
import { ClassroomPage } from './models/ClassroomPage';
import { PublicationPage } from './models/PublicationPage';
import { ReaderPage } from './models/ReaderPage';

const PASSWORD = 'copper-meadow-lantern';
const BEES = 'How Bees Make Honey';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** Sign up, pick 'I'm a Teacher', and license a new school for everything. */
async function licensedTeacher(page: Page): Promise<void> {
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto();
  const email = uniqueEmail('activity-teacher');
  await signUp.submit({ name: 'Ada Activity', email, password: PASSWORD });
  const modal = new RoleModal(page);
  await expect(modal.dialog).toBeVisible();
  await modal.teacherButton.click();
  await expect(modal.dialog).toBeHidden();
  const slug = `activity-school-${Date.now()}`;
  await admin('org', 'create', 'Activity School', '--slug', slug);
  await admin('user', 'org-admin', email, slug);
  await admin('license', 'grant', slug, 'AUDIO,DECODE,GROUP_CODES,LANGUAGES,LEVELS,USER_UPLOAD');
}

test('a student reads with the class code; the teacher sees it in Class activity', async ({ page, browser }) => {
  test.setTimeout(240_000);
  await licensedTeacher(page);

  // The teacher shows a title to the class and finds the panel empty.
  const catalog = new CatalogPage(page);
  await catalog.goto();
  const code = await catalog.shell.shownClassCode();
  await catalog.waitForCards();
  const eye = catalog.eyeToggle(BEES);
  await expect(eye).toBeEnabled();
  await eye.click();
  await expect(catalog.shell.toast('Title shown to students')).toBeVisible();

  const classroom = new ClassroomPage(page);
  await classroom.goto();
  await expect(classroom.activityPanel.getByRole('heading', { name: 'Class activity' })).toBeVisible();
  await expect(classroom.activityPanel).toContainText('No reading with your class code yet.');

  // A student opens the magic link in a fresh context and reads passages 1 to 3 of the title.
  const studentContext = await browser.newContext();
  const student = await studentContext.newPage();
  await student.goto(`/classroom-catalog?groupCode=${code}`);
  await expect(new AppShell(student).toast('Class Code Accepted')).toBeVisible();
  const studentClassroom = new ClassroomPage(student);
  await expect(studentClassroom.card(BEES)).toBeVisible();
  await expect(studentClassroom.activityPanel).toHaveCount(0);
  const reader = new ReaderPage(student);
  await reader.goto('/how-bees-make-honey/v1/en:original/1');
  await reader.expectPosition(1);
  await reader.nextButton.click();
  await reader.expectPosition(2);
  await reader.nextButton.click();
  await reader.expectPosition(3);

  // The browser sends its events in batches (and by beacon as the page goes): the teacher's panel counts them once
  // they have arrived. Each look reloads the Classroom Library.
  const thisWeek = classroom.activityWeek('This week');
  await expect(async () => {
    await classroom.goto();
    await expect(thisWeek).toContainText('3 passages read', { timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  await studentContext.close();

  await expect(classroom.activityWeek('Last week')).toContainText('No passages read');
  const top = classroom.activityPanel.getByRole('link', { name: BEES });
  await expect(top).toHaveAttribute('href', '/how-bees-make-honey');
  await expect(classroom.activityPanel.getByRole('listitem').filter({ has: page.getByRole('link', { name: BEES }) })).toContainText('3 passages read');
  const table = classroom.activityPanel.getByRole('table', { name: 'Passages read per day, last 28 days' });
  await expect(table.getByRole('row').last()).toContainText('3');
  await expect(classroom.activityPanel).toContainText('3 passages read in the last 28 days');
  // Counts only: nothing in the panel names the class's reader.
  await expect(classroom.activityPanel).not.toContainText(code);
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/class-activity.png`, fullPage: true });

  // The title opens from the panel.
  await top.click();
  await expect(new PublicationPage(page).heading(BEES)).toBeVisible();
});
