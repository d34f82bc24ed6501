/**
 * Accounts, against a real server on PGlite: better-auth sign-up, sign-in and sign-out with our error
 * shape and rate limits; the users API; licenses (granted through the functions the admin CLI uses); class
 * codes through /visitors/me; title visibility; the CSRF origin check and the security headers.
 *
 * The server trusts X-Forwarded-For here (TRUST_PROXY), so each test can act from its own IP address and the
 * per-IP limits of one test do not spill into the next.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getJson, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import { session as sessionTable } from '../../server/db/schema';
import { createOrganization, grantLicense, makeOrgAdmin, makeTeacher, revokeLicense } from '../../server/accounts/service';
import { CurrentUserSchema, UserTitlesSchema, VisitorSchema } from '../../src/domain/schemas';
import { CLASS_CODE_FAILURES_PER_CLIENT, CLASS_CODE_FAILURES_PER_IP, SIGN_IN_FAILURES_PER_EMAIL } from '../../server/auth/limits';

let server: RunningServer;
const SIGN_IN_PER_IP_FOR_TEST = 8;

beforeAll(async () => {
  server = await startFixtureServer({
    accounts: {
      env: { TRUST_PROXY: 'true' },
      limits: { signInFailuresPerIp: { max: SIGN_IN_PER_IP_FOR_TEST, windowMs: 60_000 } },
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

let ipCounter = 10;
/** A fresh client IP address (X-Forwarded-For) for one test. */
const freshIp = () => `203.0.113.${ipCounter++}`;

interface CallOptions {
  body?: unknown;
  cookie?: string;
  ip?: string;
  origin?: string | null;
  headers?: Record<string, string>;
}

function call(method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'X-Forwarded-For': options.ip ?? '198.51.100.1', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.cookie) headers.Cookie = options.cookie;
  const origin = options.origin === undefined ? server.url : options.origin;
  if (origin !== null) headers.Origin = origin;
  return getJson(server, `/api/v1${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

/** The cookies a response sets, as a Cookie header. */
function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

let emailCounter = 0;
const freshEmail = (name = 'reader') => `${name}.${Date.now()}.${emailCounter++}@example.org`;
const PASSWORD = 'violet-harbor-lantern';

async function signUp(email = freshEmail(), name = 'Ada Lovelace', ip = freshIp()) {
  const res = await call('POST', '/auth/sign-up/email', { body: { email, password: PASSWORD, name }, ip });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { email, cookie: cookiesOf(res.headers), res };
}

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.errors[0].code).toBe(code);
  expect(typeof res.body.errors[0].message).toBe('string');
  expect(res.body.errors[0].message.length).toBeGreaterThan(0);
}

describe('sign-up and sign-in', () => {
  it('signs up with a session cookie: httpOnly, SameSite=Lax, not Secure over plain HTTP', async () => {
    const { res, cookie } = await signUp();
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('lectern.session_token='))!;
    expect(setCookie).toBeTruthy();
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    // At least 128 bits: the token before the signature is 32 characters of [A-Za-z0-9] (~190 bits).
    const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    expect(token.length).toBeGreaterThanOrEqual(32);
  });

  it('signs in with the right password and refuses a wrong one clearly', async () => {
    const { email } = await signUp();
    const ip = freshIp();
    const ok = await call('POST', '/auth/sign-in/email', { body: { email, password: PASSWORD }, ip });
    expect(ok.status).toBe(200);
    expect(cookiesOf(ok.headers)).toMatch(/lectern\.session_token=/);
    const wrong = await call('POST', '/auth/sign-in/email', { body: { email, password: 'not-the-password' }, ip });
    expectError(wrong, 401, 'invalid_credentials');
    expect(wrong.body.errors[0].message).toBe('The email or password is incorrect.');
  });

  it('refuses a taken email', async () => {
    const { email } = await signUp();
    const again = await call('POST', '/auth/sign-up/email', { body: { email, password: PASSWORD, name: 'Someone' }, ip: freshIp() });
    expectError(again, 409, 'email_taken');
    expect(again.body.errors[0].message).toMatch(/already exists/);
  });

  it('refuses a weak password: too short, or on the common list (any case)', async () => {
    const short = await call('POST', '/auth/sign-up/email', { body: { email: freshEmail(), password: 'Ab1!xyz', name: 'S' }, ip: freshIp() });
    expectError(short, 400, 'weak_password');
    expect(short.body.errors[0].message).toBe('Password must be at least 8 characters.');
    for (const password of ['password123', 'Sunshine1', 'QWERTYUIOP']) {
      const common = await call('POST', '/auth/sign-up/email', { body: { email: freshEmail(), password, name: 'S' }, ip: freshIp() });
      expectError(common, 400, 'weak_password');
      expect(common.body.errors[0].message).toMatch(/too common/);
    }
  });

  it('answers bad input to better-auth and to our routes with the error shape, never a 500', async () => {
    const badEmail = await call('POST', '/auth/sign-up/email', { body: { email: 'not-an-email', password: PASSWORD, name: 'X' }, ip: freshIp() });
    expectError(badEmail, 400, 'invalid_parameter');
    expect(badEmail.body.errors[0].message).toBe('email: Invalid email address');
    const missing = await call('POST', '/auth/sign-up/email', { body: { email: freshEmail() }, ip: freshIp() });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { message: string }) => e.message).sort()).toEqual(['name is required', 'password is required']);
    const unknown = await call('GET', '/auth/no-such-endpoint');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('not_found');
    const { cookie } = await signUp();
    const notJson = await getJson(server, '/api/v1/users/me/role', {
      method: 'PATCH',
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
      body: '{role:',
    });
    expectError(notJson, 400, 'invalid_parameter');
  });

  it('rate-limits failed sign-ins per email with 429 and Retry-After, whatever the IP', async () => {
    const { email } = await signUp();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL.max; i++) {
      const wrong = await call('POST', '/auth/sign-in/email', { body: { email, password: `wrong-${i}-password` }, ip: freshIp() });
      expect(wrong.status).toBe(401);
    }
    const limited = await call('POST', '/auth/sign-in/email', { body: { email, password: PASSWORD }, ip: freshIp() });
    expectError(limited, 429, 'rate_limited');
    expect(limited.body.errors[0].message).toMatch(/Too many sign-in attempts/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await signUp();
    expect((await call('POST', '/auth/sign-in/email', { body: { email: other.email, password: PASSWORD }, ip: freshIp() })).status).toBe(200);
  });

  it('rate-limits failed sign-ins per IP address; successes do not count', async () => {
    const ip = freshIp();
    const { email } = await signUp();
    for (let i = 0; i < SIGN_IN_PER_IP_FOR_TEST + 2; i++) {
      expect((await call('POST', '/auth/sign-in/email', { body: { email, password: PASSWORD }, ip })).status).toBe(200);
    }
    for (let i = 0; i < SIGN_IN_PER_IP_FOR_TEST; i++) {
      const res = await call('POST', '/auth/sign-in/email', { body: { email: freshEmail('nobody'), password: 'whatever-it-is' }, ip });
      expect(res.status).toBe(401);
    }
    const limited = await call('POST', '/auth/sign-in/email', { body: { email: freshEmail('nobody'), password: 'whatever-it-is' }, ip });
    expectError(limited, 429, 'rate_limited');
    expect((await call('POST', '/auth/sign-in/email', { body: { email: freshEmail('nobody'), password: 'whatever-it-is' }, ip: freshIp() })).status).toBe(401);
  });

  it('signs out on the server: the old cookie no longer works', async () => {
    const { cookie } = await signUp();
    expect((await call('GET', '/users/me', { cookie })).status).toBe(200);
    const out = await call('POST', '/auth/sign-out', { cookie, body: {} });
    expect(out.status).toBe(200);
    expectError(await call('GET', '/users/me', { cookie }), 401, 'unauthorized');
    const token = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    expect(await server.database.db.select().from(sessionTable).where(eq(sessionTable.token, token))).toHaveLength(0);
  });
});

describe('users API', () => {
  it('answers 401 with the error shape without a session', async () => {
    for (const [method, path, body] of [
      ['GET', '/users/me'],
      ['GET', '/features/me'],
      ['PATCH', '/users/me/role', { role: 'TEACHER' }],
      ['PATCH', '/users/titles/1/visibility', { status: 'ASSIGNED' }],
      ['POST', '/users/me/group-code', {}],
      ['GET', '/users/titles'],
    ] as const) {
      expectError(await call(method, path, { body }), 401, 'unauthorized');
    }
  });

  it('GET /users/me: name split, no role, no features, no class code, no memberships', async () => {
    const { cookie, email } = await signUp(freshEmail(), 'Grace Brewster Hopper');
    const me = await call('GET', '/users/me', { cookie });
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    const user = CurrentUserSchema.parse(me.body);
    expect(user).toMatchObject({ email, firstName: 'Grace', lastName: 'Brewster Hopper', role: null, features: [], groupCode: null, organizationMemberships: [] });
  });

  it('PATCH /users/me/role sets INDIVIDUAL or TEACHER and refuses anything else', async () => {
    const { cookie } = await signUp();
    const bad = await call('PATCH', '/users/me/role', { cookie, body: { role: 'ADMIN' } });
    expectError(bad, 400, 'invalid_parameter');
    expectError(await call('PATCH', '/users/me/role', { cookie, body: {} }), 400, 'invalid_parameter');
    const teacher = await call('PATCH', '/users/me/role', { cookie, body: { role: 'TEACHER' } });
    expect(teacher.status).toBe(200);
    expect(teacher.body.role).toBe('TEACHER');
    const reader = await call('PATCH', '/users/me/role', { cookie, body: { role: 'INDIVIDUAL' } });
    expect(reader.body.role).toBe('INDIVIDUAL');
    expect((await call('GET', '/users/me', { cookie })).body.role).toBe('INDIVIDUAL');
  });

  it('features come from a valid license of an organization the user belongs to; org admins are org:admin', async () => {
    const db = server.database.db;
    const { cookie, email } = await signUp();
    const org = await createOrganization(db, `Hillside School ${emailCounter}`);
    await makeOrgAdmin(db, email, org.slug);
    let me = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
    expect(me.organizationMemberships).toEqual([{ role: 'org:admin', organization: { id: org.id, slug: org.slug, name: org.name }, license: null }]);
    expect(me.features).toEqual([]);

    await grantLicense(db, org.slug, ['LEVELS', 'AUDIO'], null);
    expect((await call('GET', '/features/me', { cookie })).body).toEqual({ features: ['AUDIO', 'LEVELS'] });
    me = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
    expect(me.features).toEqual(['AUDIO', 'LEVELS']);

    await grantLicense(db, org.slug, ['DECODE'], '2000-01-31');
    expect((await call('GET', '/features/me', { cookie })).body).toEqual({ features: [] });
    await grantLicense(db, org.slug, ['DECODE', 'LANGUAGES'], '2999-12-31');
    expect((await call('GET', '/features/me', { cookie })).body).toEqual({ features: ['DECODE', 'LANGUAGES'] });
    await revokeLicense(db, org.slug);
    expect((await call('GET', '/features/me', { cookie })).body).toEqual({ features: [] });
  });
});

/** A teacher of a licensed school with GROUP_CODES, and their class code. */
async function licensedTeacher(features: Parameters<typeof grantLicense>[2] = ['GROUP_CODES', 'LEVELS']) {
  const db = server.database.db;
  const { cookie, email } = await signUp(freshEmail('teacher'), 'Maria Montessori');
  await makeTeacher(db, email);
  const org = await createOrganization(db, `School ${Date.now()} ${emailCounter++}`);
  await makeOrgAdmin(db, email, org.slug);
  await grantLicense(db, org.slug, features, null);
  const me = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
  return { cookie, email, org, code: me.groupCode };
}

describe('class codes', () => {
  it('a licensed teacher gets an 8-character code; students verify it through /visitors/me', async () => {
    const { code } = await licensedTeacher();
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const ok = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code!, 'X-Client-Id': 'student-1' }, ip: freshIp() });
    expect(ok.status).toBe(200);
    // The teacher's reading features pass on to students; GROUP_CODES and USER_UPLOAD are the teacher's own tools.
    // No titles assigned yet: the code opens none (titleIds).
    expect(VisitorSchema.parse(ok.body)).toEqual({ groupCodeValid: true, features: ['LEVELS'], titleIds: [] });
    const lower = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code!.toLowerCase() }, ip: freshIp() });
    expect(lower.body.groupCodeValid).toBe(true);
  });

  it('a wrong, malformed or missing code is not valid and has no features', async () => {
    const ip = freshIp();
    for (const headers of [{ 'X-Group-Code': 'ZZZZ9999' }, { 'X-Group-Code': 'short' }, {} as Record<string, string>]) {
      const res = await call('GET', '/visitors/me', { headers, ip });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ groupCodeValid: false, features: [], titleIds: [] });
    }
  });

  it('teachers without GROUP_CODES, and readers, have no code', async () => {
    const { cookie } = await licensedTeacher(['LEVELS']);
    expect((await call('GET', '/users/me', { cookie })).body.groupCode).toBeNull();
    expectError(await call('POST', '/users/me/group-code', { cookie, body: {} }), 403, 'forbidden');
    const reader = await signUp();
    expect((await call('GET', '/users/me', { cookie: reader.cookie })).body.groupCode).toBeNull();
  });

  it('rotating the code retires the old one at once', async () => {
    const { cookie, code } = await licensedTeacher();
    const rotated = await call('POST', '/users/me/group-code', { cookie, body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.groupCode).toMatch(/^[A-Z0-9]{8}$/);
    expect(rotated.body.groupCode).not.toBe(code);
    expect((await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code! }, ip: freshIp() })).body.groupCodeValid).toBe(false);
    expect((await call('GET', '/visitors/me', { headers: { 'X-Group-Code': rotated.body.groupCode }, ip: freshIp() })).body.groupCodeValid).toBe(true);
    expect((await call('GET', '/users/me', { cookie })).body.groupCode).toBe(rotated.body.groupCode);
  });

  it("/users/me names each organization's license: features, kind, expiry and whether it is still valid", async () => {
    const { cookie, org } = await licensedTeacher(['LEVELS', 'AUDIO']);
    const me = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
    expect(me.organizationMemberships).toEqual([
      {
        role: 'org:admin',
        organization: { id: org.id, slug: org.slug, name: org.name },
        license: { features: ['AUDIO', 'LEVELS'], kind: 'standard', expiresOn: null, valid: true },
      },
    ]);
    // A free trial (SPEC §3 'ar-free-trial') is named as such, and grants its features while it lasts.
    await grantLicense(server.database.db, org.slug, ['AUDIO'], '2999-01-31', 'ar-free-trial');
    const trial = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
    expect(trial.organizationMemberships[0]!.license).toEqual({ features: ['AUDIO'], kind: 'ar-free-trial', expiresOn: '2999-01-31', valid: true });
    expect(trial.features).toEqual(['AUDIO']);
    await grantLicense(server.database.db, org.slug, ['AUDIO'], '2020-01-31');
    const expired = CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body);
    expect(expired.organizationMemberships[0]!.license).toEqual({ features: ['AUDIO'], kind: 'standard', expiresOn: '2020-01-31', valid: false });
    expect(expired.features).toEqual([]);
    await revokeLicense(server.database.db, org.slug);
    expect(CurrentUserSchema.parse((await call('GET', '/users/me', { cookie })).body).organizationMemberships[0]!.license).toBeNull();
  });

  it('a revoked license retires the code', async () => {
    const { code, org } = await licensedTeacher();
    await revokeLicense(server.database.db, org.slug);
    expect((await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code! }, ip: freshIp() })).body.groupCodeValid).toBe(false);
  });

  it('answers 429 after too many wrong guesses from one client id, even for a right code', async () => {
    const { code } = await licensedTeacher();
    const ip = freshIp();
    const clientId = 'guesser-1';
    for (let i = 0; i < CLASS_CODE_FAILURES_PER_CLIENT.max; i++) {
      const res = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': `WRONG${String(i).padStart(3, '0')}`, 'X-Client-Id': clientId }, ip });
      expect(res.body.groupCodeValid).toBe(false);
    }
    const limited = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code!, 'X-Client-Id': clientId }, ip });
    expectError(limited, 429, 'rate_limited');
    expect(limited.body.errors[0].message).toMatch(/Too many wrong class codes/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same client from another network is still limited; another client there is not.
    expectError(await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code!, 'X-Client-Id': clientId }, ip: freshIp() }), 429, 'rate_limited');
    expect((await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code!, 'X-Client-Id': 'honest-2' }, ip: freshIp() })).body.groupCodeValid).toBe(true);
  });

  it('answers 429 after too many wrong guesses from one IP address, whatever the client id', async () => {
    const ip = freshIp();
    let limited = null;
    for (let i = 0; i < 100 && !limited; i++) {
      const res = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': `GUESS${String(i).padStart(3, '0')}`, 'X-Client-Id': `c-${i}` }, ip });
      if (res.status === 429) limited = { i, res };
    }
    expect(limited).not.toBeNull();
    expect(limited!.i).toBe(CLASS_CODE_FAILURES_PER_IP.max);
    expectError(limited!.res, 429, 'rate_limited');
  });
});

describe('title visibility', () => {
  async function titleIds() {
    const list = await getJson(server, '/api/v1/publications?pageSize=100');
    const byslug = new Map<string, number>(list.body.items.map((i: { slug: string; id: number }) => [i.slug, i.id]));
    return { owls: byslug.get('alpha-owls')!, bay: byslug.get('beacon-bay')!, cedar: byslug.get('cedar-and-stone')! };
  }

  it('only teachers may change it; bad input is a 400, an unknown title a 404', async () => {
    const { owls } = await titleIds();
    const reader = await signUp();
    expectError(await call('PATCH', `/users/titles/${owls}/visibility`, { cookie: reader.cookie, body: { status: 'ASSIGNED' } }), 403, 'forbidden');
    const { cookie } = await licensedTeacher();
    expectError(await call('PATCH', `/users/titles/${owls}/visibility`, { cookie, body: { status: 'VISIBLE' } }), 400, 'invalid_parameter');
    expectError(await call('PATCH', `/users/titles/abc/visibility`, { cookie, body: { status: 'ASSIGNED' } }), 400, 'invalid_parameter');
    expectError(await call('PATCH', `/users/titles/999999/visibility`, { cookie, body: { status: 'ASSIGNED' } }), 404, 'not_found');
  });

  it('a teacher assigns and blocks titles; students with the code see only the assigned ones', async () => {
    const { owls, bay, cedar } = await titleIds();
    const { cookie, code } = await licensedTeacher();
    const assigned = await call('PATCH', `/users/titles/${owls}/visibility`, { cookie, body: { status: 'ASSIGNED' } });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ titleId: owls, status: 'ASSIGNED', title: { slug: 'alpha-owls' } });
    await call('PATCH', `/users/titles/${bay}/visibility`, { cookie, body: { status: 'ASSIGNED' } });
    await call('PATCH', `/users/titles/${cedar}/visibility`, { cookie, body: { status: 'BLOCKED' } });
    await call('PATCH', `/users/titles/${bay}/visibility`, { cookie, body: { status: 'BLOCKED' } });

    const mine = UserTitlesSchema.parse((await call('GET', '/users/titles', { cookie })).body);
    expect(mine.items.map((t) => [t.title.slug, t.status])).toEqual([
      ['alpha-owls', 'ASSIGNED'],
      ['beacon-bay', 'BLOCKED'],
      ['cedar-and-stone', 'BLOCKED'],
    ]);

    const student = await call('GET', '/users/titles', { headers: { 'X-Group-Code': code! }, ip: freshIp() });
    expect(student.status).toBe(200);
    expect(UserTitlesSchema.parse(student.body).items.map((t) => t.title.slug)).toEqual(['alpha-owls']);
    // The visitor check names the titles the code opens, so the client applies its features where the server does.
    const visitor = await call('GET', '/visitors/me', { headers: { 'X-Group-Code': code! }, ip: freshIp() });
    expect(VisitorSchema.parse(visitor.body)).toEqual({ groupCodeValid: true, features: ['LEVELS'], titleIds: [owls] });

    expectError(await call('GET', '/users/titles', { headers: { 'X-Group-Code': 'NOPE0000' }, ip: freshIp() }), 403, 'invalid_group_code');
    // Another teacher's list is their own.
    const other = await licensedTeacher();
    expect((await call('GET', '/users/titles', { cookie: other.cookie })).body.items).toEqual([]);
  });
});

describe('CSRF and security headers', () => {
  it('refuses a state-changing request from another origin, or with cookies and no origin', async () => {
    const { cookie } = await signUp();
    expectError(await call('PATCH', '/users/me/role', { cookie, body: { role: 'TEACHER' }, origin: 'https://evil.example' }), 403, 'csrf_rejected');
    expectError(await call('PATCH', '/users/me/role', { cookie, body: { role: 'TEACHER' }, origin: null }), 403, 'csrf_rejected');
    expectError(await call('PATCH', '/users/me/role', { cookie, body: { role: 'TEACHER' }, origin: 'null' }), 403, 'csrf_rejected');
    const viaReferer = await call('PATCH', '/users/me/role', { cookie, body: { role: 'TEACHER' }, origin: null, headers: { Referer: `${server.url}/catalog` } });
    expect(viaReferer.status).toBe(200);
    // Sign-in from another site (login CSRF) is refused too.
    const { email } = await signUp();
    expectError(await call('POST', '/auth/sign-in/email', { body: { email, password: PASSWORD }, origin: 'https://evil.example', ip: freshIp() }), 403, 'csrf_rejected');
    // An anonymous POST from another origin is refused; one with no Origin and no cookie (a script) still works.
    expectError(await call('POST', '/publications/alpha-owls/sources/on-demand', { body: { version: 'v1', languageCode: 'es', level: 'GOLD' }, origin: 'https://evil.example' }), 403, 'csrf_rejected');
    // (A free edition: GOLD would need a license, and a license needs a cookie, which needs an Origin.)
    const script = await call('POST', '/publications/alpha-owls/sources/on-demand', { body: { version: 'v1', languageCode: 'es', level: 'ORIGINAL' }, origin: null });
    expect([200, 201]).toContain(script.status);
  });

  it('sends CSP, nosniff and frame protection everywhere, and HSTS only over HTTPS', async () => {
    for (const path of ['/api/v1/ping', '/api/v1/users/me', '/catalog']) {
      const res = await fetch(server.url + path);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    const https = await fetch(`${server.url}/api/v1/ping`, { headers: { 'X-Forwarded-Proto': 'https' } });
    const hsts = https.headers.get('strict-transport-security')!;
    expect(Number(/max-age=(\d+)/.exec(hsts)![1])).toBeGreaterThanOrEqual(31_536_000);
  });

  it('over HTTPS (behind a trusted proxy) the session cookie is Secure', async () => {
    const res = await call('POST', '/auth/sign-up/email', {
      body: { email: freshEmail(), password: PASSWORD, name: 'Secure Sam' },
      ip: freshIp(),
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.includes('lectern.session_token='))!;
    expect(setCookie).toMatch(/^__Secure-lectern\.session_token=/);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).toMatch(/HttpOnly/i);
  });
});

describe('the typed client (src/api/client.ts) against the server', () => {
  it('signs up, picks a role, reads features and titles, checks a class code and signs out', async () => {
    const { createApiClient } = await import('../../src/api/client');
    let jar = '';
    const ip = freshIp();
    const cookieFetch: typeof fetch = async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      request.headers.set('Origin', server.url);
      request.headers.set('X-Forwarded-For', ip);
      if (jar) request.headers.set('Cookie', jar);
      const response = await fetch(request);
      const set = cookiesOf(response.headers);
      if (set) jar = set;
      return response;
    };
    const api = createApiClient({ baseUrl: `${server.url}/api/v1`, clientId: () => 'client-test', fetch: cookieFetch });
    const email = freshEmail('client');
    await api.signUp({ email, password: PASSWORD, name: 'Client Reader' });
    expect((await api.getCurrentUser()).email).toBe(email);
    expect((await api.updateRole('TEACHER')).role).toBe('TEACHER');
    expect(await api.getFeatures()).toEqual([]);
    expect(await api.getUserTitles()).toEqual([]);
    await expect(api.rotateGroupCode()).rejects.toMatchObject({ status: 403 });

    const { code } = await licensedTeacher();
    expect(await api.getVisitor({ groupCode: code! })).toEqual({ groupCodeValid: true, features: ['LEVELS'], titleIds: [] });

    await api.signOut();
    await expect(api.getCurrentUser()).rejects.toMatchObject({ status: 401 });
  });
});
