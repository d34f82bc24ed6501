/**
 * Manage Account against a real server on PGlite: the better-auth endpoints the page uses, update-user
 * (name), change-email (enabled in server/auth/auth.ts; it applies only once the link mailed to the new address is
 * opened: tests/server/passwordReset.test.ts follows that mail) and
 * change-password (current password checked, the password rules applied), all in our error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesOf, getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const ip = () => `198.51.100.${100 + (n % 100)}`;
const freshEmail = () => `settings.${Date.now()}.${n++}@example.org`;
const PASSWORD = 'violet-harbor-lantern';

function call(method: string, path: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': ip() };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  return getJson(server, `/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}


async function signUp() {
  const email = freshEmail();
  const res = await call('POST', '/auth/sign-up/email', { email, password: PASSWORD, name: 'Ada Lovelace' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { email, cookie: cookiesOf(res.headers) };
}

describe('Manage Account endpoints', () => {
  it('update-user changes the name, seen by /users/me', async () => {
    const { cookie } = await signUp();
    const res = await call('POST', '/auth/update-user', { name: 'Grace Hopper' }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = await call('GET', '/users/me', undefined, cookie);
    expect(me.body).toMatchObject({ name: 'Grace Hopper', firstName: 'Grace', lastName: 'Hopper' });
  });

  it('change-email changes nothing until the link mailed to the new address is opened', async () => {
    const { email, cookie } = await signUp();
    const newEmail = freshEmail();
    const res = await call('POST', '/auth/change-email', { newEmail }, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const me = await call('GET', '/users/me', undefined, cookie);
    expect(me.body.email).toBe(email);
    expect((await call('POST', '/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(200);
    expect((await call('POST', '/auth/sign-in/email', { email: newEmail, password: PASSWORD })).status).toBe(401);
  });

  it('change-email to a taken address changes nothing', async () => {
    const other = await signUp();
    const { email, cookie } = await signUp();
    await call('POST', '/auth/change-email', { newEmail: other.email }, cookie);
    expect((await call('GET', '/users/me', undefined, cookie)).body.email).toBe(email);
  });

  it('change-email needs a session', async () => {
    const res = await call('POST', '/auth/change-email', { newEmail: freshEmail() });
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthorized');
  });

  it('change-password checks the current password and the rules, then the new one signs in', async () => {
    const { email, cookie } = await signUp();
    const wrong = await call('POST', '/auth/change-password', { currentPassword: 'nope-nope-nope', newPassword: 'amber-canyon-willow' }, cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toEqual({ code: 'invalid_credentials', message: 'The password is incorrect.' });
    const weak = await call('POST', '/auth/change-password', { currentPassword: PASSWORD, newPassword: 'short' }, cookie);
    expect(weak.status).toBe(400);
    expect(weak.body.errors[0]).toEqual({ code: 'weak_password', message: 'Password must be at least 8 characters.' });
    const ok = await call('POST', '/auth/change-password', { currentPassword: PASSWORD, newPassword: 'amber-canyon-willow', revokeOtherSessions: true }, cookie);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await call('POST', '/auth/sign-in/email', { email, password: PASSWORD })).status).toBe(401);
    expect((await call('POST', '/auth/sign-in/email', { email, password: 'amber-canyon-willow' })).status).toBe(200);
  });
});
