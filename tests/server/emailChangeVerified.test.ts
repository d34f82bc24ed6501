/**
 * A verified email change marks the new address verified (smaller things): Manage Account's change-email
 * mails a link to the new address (server/auth/emailChange.ts), and opening it both moves the account and proves
 * the address, so `emailVerified` is true afterwards, whether the account had proven its old address or not, and
 * whether the link is opened in the signed-in browser or elsewhere (a mail app's browser). End to end on a real
 * server: the link is read from the mail in the outbox (no SMTP_URL) and opened.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { cookiesOf, getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import { outboxDir } from '../../server/mail/mailer';
import { readOutbox } from '../../server/mail/outbox';
import { user } from '../../server/db/authSchema';

let server: RunningServer;
beforeAll(async () => {
  // No SMTP_URL in this environment: mail goes to the in-memory server's outbox, outboxDir(null).
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const ip = () => `198.51.100.${150 + (n % 100)}`;
const freshEmail = (what: string) => `${what}.${Date.now()}.${n++}@example.org`;
const PASSWORD = 'violet-harbor-lantern';

function call(method: string, path: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': ip() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return getJson(server, `/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function signUp() {
  const email = freshEmail('before');
  const res = await call('POST', '/auth/sign-up/email', { email, password: PASSWORD, name: 'Ada Lovelace' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.user.id as string, email, cookie: cookiesOf(res.headers) };
}

/** The account's row as stored. */
async function stored(id: string) {
  const [row] = await server.database.db.select({ email: user.email, emailVerified: user.emailVerified }).from(user).where(eq(user.id, id));
  return row;
}

/** The link of the change mail to `to`, once the server has written it (in the background, after answering). */
async function changeLinkMailedTo(to: string): Promise<string> {
  const mailed = () => readOutbox(outboxDir(null)).filter((entry) => entry.to === to && entry.subject === 'Confirm your new Lectern email');
  await expect.poll(() => mailed().length, { timeout: 20_000 }).toBe(1);
  const link = mailed()[0]!.link;
  expect(link).toMatch(/\/api\/v1\/auth\/verify-email\?token=[^&]+&callbackURL=%2Faccount$/);
  return link!;
}

/** Ask for the change from Manage Account, and return the link mailed to the new address. */
async function askForChange(cookie: string, newEmail: string): Promise<string> {
  const asked = await call('POST', '/auth/change-email', { newEmail, callbackURL: '/account' }, cookie);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  return changeLinkMailedTo(newEmail);
}

describe('a verified email change', () => {
  it('marks the new address verified when its link is opened, also for an account that never proved its old one', async () => {
    const account = await signUp();
    expect(await stored(account.id)).toEqual({ email: account.email, emailVerified: false });
    const newEmail = freshEmail('after');
    const link = await askForChange(account.cookie, newEmail);
    // Nothing changes before the link is opened.
    expect(await stored(account.id)).toEqual({ email: account.email, emailVerified: false });

    // Opened where there is no session (a mail app's browser): the link alone proves the mailbox.
    const opened = await fetch(link, { redirect: 'manual' });
    expect(opened.status).toBe(302);
    expect(new URL(opened.headers.get('location')!, server.url).pathname).toBe('/account');
    expect(await stored(account.id)).toEqual({ email: newEmail, emailVerified: true });

    // What the signed-in browser then sees.
    const me = await call('GET', '/users/me', undefined, account.cookie);
    expect(me.body).toMatchObject({ email: newEmail, emailVerified: true });
    const session = await call('GET', '/auth/get-session', undefined, account.cookie);
    expect(session.body.user).toMatchObject({ email: newEmail, emailVerified: true });

    // Opening it again changes nothing and unverifies nothing.
    await fetch(link, { redirect: 'manual' });
    expect(await stored(account.id)).toEqual({ email: newEmail, emailVerified: true });
  });

  it('opened in the signed-in browser, the session sees the new, verified address at once', async () => {
    const account = await signUp();
    const newEmail = freshEmail('after');
    const link = await askForChange(account.cookie, newEmail);
    const opened = await fetch(link, { redirect: 'manual', headers: { Cookie: account.cookie } });
    expect(opened.status).toBe(302);
    const session = await call('GET', '/auth/get-session', undefined, [account.cookie, cookiesOf(opened.headers)].filter(Boolean).join('; '));
    expect(session.body.user).toMatchObject({ email: newEmail, emailVerified: true });
    expect(await stored(account.id)).toEqual({ email: newEmail, emailVerified: true });
  });

  it('keeps a verified account verified', async () => {
    const account = await signUp();
    await server.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, account.id));
    const newEmail = freshEmail('after');
    const link = await askForChange(account.cookie, newEmail);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(302);
    expect(await stored(account.id)).toEqual({ email: newEmail, emailVerified: true });
  });

  it('verifies nothing else: other updates leave the flag alone, and a forged link changes nothing', async () => {
    const account = await signUp();
    const renamed = await call('POST', '/auth/update-user', { name: 'Grace Hopper' }, account.cookie);
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(await stored(account.id)).toEqual({ email: account.email, emailVerified: false });

    const newEmail = freshEmail('after');
    const link = await askForChange(account.cookie, newEmail);
    const forged = link.replace(/token=([^&]+)/, (_m, token: string) => `token=${token.slice(0, -2)}xx`);
    const refused = await fetch(forged, { redirect: 'manual' });
    expect(refused.headers.get('location')).toMatch(/error=/);
    expect(await stored(account.id)).toEqual({ email: account.email, emailVerified: false });
  });
});
