/**
 * Manage Organization against a real server on PGlite: invitation links through better-auth's
 * organization plugin with our checks in front (server/auth/organizations.ts), members, and the organization a
 * new session starts in. Organizations, admins and licenses are made with the functions the admin CLI uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cookiesOf, getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import type { ContentType } from '../../src/domain/schemas';
import { createOrganization, grantLicense, makeOrgAdmin, setDefaultOrganization, setMembership } from '../../server/accounts/service';

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const ip = () => `203.0.113.${1 + (n % 200)}`;
const freshEmail = (label = 'user') => `invite.${label}.${Date.now()}.${n++}@example.org`;
const PASSWORD = 'violet-harbor-lantern';

function call(method: string, path: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': ip() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return getJson(server, `/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}


async function signUp(email = freshEmail(), name = 'Ada Lovelace') {
  const res = await call('POST', '/auth/sign-up/email', { email, password: PASSWORD, name });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { email, cookie: cookiesOf(res.headers), userId: res.body.user.id as string };
}

/**
 * Mark an address proven, as its confirmation link would (accepting needs it; the link itself is tested in
 * verifiedInvitations.test.ts).
 */
async function confirmAddress(email: string) {
  await server.database.db.execute(sql`update "user" set email_verified = true where lower(email) = ${email.toLowerCase()}`);
}

async function signIn(email: string) {
  const res = await call('POST', '/auth/sign-in/email', { email, password: PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return cookiesOf(res.headers);
}

let orgCount = 0;
/** A new school with a license and a signed-in admin. */
async function schoolWithAdmin(features: ContentType[] = ['AUDIO', 'DECODE']) {
  const db = server.database.db;
  const org = await createOrganization(db, `Invite School ${Date.now()} ${orgCount++}`);
  await grantLicense(db, org.slug, features, null);
  const admin = await signUp(freshEmail('admin'), 'Ada Admin');
  await makeOrgAdmin(db, admin.email, org.slug);
  return { org, admin };
}

async function invite(cookie: string, body: Record<string, unknown>) {
  return call('POST', '/auth/organization/invite-member', body, cookie);
}

const expectErrorShape = (body: any) => {
  expect(Array.isArray(body.errors)).toBe(true);
  for (const e of body.errors) {
    expect(typeof e.code).toBe('string');
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
  }
};

describe('invitations by link', () => {
  it('an admin invites, the invitee signs up and accepts, and gets the license features', async () => {
    const { org, admin } = await schoolWithAdmin(['AUDIO', 'DECODE']);
    const email = freshEmail('invitee');
    const created = await invite(admin.cookie, { email: email.toUpperCase(), role: 'member', organizationId: org.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ email, role: 'member', organizationId: org.id, status: 'pending' });
    const invitationId = created.body.id as string;
    expect(invitationId.length).toBeGreaterThanOrEqual(16);

    const pending = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(pending.status).toBe(200);
    expect(pending.body.map((i: any) => [i.id, i.status])).toEqual([[invitationId, 'pending']]);

    // The invitee opens the link: it needs a session, then shows the organization.
    expect((await call('GET', `/auth/organization/get-invitation?id=${invitationId}`)).status).toBe(401);
    const invitee = await signUp(email, 'Ivy Invitee');
    const shown = await call('GET', `/auth/organization/get-invitation?id=${invitationId}`, undefined, invitee.cookie);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toMatchObject({ organizationName: org.name, organizationSlug: org.slug, inviterEmail: admin.email, role: 'member' });

    expect((await call('GET', '/features/me', undefined, invitee.cookie)).body.features).toEqual([]);
    await confirmAddress(email);
    const accepted = await call('POST', '/auth/organization/accept-invitation', { invitationId }, invitee.cookie);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const me = await call('GET', '/users/me', undefined, invitee.cookie);
    expect(me.body.organizationMemberships).toEqual([
      { role: 'org:member', organization: { id: org.id, slug: org.slug, name: org.name }, license: { features: ['AUDIO', 'DECODE'], kind: 'standard', expiresOn: null, valid: true } },
    ]);
    expect(me.body.features).toEqual(expect.arrayContaining(['AUDIO', 'DECODE']));
    expect((await call('GET', '/features/me', undefined, invitee.cookie)).body.features).toEqual(expect.arrayContaining(['AUDIO', 'DECODE']));

    // The admin sees the new member, and the invitation is no longer pending.
    const members = await call('GET', `/auth/organization/list-members?organizationId=${org.id}`, undefined, admin.cookie);
    expect(members.status).toBe(200);
    expect(members.body.members.map((m: any) => [m.user.email, m.user.name, m.role]).sort()).toEqual(
      [
        [admin.email, 'Ada Admin', 'admin'],
        [email, 'Ivy Invitee', 'member'],
      ].sort(),
    );
    const after = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(after.body.filter((i: any) => i.status === 'pending')).toEqual([]);

    // The link works once.
    const again = await call('POST', '/auth/organization/accept-invitation', { invitationId }, invitee.cookie);
    expect(again.status).toBe(404);
    expect(again.body.errors[0].code).toBe('invitation_not_found');
  });

  it('an admin invitation makes an org admin', async () => {
    const { org, admin } = await schoolWithAdmin();
    const email = freshEmail('coadmin');
    const created = await invite(admin.cookie, { email, role: 'admin', organizationId: org.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const coadmin = await signUp(email);
    await confirmAddress(email);
    expect((await call('POST', '/auth/organization/accept-invitation', { invitationId: created.body.id }, coadmin.cookie)).status).toBe(200);
    const me = await call('GET', '/users/me', undefined, coadmin.cookie);
    expect(me.body.organizationMemberships[0].role).toBe('org:admin');
    // and may invite in turn
    expect((await invite(coadmin.cookie, { email: freshEmail(), role: 'member', organizationId: org.id })).status).toBe(200);
  });

  it('only the invited email can accept', async () => {
    const { org, admin } = await schoolWithAdmin();
    const created = await invite(admin.cookie, { email: freshEmail('meant'), role: 'member', organizationId: org.id });
    const stranger = await signUp();
    const res = await call('POST', '/auth/organization/accept-invitation', { invitationId: created.body.id }, stranger.cookie);
    expect(res.status).toBe(403);
    expect(res.body.errors[0].code).toBe('not_invitation_recipient');
    expect((await call('GET', '/users/me', undefined, stranger.cookie)).body.organizationMemberships).toEqual([]);
  });

  it('a cancelled invitation cannot be accepted', async () => {
    const { org, admin } = await schoolWithAdmin();
    const email = freshEmail('cancelled');
    const created = await invite(admin.cookie, { email, role: 'member', organizationId: org.id });
    const cancelled = await call('POST', '/auth/organization/cancel-invitation', { invitationId: created.body.id }, admin.cookie);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const list = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(list.body.find((i: any) => i.id === created.body.id).status).toBe('canceled');

    const invitee = await signUp(email);
    const res = await call('POST', '/auth/organization/accept-invitation', { invitationId: created.body.id }, invitee.cookie);
    expect(res.status).toBe(404);
    expectErrorShape(res.body);
    expect(res.body.errors[0].code).toBe('invitation_not_found');
    expect((await call('GET', '/features/me', undefined, invitee.cookie)).body.features).toEqual([]);
  });

  it('inviting the same email again replaces the pending invitation', async () => {
    const { org, admin } = await schoolWithAdmin();
    const email = freshEmail('twice');
    const first = await invite(admin.cookie, { email, role: 'member', organizationId: org.id });
    const second = await invite(admin.cookie, { email, role: 'admin', organizationId: org.id });
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    const list = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(list.body.filter((i: any) => i.status === 'pending').map((i: any) => i.id)).toEqual([second.body.id]);
  });

  it('an existing member cannot be invited', async () => {
    const { org, admin } = await schoolWithAdmin();
    const res = await invite(admin.cookie, { email: admin.email, role: 'member', organizationId: org.id });
    expect(res.status).toBe(409);
    expect(res.body.errors[0].code).toBe('already_member');
  });
});

describe('only organization admins manage members and invitations', () => {
  it('a plain member, and someone from outside, get 403', async () => {
    const { org, admin } = await schoolWithAdmin();
    const plain = await signUp();
    await setMembership(server.database.db, plain.userId, org.id, 'member');
    const outsider = await signUp();
    const created = await invite(admin.cookie, { email: freshEmail(), role: 'member', organizationId: org.id });

    for (const who of [plain, outsider]) {
      const attempts = [
        await invite(who.cookie, { email: freshEmail(), role: 'member', organizationId: org.id }),
        await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, who.cookie),
        await call('GET', `/auth/organization/list-members?organizationId=${org.id}`, undefined, who.cookie),
        await call('POST', '/auth/organization/cancel-invitation', { invitationId: created.body.id }, who.cookie),
        await call('POST', '/auth/organization/remove-member', { memberIdOrEmail: admin.email, organizationId: org.id }, who.cookie),
      ];
      for (const res of attempts) {
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expectErrorShape(res.body);
        expect(res.body.errors[0].code).toBe('forbidden');
      }
    }
    // The invitation is still pending and the admin still a member.
    const list = await call('GET', `/auth/organization/list-invitations?organizationId=${org.id}`, undefined, admin.cookie);
    expect(list.body.find((i: any) => i.id === created.body.id).status).toBe('pending');
  });

  it('signed out gets 401', async () => {
    const { org } = await schoolWithAdmin();
    const res = await invite('', { email: freshEmail(), role: 'member', organizationId: org.id });
    expect(res.status).toBe(401);
    expectErrorShape(res.body);
  });

  it('an admin removes a member, who loses the features; not themselves', async () => {
    const { org, admin } = await schoolWithAdmin(['LEVELS']);
    const plain = await signUp();
    await setMembership(server.database.db, plain.userId, org.id, 'member');
    expect((await call('GET', '/features/me', undefined, plain.cookie)).body.features).toEqual(['LEVELS']);

    const members = await call('GET', `/auth/organization/list-members?organizationId=${org.id}`, undefined, admin.cookie);
    const self = members.body.members.find((m: any) => m.user.email === admin.email);
    const mine = await call('POST', '/auth/organization/remove-member', { memberIdOrEmail: self.id, organizationId: org.id }, admin.cookie);
    expect(mine.status).toBe(400);
    expect(mine.body.errors[0]).toEqual({ code: 'cannot_remove_yourself', message: 'You cannot remove yourself from the organization.' });
    const byEmail = await call('POST', '/auth/organization/remove-member', { memberIdOrEmail: admin.email.toUpperCase(), organizationId: org.id }, admin.cookie);
    expect(byEmail.status).toBe(400);

    const target = members.body.members.find((m: any) => m.user.email === plain.email);
    const removed = await call('POST', '/auth/organization/remove-member', { memberIdOrEmail: target.id, organizationId: org.id }, admin.cookie);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await call('GET', '/features/me', undefined, plain.cookie)).body.features).toEqual([]);
    const left = await call('GET', `/auth/organization/list-members?organizationId=${org.id}`, undefined, admin.cookie);
    expect(left.body.members.map((m: any) => m.user.email)).toEqual([admin.email]);
  });
});

describe('bad input', () => {
  it('answers 400 in the error shape', async () => {
    const { org, admin } = await schoolWithAdmin();
    const cases: Array<[Record<string, unknown> | string, RegExp]> = [
      [{ email: 'not-an-email', role: 'member', organizationId: org.id }, /valid email/],
      [{ email: freshEmail(), role: 'owner', organizationId: org.id }, /role must be 'member' or 'admin'/],
      [{ email: freshEmail(), organizationId: org.id }, /role must be/],
      [{ role: 'member', organizationId: org.id }, /email is required/],
      [{ email: freshEmail(), role: 'member', organizationId: '' }, /./],
      [{ email: 42, role: ['admin'], organizationId: org.id }, /./],
    ];
    for (const [body, message] of cases) {
      const res = await invite(admin.cookie, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expectErrorShape(res.body);
      expect(res.body.errors[0].code).toBe('invalid_parameter');
      expect(res.body.errors.map((e: any) => e.message).join(' ')).toMatch(message);
    }
    for (const [path, body] of [
      ['/auth/organization/cancel-invitation', {}],
      ['/auth/organization/remove-member', { organizationId: org.id }],
      ['/auth/organization/accept-invitation', {}],
    ] as const) {
      const res = await call('POST', path, body, admin.cookie);
      expect(res.status, path).toBe(400);
      expectErrorShape(res.body);
    }
    const unknown = await call('POST', '/auth/organization/accept-invitation', { invitationId: 'no-such-invitation' }, admin.cookie);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('invitation_not_found');
  });
});

describe('the active organization after sign-in', () => {
  it('prefers a non-default organization', async () => {
    const db = server.database.db;
    const fallback = await createOrganization(db, `Readers Everywhere ${Date.now()} ${orgCount++}`);
    await setDefaultOrganization(db, fallback.slug, true);
    const school = await createOrganization(db, `Zeta School ${Date.now()} ${orgCount++}`);
    const { email, userId, cookie: signUpCookie } = await signUp();
    const atSignUp = await call('GET', '/auth/get-session', undefined, signUpCookie);
    expect(atSignUp.body.session.activeOrganizationId ?? null).toBeNull();

    // Only the default organization: it is the active one.
    await setMembership(db, userId, fallback.id, 'member');
    let session = await call('GET', '/auth/get-session', undefined, await signIn(email));
    expect(session.body.session.activeOrganizationId).toBe(fallback.id);

    // The default one is older and sorts first by name, yet the school wins.
    await setMembership(db, userId, school.id, 'member');
    session = await call('GET', '/auth/get-session', undefined, await signIn(email));
    expect(session.body.session.activeOrganizationId).toBe(school.id);

    // No longer default: the oldest membership wins.
    await setDefaultOrganization(db, fallback.slug, false);
    session = await call('GET', '/auth/get-session', undefined, await signIn(email));
    expect(session.body.session.activeOrganizationId).toBe(fallback.id);
  });
});
