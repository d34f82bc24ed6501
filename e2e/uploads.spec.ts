/**
 * Uploads in the browser: a teacher licensed through the admin CLI (while the server runs) sees
 * 'My Uploads' in the navbar, uploads a text, gets the server's error for a bad file, reads the upload in the
 * reader with narration, and the upload stays private (an anonymous visitor gets 404). axe on the page.
 * Documents in: a Word document uploaded through the page is read in the reader, with the note on its pictures;
 * a scanned PDF and a file that lies about its type get the server's messages.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { admin } from './support/admin';
import { AppShell } from './models/AppShell';
import { AuthPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { UploadsPage } from './models/UploadsPage';
import { docx, imageOnlyPdf, textPdf } from '../tests/server/documentFixtures';

const PASSWORD = 'copper-meadow-lantern';
const STORY = [
  'Owls hunt at night with silent wings. Their soft feathers break up the air, so mice and voles do not hear them coming.',
  'An owl can turn its head a long way round, because its eyes cannot move in their sockets.',
  '## Morning',
  'When morning comes, the owls fly home to a hollow tree and sleep through the bright day.',
].join('\n\n');

/** Sign up as a teacher and license their new school for USER_UPLOAD through the admin CLI. */
async function licensedTeacher(page: Page): Promise<string> {
  const email = uniqueEmail('uploader');
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto();
  await signUp.submit({ name: 'Uma Uploader', email, password: PASSWORD });
  const modal = new RoleModal(page);
  await modal.teacherButton.click();
  await expect(modal.dialog).toBeHidden();
  const slug = `upload-school-${Date.now()}`;
  await admin('org', 'create', 'Upload School', '--slug', slug);
  await admin('user', 'org-admin', email, slug);
  await admin('license', 'grant', slug, 'USER_UPLOAD,GROUP_CODES,AUDIO');
  return email;
}

test('a licensed teacher uploads a text, reads it narrated, and it stays private', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await licensedTeacher(page);
  await page.goto('/catalog');
  const shell = new AppShell(page);
  const link = shell.mainNav.getByRole('link', { name: 'My Uploads' });
  await expect(link).toHaveAttribute('href', '/uploads');
  await link.click();

  const uploads = new UploadsPage(page);
  await expect(uploads.heading).toBeVisible();
  await expect(page).toHaveTitle('My Uploads | Lectern');
  await expect(uploads.list.getByText('No uploads yet.')).toBeVisible();

  // A bad file: the server's message is shown.
  await uploads.upload('empty.txt', '');
  await expect(uploads.error).toContainText('The file is empty: it has no text to read.');

  await uploads.upload('owls.md', STORY, 'Night Owls');
  await expect(uploads.success).toContainText('Uploaded “Night Owls”: 2 passages.');
  await expect(uploads.readLink('Night Owls')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Narration answers for the upload's first passage (made on request).
  const list = await (await page.request.get('/api/v1/uploads')).json();
  const { editionId, slug, readerUrl } = list.items[0];
  await expect
    .poll(async () => (await page.request.get(`/api/v1/passages/audioOnly?editionId=${editionId}&position=1`)).status(), { timeout: 60_000 })
    .toBe(200);

  await uploads.readLink('Night Owls').click();
  await expect(page).toHaveURL(new RegExp(`${readerUrl}$`));
  await expect(page.getByText('Owls hunt at night with silent wings.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Listen' }).first()).toBeVisible();

  // Private: an anonymous visitor gets 404 for the publication and its passages, and it is not in the catalog.
  const anonymous = await browser.newContext();
  const anon = await anonymous.newPage();
  expect((await anon.request.get(`/api/v1/publications/${slug}`)).status()).toBe(404);
  expect((await anon.request.get(`/api/v1/passages?editionId=${editionId}&position=1`)).status()).toBe(404);
  const catalog = await (await anon.request.get('/api/v1/publications?pageSize=100')).json();
  expect(catalog.items.map((p: { slug: string }) => p.slug)).not.toContain(slug);
  await anonymous.close();

  // Delete it.
  await page.goto('/uploads');
  page.once('dialog', (dialog) => dialog.accept());
  await uploads.deleteButton('Night Owls').click();
  await expect(uploads.list.getByText('No uploads yet.')).toBeVisible();
});

test('signed out, the page asks to sign in; a reader without USER_UPLOAD sees no link', async ({ page }) => {
  const uploads = new UploadsPage(page);
  await uploads.goto();
  await expect(page.getByText('Sign in with your teacher account to upload your own texts.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign In' }).last()).toHaveAttribute('href', /\/sign-in\?redirectUrl=%2Fuploads/);
  await expect(new AppShell(page).mainNav.getByRole('link', { name: 'My Uploads' })).toHaveCount(0);
});

test('a teacher uploads a Word document through the page and reads its first passage', async ({ page }) => {
  test.setTimeout(120_000);
  await licensedTeacher(page);
  const uploads = new UploadsPage(page);
  await uploads.goto();
  await expect(uploads.heading).toBeVisible();
  // The page says which formats it takes, and the file chooser offers them.
  await expect(page.getByText(/A Word document \(\.docx\), EPUB \(\.epub\) or PDF with text \(\.pdf\)/)).toBeVisible();
  const accept = (await uploads.fileInput.getAttribute('accept')) ?? '';
  for (const format of ['.docx', '.epub', '.pdf', '.txt', '.md']) expect(accept.split(',')).toContain(format);

  const lesson = docx([
    { heading: 2, text: 'The Lighthouse' },
    { text: 'The keeper climbed the stairs at dusk and lit the great lamp.' },
    { picture: true },
    { text: 'All night the beam turned over the dark water.' },
  ]);
  await uploads.upload('lighthouse.docx', lesson, 'The Lighthouse Keeper');
  await expect(uploads.success).toContainText('Uploaded “The Lighthouse Keeper”: 1 passage.');
  await expect(page.getByRole('list', { name: 'Notes on the upload' })).toContainText('1 picture was left out: uploads keep the text only.');

  await uploads.readLink('The Lighthouse Keeper').click();
  await expect(page.getByText('The keeper climbed the stairs at dusk and lit the great lamp.')).toBeVisible();
  await expect(page.getByText('All night the beam turned over the dark water.')).toBeVisible();
});

test('a scanned PDF and a file that lies about its type get the messages of the server', async ({ page }) => {
  await licensedTeacher(page);
  const uploads = new UploadsPage(page);
  await uploads.goto();
  await uploads.upload('scan.pdf', imageOnlyPdf());
  await expect(uploads.error).toContainText('This PDF has no text to read: it looks scanned');

  await uploads.upload('worksheet.docx', textPdf([[{ text: 'A worksheet.' }]]));
  await expect(uploads.error).toContainText('“worksheet.docx” is named as a Word document (.docx), but it is a PDF.');
  await expect(uploads.list.getByText('No uploads yet.')).toBeVisible();
});

/** Serious and critical axe findings on this page (signed in, so the account menu shows the user's initials). */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
