/**
 * Manage Organization in the browser: an organization admin invites by link (also mailed), copies
 * the link, and a second browser signs up through it, confirms its address from the mailed link and
 * accepts; the new member shows in the members list and holds the license's features. Also: cancelling an invitation, removing a member, and axe on both pages.
 * The school, its admin and its license are made with the operator's CLI, as in accounts.spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { expect, test, type Page } from '@playwright/test';
import { AcceptInvitationPage, AuthPage, ManageOrganizationPage, RoleModal, uniqueEmail } from './models/AccountPages';
import { linkMailedTo, mailCountTo } from './support/outbox';

const PASSWORD = 'copper-meadow-lantern';

/** `npm run admin -- …` against the e2e server's data dir (through its admin socket). */
function admin(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'server/bin/admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '.data-e2e', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

async function signUp(page: Page, name: string, email: string, redirectUrl?: string) {
  const signUpPage = new AuthPage(page, 'sign-up');
  if (redirectUrl !== undefined) await signUpPage.goto(redirectUrl);
  await expect(signUpPage.heading).toBeVisible();
  await signUpPage.submit({ name, email, password: PASSWORD });
  const modal = new RoleModal(page);
  await modal.readerButton.click();
  await expect(modal.dialog).toBeHidden();
}

async function seriousViolations(page: Page) {
  // React Aria's live announcer keeps, for a few seconds, what it said about a pending button (a role=img labelled
  // by that button), even once the page that had the button is gone: not part of this page.
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .exclude('[data-live-announcer]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** A school with a license, and `page` signed in as its admin on Manage Organization. */
async function schoolAdmin(page: Page) {
  const email = uniqueEmail('orgadmin');
  await signUp(page, 'Olga Admin', email, '/catalog');
  const slug = `e2e-invite-${Date.now()}`;
  const name = `Invite School ${slug.slice(-6)}`;
  admin('org', 'create', name, '--slug', slug);
  admin('user', 'org-admin', email, slug);
  admin('license', 'grant', slug, 'AUDIO,LEVELS');
  const manage = new ManageOrganizationPage(page);
  await manage.goto();
  return { email, name, manage, school: manage.organization(name) };
}

test('an admin invites by link; the invitee signs up through it, accepts, and shows in the members list', async ({ page, browser, context }) => {
  // Two accounts, and the outbox read through the admin CLI (seconds per look on a busy 2-core machine).
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email: adminEmail, name, school } = await schoolAdmin(page);
  await expect(school.memberRow(adminEmail)).toContainText('Olga Admin');
  await expect(school.memberRow(adminEmail)).toContainText('Admin');
  // No Remove for oneself.
  await expect(school.memberRow(adminEmail).getByRole('button', { name: /Remove/ })).toHaveCount(0);
  await expect(school.noPendingInvitations).toBeVisible();

  // A bad email is caught in the form.
  await school.inviteEmail.fill('not-an-email');
  await school.createLinkButton.click();
  await expect(school.inviteEmail).toHaveAttribute('aria-invalid', 'true');

  const inviteeEmail = uniqueEmail('invitee');
  await school.inviteEmail.fill(inviteeEmail);
  await expect(school.inviteRole('Member')).toBeChecked();
  await school.createLinkButton.click();
  await expect(school.region.getByText(`Invitation created for ${inviteeEmail}.`, { exact: false })).toBeVisible();
  const link = await school.inviteLink.inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/accept-invitation\/[^/]+$/);

  await school.copyInviteLinkButton.click();
  await expect(school.copyInviteLinkButton).toHaveText('Copied!');
  await expect(school.region.getByRole('status').filter({ hasText: 'Invite link copied to clipboard!' })).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(school.pendingInvitations.getByRole('listitem')).toHaveCount(1);
  await expect(school.pendingInvitations).toContainText(inviteeEmail);

  expect(await seriousViolations(page)).toEqual([]);

  // The invitee, in another browser: signed out, the page sends them to sign up and back.
  const other = await browser.newContext();
  try {
    const invitee = await other.newPage();
    await invitee.goto(link);
    const accept = new AcceptInvitationPage(invitee);
    await expect(accept.heading).toBeVisible();
    await expect(invitee).toHaveTitle('Accept Invitation | Lectern');
    const path = new URL(link).pathname;
    await expect(accept.signUpLink).toHaveAttribute('href', `/sign-up?redirectUrl=${encodeURIComponent(path)}`);
    expect(await seriousViolations(invitee)).toEqual([]);
    await accept.signUpLink.click();
    await signUp(invitee, 'Ivy Invitee', inviteeEmail);
    await expect(invitee).toHaveURL(link);
    await expect(invitee.getByText(`You have been invited to join ${name} as a member.`)).toBeVisible();
    // Pending until the address is proven: no Accept, no features, and a confirmation link in the mail.
    await expect(accept.confirmAddress).toContainText(inviteeEmail);
    await expect(accept.acceptButton).toHaveCount(0);
    expect((await (await invitee.request.get('/api/v1/features/me')).json()).features).toEqual([]);
    const subject = `Confirm your email to join ${name}`;
    await linkMailedTo(inviteeEmail, subject);
    await accept.sendNewLinkButton.click();
    await expect(invitee.getByRole('status').filter({ hasText: `We sent a new link to ${inviteeEmail}.` })).toBeVisible();
    expect(await seriousViolations(invitee)).toEqual([]);
    if (process.env.E2E_SCREENSHOTS) await invitee.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/invitation-confirm-address.png`, fullPage: true });
    await expect.poll(() => mailCountTo(inviteeEmail, subject), { timeout: 60_000 }).toBe(2);
    await invitee.goto(await linkMailedTo(inviteeEmail, subject));
    await expect(invitee).toHaveURL(link);
    await accept.acceptButton.click();
    await expect(invitee.getByRole('status').filter({ hasText: `You have joined ${name}.` })).toBeVisible();
    const features = (await (await invitee.request.get('/api/v1/features/me')).json()).features;
    expect(features).toEqual(expect.arrayContaining(['AUDIO', 'LEVELS']));
  } finally {
    await other.close();
  }

  // Back with the admin: a member now, and no invitation pending.
  await page.reload();
  await expect(school.memberRow(inviteeEmail)).toContainText('Ivy Invitee');
  await expect(school.memberRow(inviteeEmail)).toContainText('Member');
  await expect(school.noPendingInvitations).toBeVisible();
});

test('an admin cancels an invitation, whose link then fails, and removes a member', async ({ page, browser }) => {
  // Four accounts sign up or in, each in its own browser context: over 30 s on a busy 2-core machine.
  test.slow();
  const { name, school } = await schoolAdmin(page);
  const inviteeEmail = uniqueEmail('cancelled');
  await school.inviteEmail.fill(inviteeEmail);
  await school.chooseRole('Admin');
  await school.createLinkButton.click();
  const link = await school.inviteLink.inputValue();
  await expect(school.pendingInvitations).toContainText('Admin');
  await school.pendingInvitations.getByRole('button', { name: `Cancel invitation for ${inviteeEmail}` }).click();
  await expect(school.noPendingInvitations).toBeVisible();

  const other = await browser.newContext();
  try {
    const invitee = await other.newPage();
    await signUp(invitee, 'Carl Cancelled', inviteeEmail, new URL(link).pathname);
    await expect(invitee.getByRole('alert')).toHaveText('This invitation is no longer valid: it was cancelled or accepted, or it has expired.');
    await expect(new AcceptInvitationPage(invitee).acceptButton).toHaveCount(0);
  } finally {
    await other.close();
  }

  // An existing account joins through a link (signing in this time), and the admin removes it after a confirmation.
  const memberEmail = uniqueEmail('member');
  const third = await browser.newContext();
  try {
    const memberPage = await third.newPage();
    await signUp(memberPage, 'Mona Member', memberEmail, '/catalog');
  } finally {
    await third.close();
  }
  await school.inviteEmail.fill(memberEmail);
  await school.createLinkButton.click();
  const memberLink = await school.inviteLink.inputValue();
  const fourth = await browser.newContext();
  try {
    const memberPage = await fourth.newPage();
    const signIn = new AuthPage(memberPage, 'sign-in');
    await signIn.goto(new URL(memberLink).pathname);
    await signIn.submit({ email: memberEmail, password: PASSWORD });
    // Signing in through the invitation mails a confirmation link; opening it comes back to accept.
    await expect(new AcceptInvitationPage(memberPage).confirmAddress).toBeVisible();
    await memberPage.goto(await linkMailedTo(memberEmail, `Confirm your email to join ${name}`));
    await expect(memberPage).toHaveURL(memberLink);
    await new AcceptInvitationPage(memberPage).acceptButton.click();
    await expect(memberPage.getByText(`You have joined ${name}.`)).toBeVisible();
  } finally {
    await fourth.close();
  }
  await page.reload();
  const row = school.memberRow(memberEmail);
  await row.getByRole('button', { name: 'Remove Mona Member' }).click();
  await row.getByRole('button', { name: 'Confirm Remove' }).click();
  await expect(school.memberRow(memberEmail)).toHaveCount(0);
});
