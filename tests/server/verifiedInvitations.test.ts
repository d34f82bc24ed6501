/**
 * Verified invitations on a real server that sends real mail to an in-process SMTP server:
 * accepting needs the invited address to be proven, by a verified account or by the confirmation link mailed on
 * sign-up or sign-in through the invitation (or on request). Until then there is no membership and no feature.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { sql } from 'drizzle-orm';
import { cookiesOf, getJson, signUpUser, TEST_PASSWORD } from './harness';
import { serverWithSmtp } from './smtp';
import { createOrganization, grantLicense, makeOrgAdmin } from '../../server/accounts/service';
import { EMAIL_NOT_VERIFIED_MESSAGE } from '../../server/auth/organizations';

const fixture = serverWithSmtp();

let n = 0;
const freshIp = () => `198.51.100.${(++n % 250) + 1}`;
const freshEmail = (label: string) => `verify.${label}.${Date.now()}.${n++}@example.org`;

function call(method: string, pathname: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Origin: fixture.server.url, 'X-Forwarded-For': freshIp() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return getJson(fixture.server, `/api/v1${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** A school licensed for AUDIO and DECODE, its signed-in admin, and an invitation to `email`. */
async function invitedTo(email: string) {
  const db = fixture.server.database.db;
  const org = await createOrganization(db, `Verified School ${Date.now()} ${n++}`);
  await grantLicense(db, org.slug, ['AUDIO', 'DECODE'], null);
  const admin = await signUpUser(fixture.server, { name: 'Ada Admin', ip: freshIp() });
  await makeOrgAdmin(db, admin.email, org.slug);
  const created = await call('POST', '/auth/organization/invite-member', { email, role: 'member', organizationId: org.id }, admin.cookie);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { org, admin, invitationId: created.body.id as string };
}

/** The confirmation mail to `to` (not the invitation itself), and the link it carries. */
async function confirmationMail(to: string, school: string): Promise<{ mail: ParsedMail; link: string }> {
  const subject = `Confirm your email to join ${school}`;
  await expect.poll(() => fixture.smtp.received.filter((m) => m.subject === subject && (m.to as { text: string } | undefined)?.text.includes(to)).length).toBeGreaterThan(0);
  const mail = fixture.smtp.received.filter((m) => m.subject === subject && (m.to as { text: string } | undefined)?.text.includes(to)).at(-1)!;
  const link = /(http\S+\/api\/v1\/auth\/verify-email\?token=\S+)/.exec(mail.text ?? '')?.[1];
  expect(link, mail.text).toBeDefined();
  return { mail, link: link! };
}

const confirmationsTo = (to: string) => fixture.smtp.received.filter((m) => m.subject?.startsWith('Confirm your email to join') && (m.to as { text: string } | undefined)?.text.includes(to)).length;

async function accept(invitationId: string, cookie: string) {
  return call('POST', '/auth/organization/accept-invitation', { invitationId }, cookie);
}

describe('verified invitations', () => {
  it('signing up through an invitation leaves it pending until the mailed link is opened; then it can be accepted', async () => {
    const email = freshEmail('newcomer');
    const { org, admin, invitationId } = await invitedTo(email);
    const invitee = await signUpUser(fixture.server, { name: 'Ivy Invitee', email, ip: freshIp() });

    const { mail, link } = await confirmationMail(email, org.name);
    expect(mail.text).toContain('Hello Ivy Invitee,');
    expect(mail.text).toContain(`You have an invitation to join ${org.name} on Lectern. Before you can accept it, confirm that ${email} is your address.`);
    expect(mail.text).toContain('The link works for 24 hours and brings you back to the invitation.');
    expect(mail.html).toContain('Confirm my email');

    // Pending: the page can show the invitation, but accepting is refused and nothing of the school applies.
    const me = () => call('GET', '/users/me', undefined, invitee.cookie);
    expect((await me()).body).toMatchObject({ email, emailVerified: false, organizationMemberships: [], features: [] });
    expect((await call('GET', `/auth/organization/get-invitation?id=${invitationId}`, undefined, invitee.cookie)).status).toBe(200);
    const refused = await accept(invitationId, invitee.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ errors: [{ code: 'email_not_verified', message: EMAIL_NOT_VERIFIED_MESSAGE }] });
    const rejectRefused = await call('POST', '/auth/organization/reject-invitation', { invitationId }, invitee.cookie);
    expect(rejectRefused.status).toBe(403);
    expect((await call('GET', '/features/me', undefined, invitee.cookie)).body.features).toEqual([]);
    const listed = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(listed.body.find((i: { id: string }) => i.id === invitationId).status).toBe('pending');

    // An altered link comes back to the invitation with an error, and verifies nothing.
    const altered = await fetch(link.replace(/token=([^&]+)/, (_, t: string) => `token=${t.slice(0, -2)}xx`), { redirect: 'manual' });
    expect(altered.status).toBe(302);
    expect(altered.headers.get('location')).toMatch(new RegExp(`^/accept-invitation/${invitationId}\\?error=`));
    expect((await me()).body.emailVerified).toBe(false);

    // The link (opened anywhere: it needs no session) proves the address and comes back to the invitation.
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe(`/accept-invitation/${invitationId}`);
    expect(opened.headers.get('set-cookie')).toBeNull();
    expect((await me()).body.emailVerified).toBe(true);

    const accepted = await accept(invitationId, invitee.cookie);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect((await me()).body.organizationMemberships.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([org.id]);
    expect((await call('GET', '/features/me', undefined, invitee.cookie)).body.features).toEqual(expect.arrayContaining(['AUDIO', 'DECODE']));
  });

  it('signing in to an unverified account with a pending invitation mails the link; a verified account accepts at once', async () => {
    const account = await signUpUser(fixture.server, { name: 'Mona Member', ip: freshIp() });
    // No invitation yet: signing up sent no confirmation.
    const { org, invitationId } = await invitedTo(account.email);
    expect(confirmationsTo(account.email)).toBe(0);

    const signedIn = await call('POST', '/auth/sign-in/email', { email: account.email, password: TEST_PASSWORD });
    expect(signedIn.status).toBe(200);
    const cookie = cookiesOf(signedIn.headers);
    expect((await accept(invitationId, cookie)).body.errors[0].code).toBe('email_not_verified');
    const { link } = await confirmationMail(account.email, org.name);
    expect((await fetch(link, { redirect: 'manual' })).headers.get('location')).toBe(`/accept-invitation/${invitationId}`);
    expect((await accept(invitationId, cookie)).status).toBe(200);

    // Now verified: a second school's invitation needs no new mail.
    const before = confirmationsTo(account.email);
    const second = await invitedTo(account.email);
    const again = await call('POST', '/auth/sign-in/email', { email: account.email, password: TEST_PASSWORD });
    expect((await accept(second.invitationId, cookiesOf(again.headers))).status).toBe(200);
    expect(confirmationsTo(account.email)).toBe(before);
  });

  it('sends a new link on request, to the invitee only, within a limit', async () => {
    const email = freshEmail('resend');
    const { org, invitationId } = await invitedTo(email);
    const invitee = await signUpUser(fixture.server, { email, ip: freshIp() });
    await confirmationMail(email, org.name);
    const resend = (id: string, cookie?: string) => call('POST', `/invitations/${encodeURIComponent(id)}/confirmation-email`, undefined, cookie);

    expect((await resend(invitationId)).status).toBe(401);
    expect((await resend('no-such-invitation', invitee.cookie)).body.errors[0].code).toBe('invitation_not_found');
    const stranger = await signUpUser(fixture.server, { ip: freshIp() });
    const notYours = await resend(invitationId, stranger.cookie);
    expect(notYours.status).toBe(403);
    expect(notYours.body.errors[0].code).toBe('not_invitation_recipient');

    // Sign-up sent one; two more fit in the hour, the next is refused.
    for (let i = 0; i < 2; i++) {
      const sent = await resend(invitationId, invitee.cookie);
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      expect(sent.body).toEqual({ status: true, email });
      expect(sent.headers.get('cache-control')).toBe('no-store');
    }
    await expect.poll(() => confirmationsTo(email)).toBe(3);
    const limited = await resend(invitationId, invitee.cookie);
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toEqual([{ code: 'rate_limited', message: 'Too many confirmation emails. Try again in 60 minutes.' }]);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3500);

    // A verified address has nothing to confirm.
    await fixture.server.database.db.execute(sql`update "user" set email_verified = true where email = ${email}`);
    const verified = await resend(invitationId, invitee.cookie);
    expect(verified.status).toBe(409);
    expect(verified.body.errors[0].code).toBe('email_already_verified');
  });

  it('a cancelled invitation answers 404 before any confirmation', async () => {
    const email = freshEmail('cancelled');
    const { admin, invitationId } = await invitedTo(email);
    expect((await call('POST', '/auth/organization/cancel-invitation', { invitationId }, admin.cookie)).status).toBe(200);
    const invitee = await signUpUser(fixture.server, { email, ip: freshIp() });
    const res = await accept(invitationId, invitee.cookie);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].code).toBe('invitation_not_found');
    expect((await call('POST', `/invitations/${invitationId}/confirmation-email`, undefined, invitee.cookie)).status).toBe(404);
    expect(confirmationsTo(email)).toBe(0);
  });
});
