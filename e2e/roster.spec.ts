/**
 * The staff roster on Manage Organization: an org admin uploads a OneRoster 1.2 CSV zip (the sample of
 * docs/examples/oneroster, zipped here with fflate), reviews its dry run (the counts as a sentence, a table of the
 * staff and what happens to each), applies it, and sees the staff listed with their status; a second upload of the
 * same file changes nothing. A roster with a bad email on users.csv line 3 names that line and cannot be applied.
 * The school and its admin are made with the operator's CLI, as in organization.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { AuthPage, ManageOrganizationPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { RosterSection } from './models/RosterPage';
import { admin } from './support/admin';

const PASSWORD = 'copper-meadow-lantern';
const SAMPLE = path.resolve(import.meta.dirname, '../docs/examples/oneroster');
const email = (user: string) => `${user}@hillside.example.org`;

/** The sample roster as a zip, with its CSVs changed by `edit` (file name → text). */
function rosterZip(edit: (file: string, text: string) => string = (_, text) => text): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const file of readdirSync(SAMPLE).filter((f) => f.endsWith('.csv'))) files[file] = strToU8(edit(file, readFileSync(path.join(SAMPLE, file), 'utf8')));
  return zipSync(files);
}

/** `page` signed up, made the admin of a new school with the CLI, on Manage Organization; its roster section. */
async function schoolAdmin(page: Page, label: string) {
  const signUp = new AuthPage(page, 'sign-up');
  await signUp.goto('/catalog');
  const adminEmail = uniqueEmail(`${label}admin`);
  await signUp.submit({ name: 'Rosa Admin', email: adminEmail, password: PASSWORD });
  const modal = new RoleModal(page);
  await modal.readerButton.click();
  await expect(modal.dialog).toBeHidden();
  const slug = `e2e-${label}-${Date.now()}`;
  const name = `Roster School ${slug.slice(-6)}`;
  await admin('org', 'create', name, '--slug', slug);
  await admin('user', 'org-admin', adminEmail, slug);
  await new ManageOrganizationPage(page).goto();
  const roster = new RosterSection(page, name);
  await expect(roster.heading).toBeVisible();
  return roster;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .exclude('[data-live-announcer]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

test('an org admin uploads a roster, reviews the dry run, applies it, and the staff are listed awaiting their first sign-in', async ({ page }) => {
  test.slow(); // two CLI commands and three uploads on a busy machine
  const roster = await schoolAdmin(page, 'roster');
  await expect(roster.noStaff).toBeVisible();

  await roster.upload('hillside.zip', rosterZip());
  // Five teachers and a principal; Fay Grant's account is disabled in the file; the two students' roles are skipped.
  await expect(roster.summary('5 to add, 0 to update, 0 unchanged, 1 to disable; 2 roles skipped.')).toBeVisible();
  await expect(roster.region.getByText('5 enrollments and 2 classes read; they are counted, not imported.')).toBeVisible();
  await expect(roster.dryRunTable.getByRole('row')).toHaveCount(7);
  await expect(roster.dryRunRow(email('ana.wren'))).toContainText('Ana Wren');
  await expect(roster.dryRunRow(email('ana.wren'))).toContainText('Teacher');
  await expect(roster.dryRunRow(email('ana.wren'))).toContainText('Will be added');
  await expect(roster.dryRunRow(email('eli.morgan'))).toContainText('Organization admin');
  await expect(roster.dryRunRow(email('fay.grant'))).toContainText('Will be disabled');
  await expect(roster.problems).toHaveCount(0);
  await expect(roster.applyButton).toBeEnabled();
  // The dry run changed nothing.
  await expect(roster.noStaff).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.E2E_SCREENSHOTS) await roster.region.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/roster-dry-run.png` });

  await roster.applyButton.click();
  await expect(roster.appliedMessage).toHaveText('Roster applied: 5 added, 0 updated, 0 unchanged, 1 disabled.');
  await expect(roster.dryRunTable).toHaveCount(0);
  await expect(roster.staffTable.getByRole('row')).toHaveCount(7);
  for (const user of ['ana.wren', 'ben.okafor', 'chen.li', 'dana.ruiz', 'eli.morgan']) {
    await expect(roster.staffRow(email(user))).toContainText('Awaiting first sign-in');
  }
  await expect(roster.staffRow(email('eli.morgan'))).toContainText('Organization admin');
  await expect(roster.staffRow(email('fay.grant'))).toContainText('Disabled');
  if (process.env.E2E_SCREENSHOTS) await roster.region.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/roster-applied.png` });

  // Kept: the list comes from the server.
  await page.reload();
  await expect(roster.staffRow(email('ana.wren'))).toContainText('Awaiting first sign-in');

  // The same file again changes nothing; Cancel drops its dry run.
  await roster.upload('hillside.zip', rosterZip());
  await expect(roster.summary('0 to add, 0 to update, 6 unchanged, 0 to disable; 2 roles skipped.')).toBeVisible();
  await roster.cancelButton.click();
  await expect(roster.dryRunTable).toHaveCount(0);
  await expect(roster.applyButton).toHaveCount(0);
  await expect(roster.staffTable.getByRole('row')).toHaveCount(7);
});

test('a roster with a bad email names users.csv line 3, and Apply stays disabled', async ({ page }) => {
  test.slow();
  const roster = await schoolAdmin(page, 'badroster');
  // users.csv: the header is line 1, Ana Wren line 2, Ben Okafor line 3.
  const broken = rosterZip((file, text) => (file === 'users.csv' ? text.replace(email('ben.okafor'), 'ben.okafor.hillside.example.org') : text));
  await roster.upload('broken.zip', broken);
  await expect(roster.problemsMessage).toHaveText(/^The file has 1 problem\. Nothing will change until the file is fixed and uploaded again\.$/);
  await expect(roster.problems.getByRole('listitem')).toHaveCount(1);
  await expect(roster.problems.getByRole('listitem').first()).toContainText(/^users\.csv, line 3: /);
  await expect(roster.applyButton).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  if (process.env.E2E_SCREENSHOTS) await roster.region.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/roster-problems.png` });
  await expect(roster.noStaff).toBeVisible();
});
