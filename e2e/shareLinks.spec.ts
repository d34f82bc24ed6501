/**
 * Share to Google Classroom and Microsoft Teams: a teacher with a class code finds 'Share to Google
 * Classroom' and 'Share to Microsoft Teams' on a title's page (posting its reader address) and in 'Share with
 * Students' (posting the magic link); each opens the service's share address in a new tab. The machine has no
 * internet: the two services' addresses are answered by a stand-in page (context.route), so the tabs open without
 * leaving it. A visitor and a reader who is not a teacher see no share links.
 */
import { expect, request, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { uniqueEmail } from './models/AccountPages';
import { PublicationPage } from './models/PublicationPage';
import { ShareToClassLinks } from './models/ShareToClassLinks';
import { admin } from './support/admin';
import { asLicensedReader, type StorageState } from './support/licensed';

const BEES = 'How Bees Make Honey';
const BEES_PAGE = '/how-bees-make-honey/v1';
const CLASSROOM_SHARE = 'https://classroom.google.com/share';
const TEAMS_SHARE = 'https://teams.microsoft.com/share';

/** A signed-in TEACHER whose school's license has GROUP_CODES (so a class code), made through the API and the CLI. */
async function classroomTeacher(baseURL: string): Promise<StorageState> {
  const email = uniqueEmail('share-teacher');
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  try {
    const signUp = await api.post('/api/v1/auth/sign-up/email', { data: { email, password: 'amber-willow-lantern', name: 'Sasha Share' } });
    expect(signUp.ok(), await signUp.text()).toBe(true);
    const role = await api.patch('/api/v1/users/me/role', { data: { role: 'TEACHER' } });
    expect(role.ok(), await role.text()).toBe(true);
    const slug = `share-school-${Date.now()}`;
    await admin('org', 'create', 'Share School', '--slug', slug);
    await admin('user', 'org-admin', email, slug);
    await admin('license', 'grant', slug, 'GROUP_CODES,LEVELS');
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/** Answer the share services' addresses with a stand-in page: no request leaves the machine. */
async function standInShareServices(context: BrowserContext) {
  await context.route(/^https:\/\/(classroom\.google\.com|teams\.microsoft\.com)\//, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Share stand-in</title>' }),
  );
}

/** Click a share link and return the address its new tab opened. */
async function openedAddress(page: Page, link: Locator): Promise<URL> {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await tab.waitForLoadState('domcontentloaded');
  const address = new URL(tab.url());
  await tab.close();
  return address;
}

test('a teacher shares a title and the magic link to Google Classroom and Microsoft Teams', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ storageState: await classroomTeacher(baseURL!) });
  await standInShareServices(context);
  const page = await context.newPage();
  try {
    const publication = new PublicationPage(page);
    await publication.goto(BEES_PAGE);
    await expect(publication.heading(BEES)).toBeVisible();
    const code = await publication.shell.shownClassCode();
    const origin = new URL(page.url()).origin;

    // The title's page: its reader address, with the title as Teams' message.
    const readerLink = `${origin}${BEES_PAGE}/read`;
    const onPage = new ShareToClassLinks(page.getByRole('article'));
    await expect(onPage.classroom).toBeVisible();
    await expect(onPage.teams).toBeVisible();
    await onPage.expectNewTabLinks();
    expect(await onPage.classroomAddress()).toEqual({ service: CLASSROOM_SHARE, link: readerLink, message: null });
    expect(await onPage.teamsAddress()).toEqual({ service: TEAMS_SHARE, link: readerLink, message: BEES });
    const teamsTab = await openedAddress(page, onPage.teams);
    expect(`${teamsTab.origin}${teamsTab.pathname}`).toBe(TEAMS_SHARE);
    expect(teamsTab.searchParams.get('href')).toBe(readerLink);

    // 'Share with Students': the magic link it shows.
    await publication.shareButton.click();
    await expect(publication.shareDialog).toBeVisible();
    const magicLink = `${origin}/classroom-catalog?groupCode=${code}`;
    await expect(publication.shareDialog.getByLabel('Magic link')).toHaveText(magicLink);
    const inDialog = new ShareToClassLinks(publication.shareDialog);
    await expect(inDialog.classroom).toBeVisible();
    await inDialog.expectNewTabLinks();
    expect(await inDialog.classroomAddress()).toEqual({ service: CLASSROOM_SHARE, link: magicLink, message: null });
    expect(await inDialog.teamsAddress()).toEqual({ service: TEAMS_SHARE, link: magicLink, message: null });
    const classroomTab = await openedAddress(page, inDialog.classroom);
    expect(`${classroomTab.origin}${classroomTab.pathname}`).toBe(CLASSROOM_SHARE);
    expect(classroomTab.searchParams.get('url')).toBe(magicLink);
    await publication.shareDialog.getByRole('button', { name: 'Close' }).click();
    await expect(publication.shareDialog).toBeHidden();

    // The shared reader address opens the title in the reader.
    await page.goto(readerLink);
    await expect(page).toHaveURL(/\/how-bees-make-honey\/v1\/[a-z]{2}:[a-z]+/);
  } finally {
    await context.close();
  }
});

test('a visitor sees no share links on a title page', async ({ page }) => {
  const publication = new PublicationPage(page);
  await publication.goto(BEES_PAGE);
  await expect(publication.heading(BEES)).toBeVisible();
  await expect(publication.readOnlineLink).toBeVisible();
  await page.waitForLoadState('networkidle');
  const links = new ShareToClassLinks(page);
  await expect(links.classroom).toHaveCount(0);
  await expect(links.teams).toHaveCount(0);
  await expect(publication.shareButton).toHaveCount(0);
});

test.describe('a signed-in reader who is not a teacher', () => {
  test.use(asLicensedReader);

  test('sees no share links on a title page, even with GROUP_CODES', async ({ page }) => {
    const publication = new PublicationPage(page);
    await publication.goto(BEES_PAGE);
    await expect(publication.heading(BEES)).toBeVisible();
    await expect(publication.readOnlineLink).toBeVisible();
    await page.waitForLoadState('networkidle');
    const links = new ShareToClassLinks(page);
    await expect(links.classroom).toHaveCount(0);
    await expect(links.teams).toHaveCount(0);
  });
});
