/**
 * Forgot password on a real server: the mail port through SMTP (an in-process `smtp-server` receives
 * what the server sends) and through the outbox (DATA_DIR/outbox/ .eml files, `npm run admin -- outbox`); the
 * reset itself (single use, expiry, the strength rules, every session ended); the same answer for unknown
 * addresses; the limits per email and per IP; and `npm run admin -- user reset-link` through the admin socket.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { serverWithSmtp } from './smtp';
import { sql } from 'drizzle-orm';
import { cookiesOf, getJson, signUpUser, startFixtureServer, TEST_PASSWORD, restoreEnv, writeFixtureLibrary } from './harness';
import type { RunningServer } from '../../server/server';
import { runAdminCli } from '../../server/bin/admin';
import { createOrganization, makeOrgAdmin } from '../../server/accounts/service';
import { readOutbox } from '../../server/mail/outbox';
import { mailSettings } from '../../server/mail/mailer';

const NEW_PASSWORD = 'amber-quarry-kestrel-9';
const REQUESTED = { status: true, message: 'If an account exists for that address, we sent a link.' };

function post(server: RunningServer, pathname: string, body: unknown, headers: Record<string, string> = {}) {
  return getJson(server, `/api/v1/auth/${pathname}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url, ...headers },
    body: JSON.stringify(body),
  });
}

function signIn(server: RunningServer, email: string, password: string, ip: string) {
  return post(server, 'sign-in/email', { email, password }, { 'X-Forwarded-For': ip });
}

/** The token of a reset link in a message's text. */
function tokenOf(text: string): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return match[1]!;
}

let ipCounter = 0;
/** A fresh client address (the server trusts X-Forwarded-For here), so one test's limits do not touch another's. */
const freshIp = () => `198.51.100.${++ipCounter}`;

describe('forgot password through SMTP', () => {
  const fixture = serverWithSmtp({ passwordResetPerIp: { max: 6, windowMs: 60 * 60_000 } });

  it('mails a link naming Lectern and the school; the link sets a new password once and ends every session', async () => {
    const user = await signUpUser(fixture.server, { name: 'Ada Teacher', ip: freshIp() });
    const org = await createOrganization(fixture.server.database.db, `Juniper Hill School ${Date.now()}`);
    await makeOrgAdmin(fixture.server.database.db, user.email, org.slug);
    const other = await signIn(fixture.server, user.email, TEST_PASSWORD, freshIp());
    expect(other.status).toBe(200);
    const sessions = [user.cookie, cookiesOf(other.headers)];

    const asked = await post(fixture.server, 'request-password-reset', { email: user.email }, { 'X-Forwarded-For': freshIp() });
    expect(asked).toMatchObject({ status: 200, body: REQUESTED });

    const mail = await fixture.smtp.mailTo(user.email);
    expect(mail.subject).toBe('Reset your Lectern password');
    expect(mail.from?.value).toEqual([{ name: 'Lectern', address: 'no-reply@localhost' }]);
    expect(mail.text).toContain('Hello Ada Teacher,');
    expect(mail.text).toContain(`your Lectern account at ${org.name}`);
    expect(mail.text).toContain('The link works once, for the next 1 hour.');
    const token = tokenOf(mail.text ?? '');
    expect(mail.text).toContain(`${fixture.server.url}/reset-password?token=${token}`);
    expect(mail.html).toContain(`href="${fixture.server.url}/reset-password?token=${token}"`);
    // 24 characters of [A-Za-z0-9]: 142 bits.
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);

    const weak = await post(fixture.server, 'reset-password', { token, newPassword: 'password123' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors[0].code).toBe('weak_password');

    const reset = await post(fixture.server, 'reset-password', { token, newPassword: NEW_PASSWORD });
    expect(reset).toMatchObject({ status: 200, body: { status: true } });
    for (const cookie of sessions) {
      const session = await getJson(fixture.server, '/api/v1/auth/get-session', { headers: { Cookie: cookie } });
      expect(session.body).toBeNull();
    }
    expect((await signIn(fixture.server, user.email, TEST_PASSWORD, freshIp())).status).toBe(401);
    expect((await signIn(fixture.server, user.email, NEW_PASSWORD, freshIp())).status).toBe(200);

    // The token is spent.
    const replay = await post(fixture.server, 'reset-password', { token, newPassword: 'another-long-phrase-7' });
    expect(replay.status).toBe(400);
    expect(replay.body.errors).toEqual([
      { code: 'invalid_token', message: 'This password reset link is no longer valid: it was used already or it has expired. Ask for a new one.' },
    ]);
  });

  it('refuses a link after its hour', async () => {
    const user = await signUpUser(fixture.server, { ip: freshIp() });
    await post(fixture.server, 'request-password-reset', { email: user.email }, { 'X-Forwarded-For': freshIp() });
    const token = tokenOf((await fixture.smtp.mailTo(user.email)).text ?? '');
    const lifetime = await fixture.server.database.db.execute(
      sql`select round(extract(epoch from expires_at - created_at))::int as seconds from verification where identifier = ${`reset-password:${token}`}`,
    );
    expect((lifetime as unknown as { rows: { seconds: number }[] }).rows).toEqual([{ seconds: 3600 }]);
    await fixture.server.database.db.execute(sql`update verification set expires_at = now() - interval '1 second' where identifier = ${`reset-password:${token}`}`);
    const expired = await post(fixture.server, 'reset-password', { token, newPassword: NEW_PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body.errors[0].code).toBe('invalid_token');
    expect((await signIn(fixture.server, user.email, TEST_PASSWORD, freshIp())).status).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    const user = await signUpUser(fixture.server, { ip: freshIp() });
    const unknown = `nobody.${Date.now()}@example.org`;
    const known = await post(fixture.server, 'request-password-reset', { email: user.email }, { 'X-Forwarded-For': freshIp() });
    const missing = await post(fixture.server, 'request-password-reset', { email: unknown }, { 'X-Forwarded-For': freshIp() });
    expect(missing.status).toBe(known.status);
    expect(missing.body).toEqual(known.body);
    expect(missing.headers.get('content-type')).toBe(known.headers.get('content-type'));
    await fixture.smtp.mailTo(user.email);
    expect(fixture.smtp.received.some((m) => m.to && !Array.isArray(m.to) && m.to.text.includes(unknown))).toBe(false);
  });

  it('limits requests per email address, known or not, with the error shape of the other limits', async () => {
    for (const email of [(await signUpUser(fixture.server, { ip: freshIp() })).email, `ghost.${Date.now()}@example.org`]) {
      for (let i = 0; i < 3; i++) expect((await post(fixture.server, 'request-password-reset', { email }, { 'X-Forwarded-For': freshIp() })).status).toBe(200);
      const limited = await post(fixture.server, 'request-password-reset', { email }, { 'X-Forwarded-For': freshIp() });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ errors: [{ code: 'rate_limited', message: 'Too many password reset requests. Try again in 60 minutes.' }] });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3500);
    }
  });

  it('limits requests per IP address', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) {
      expect((await post(fixture.server, 'request-password-reset', { email: `many.${i}.${Date.now()}@example.org` }, { 'X-Forwarded-For': ip })).status).toBe(200);
    }
    const limited = await post(fixture.server, 'request-password-reset', { email: `many.last.${Date.now()}@example.org` }, { 'X-Forwarded-For': ip });
    expect(limited.status).toBe(429);
    expect(limited.body.errors[0]).toEqual({ code: 'rate_limited', message: 'Too many password reset requests. Try again in 60 minutes.' });
    expect((await post(fixture.server, 'request-password-reset', { email: `other.${Date.now()}@example.org` }, { 'X-Forwarded-For': freshIp() })).status).toBe(200);
  });
});

describe('a verified email change through SMTP', () => {
  const fixture = serverWithSmtp();

  it('applies only when the link mailed to the new address is opened; then the old address gets a notice', async () => {
    const account = await signUpUser(fixture.server, { name: 'Ada Teacher', ip: freshIp() });
    const newEmail = `moved.${Date.now()}@example.org`;
    const asked = await post(fixture.server, 'change-email', { newEmail, callbackURL: '/account' }, { Cookie: account.cookie, 'X-Forwarded-For': freshIp() });
    expect(asked.status).toBe(200);
    const me = () => getJson(fixture.server, '/api/v1/users/me', { headers: { Cookie: account.cookie } });
    expect((await me()).body.email).toBe(account.email);

    const mail = await fixture.smtp.mailTo(newEmail);
    expect(mail.subject).toBe('Confirm your new Lectern email');
    expect(mail.text).toContain(`from ${account.email} to this address, ${newEmail}.`);
    const link = /(http\S+\/api\/v1\/auth\/verify-email\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(link).toBeDefined();
    // Nothing has changed yet, and a session elsewhere cannot make it apply without the link.
    expect((await me()).body.email).toBe(account.email);

    const opened = await fetch(link!, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(new URL(opened.headers.get('location')!, fixture.server.url).pathname).toBe('/account');
    expect((await me()).body.email).toBe(newEmail);
    expect((await signIn(fixture.server, newEmail, TEST_PASSWORD, freshIp())).status).toBe(200);
    expect((await signIn(fixture.server, account.email, TEST_PASSWORD, freshIp())).status).toBe(401);

    const notice = await fixture.smtp.mailTo(account.email);
    expect(notice.subject).toBe('Your Lectern email was changed');
    expect(notice.text).toContain(`was changed from this address, ${account.email}, to ${newEmail}.`);
    expect(notice.text).toContain('Hello Ada Teacher,');

    // A forged or altered token changes nothing.
    const forged = await fetch(`${fixture.server.url}/api/v1/auth/verify-email?token=${link!.split('token=')[1]!.split('&')[0]!.slice(0, -2)}xx&callbackURL=%2Faccount`, { redirect: 'manual' });
    expect(forged.headers.get('location')).toMatch(/error=/);
    expect((await me()).body.email).toBe(newEmail);
  });

  it('mails an invitation with its link, naming the school and who invited', async () => {
    const org = await createOrganization(fixture.server.database.db, `Maple Row School ${Date.now()}`);
    const admin = await signUpUser(fixture.server, { name: 'Ada Admin', ip: freshIp() });
    await makeOrgAdmin(fixture.server.database.db, admin.email, org.slug);
    const invitee = `invitee.${Date.now()}@example.org`;
    const created = await post(fixture.server, 'organization/invite-member', { email: invitee, role: 'member', organizationId: org.id }, { Cookie: admin.cookie, 'X-Forwarded-For': freshIp() });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const mail = await fixture.smtp.mailTo(invitee);
    expect(mail.subject).toBe(`Join ${org.name} on Lectern`);
    expect(mail.text).toContain(`Ada Admin invited you (${invitee}) to join ${org.name} on Lectern.`);
    expect(mail.text).toContain(`${fixture.server.url}/accept-invitation/${created.body.id}`);
    expect(mail.text).toContain('The link works for 7 days.');
  });

  it('limits requests per new address, and sends no verification mail on request', async () => {
    const account = await signUpUser(fixture.server, { ip: freshIp() });
    const newEmail = `limited.${Date.now()}@example.org`;
    for (let i = 0; i < 3; i++) {
      expect((await post(fixture.server, 'change-email', { newEmail }, { Cookie: account.cookie, 'X-Forwarded-For': freshIp() })).status).toBe(200);
    }
    const limited = await post(fixture.server, 'change-email', { newEmail }, { Cookie: account.cookie, 'X-Forwarded-For': freshIp() });
    expect(limited.status).toBe(429);
    expect(limited.body.errors).toEqual([{ code: 'rate_limited', message: 'Too many email change requests. Try again in 60 minutes.' }]);
    const closed = await post(fixture.server, 'send-verification-email', { email: account.email }, { Cookie: account.cookie, 'X-Forwarded-For': freshIp() });
    expect(closed.status).toBe(404);
  });
});

describe('forgot password without SMTP: the outbox, and the admin commands', () => {
  let server: RunningServer;
  let dataDir: string;
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, SMTP_URL: process.env.SMTP_URL };
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-outbox-test-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.DATABASE_URL;
    delete process.env.SMTP_URL;
    server = await startFixtureServer({ dataDir, contentDir: writeFixtureLibrary(0), accounts: { env: { TRUST_PROXY: 'true' } } });
  });
  afterAll(async () => {
    await server?.stop();
    restoreEnv(saved);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function admin(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdminCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dataDir }, { ...process.env, DATA_DIR: dataDir });
    return { code, out, err };
  }

  it('writes the mail to DATA_DIR/outbox/, and `admin outbox` lists it with its link', async () => {
    const user = await signUpUser(server, { ip: freshIp() });
    const asked = await post(server, 'request-password-reset', { email: user.email }, { 'X-Forwarded-For': freshIp() });
    expect(asked).toMatchObject({ status: 200, body: REQUESTED });
    // The mail is written in the background, after the answer.
    await expect.poll(() => readOutbox(path.join(dataDir, 'outbox')).filter((e) => e.to === user.email).length).toBe(1);
    const [entry] = readOutbox(path.join(dataDir, 'outbox')).filter((e) => e.to === user.email);
    expect(entry!.subject).toBe('Reset your Lectern password');
    expect(entry!.link).toMatch(new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/reset-password\\?token=[A-Za-z0-9]{24}$`));
    expect(fs.statSync(entry!.file).mode & 0o777).toBe(0o600);
    const parsed = await simpleParser(fs.readFileSync(entry!.file));
    expect(parsed.text).toContain(entry!.link!);
    expect(parsed.html).toContain('Choose a new password');

    const listed = await admin('outbox', '--last', '1');
    expect(listed.code).toBe(0);
    expect(listed.out.join('\n')).toContain(`to ${user.email}  "Reset your Lectern password"`);
    expect(listed.out).toContain(`    ${entry!.link}`);

    const reset = await post(server, 'reset-password', { token: tokenOf(entry!.link!), newPassword: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect((await signIn(server, user.email, NEW_PASSWORD, freshIp())).status).toBe(200);
  });

  it('`admin user reset-link` prints a one-time link through the running server\'s admin socket', async () => {
    const user = await signUpUser(server, { ip: freshIp() });
    const made = await admin('user', 'reset-link', user.email, '--base-url', 'https://lectern.school.example/ignored');
    expect(made.err).toEqual([]);
    expect(made.code).toBe(0);
    expect(made.out[0]).toMatch(new RegExp(`^Password reset link for ${user.email.replace(/[.]/g, '\\.')}, valid once until \\d{4}-`));
    const link = made.out[1]!;
    expect(link).toMatch(/^https:\/\/lectern\.school\.example\/reset-password\?token=[A-Za-z0-9_-]{32}$/);
    const token = tokenOf(link);
    expect((await post(server, 'reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect((await post(server, 'reset-password', { token, newPassword: NEW_PASSWORD })).status).toBe(400);
    expect((await signIn(server, user.email, NEW_PASSWORD, freshIp())).status).toBe(200);

    const unknown = await admin('user', 'reset-link', 'nobody@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toEqual(["error: No user with the email 'nobody@example.org'."]);
  });

  it('`admin outbox` on an empty outbox says so', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-outbox-empty-'));
    const out: string[] = [];
    process.env.DATA_DIR = empty;
    const code = await runAdminCli(['outbox'], { out: (l) => out.push(l), err: () => {} }, { ...process.env, DATA_DIR: empty }).finally(() => {
      process.env.DATA_DIR = dataDir;
    });
    expect(code).toBe(0);
    expect(out).toEqual([`The outbox (${path.join(empty, 'outbox')}) is empty.`]);
  });
});

describe('mail settings', () => {
  it('takes smtp:// and smtps:// addresses, and MAIL_FROM with a default', () => {
    expect(mailSettings({})).toEqual({ smtpUrl: undefined, from: 'Lectern <no-reply@localhost>' });
    expect(mailSettings({ SMTP_URL: 'smtps://u:p@mail.example.org:465', MAIL_FROM: 'Juniper Hill <lectern@juniper.example>' })).toEqual({
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      from: 'Juniper Hill <lectern@juniper.example>',
    });
    expect(() => mailSettings({ SMTP_URL: 'http://mail.example.org' })).toThrow(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/);
  });
});
