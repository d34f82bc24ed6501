/**
 * Single sign-on against a real OpenID provider: oidc-provider with its login and consent pages
 * (tests/support/oidcProvider.ts), driven without a browser (tests/support/browserlessFlow.ts), and a real server
 * on an in-memory PGlite. Each failure must leave no account and no session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import type { RunningServer } from '../../server/server';
import { startFixtureServer, signUpUser, TEST_PASSWORD } from './harness';
import { startOidcProvider, type OidcProviderHandle } from '../support/oidcProvider';
import { CookieJar, cancelAtProvider, loginAtProvider, request } from '../support/browserlessFlow';
import { addSsoProvider, removeSsoProvider } from '../../server/sso/providers';
import { createOrganization, getRole } from '../../server/accounts/service';
import { account, rosterStaff, session, user } from '../../server/db/schema';

let server: RunningServer;
let idp: OidcProviderHandle;
let app: string;
const CLIENT = { clientId: 'lectern-test', clientSecret: 'test-secret-not-real' };

async function userCount(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(user);
  return row!.n;
}

async function sessionCount(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(session);
  return row!.n;
}

/** Start a school sign-in for `email`: the provider's authorization address, with the state cookie in `jar`. */
async function start(jar: CookieJar, email: string, redirectUrl?: string): Promise<string> {
  const response = await request(jar, `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { email, ...(redirectUrl ? { redirectUrl } : {}) } });
  expect(response.status).toBe(200);
  const { url } = (await response.json()) as { url: string };
  return url;
}

/** The whole round trip: start, log in at the provider, and request the app's callback. Answers the callback's response. */
async function signIn(jar: CookieJar, email: string, login = email, password = 'secret'): Promise<Response> {
  const url = await start(jar, email);
  const callback = await loginAtProvider(jar, url, login, password, app);
  return request(jar, callback);
}

const errorOf = (response: Response) => new URL(response.headers.get('location') ?? '', app).searchParams.get('error');

async function me(jar: CookieJar) {
  const response = await request(jar, `${app}/api/v1/users/me`);
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  server = await startFixtureServer();
  app = server.url;
  idp = await startOidcProvider({
    accounts: [
      { id: 't1', email: 'teacher@maple.school', emailVerified: true, name: 'Tess Teacher' },
      { id: 'u1', email: 'unverified@maple.school', emailVerified: false },
      { id: 'o1', email: 'outsider@elsewhere.org', emailVerified: true },
      { id: 'k1', email: 'kim@oak.school', emailVerified: false },
    ],
    clients: [{ ...CLIENT, redirectUris: [`${app}/api/v1/auth/callback/sso-maple`, `${app}/api/v1/auth/callback/sso-oak`] }],
  });
  const db = server.database.db;
  await createOrganization(db, 'Maple School', 'maple');
  await createOrganization(db, 'Oak School', 'oak');
  await addSsoProvider(db, { organization: 'maple', issuer: idp.issuer, ...CLIENT, domains: ['maple.school'], defaultRole: 'teacher' }, server.accounts.secret);
}, 60_000);

afterAll(async () => {
  await idp?.stop();
  await server?.stop();
});

describe('the code flow', () => {
  it('signs a teacher in without a Lectern password, into the organization of their domain with its default role', async () => {
    const jar = new CookieJar();
    const url = new URL(await start(jar, 'teacher@maple.school', '/catalog?sort=title'));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toBeTruthy();
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('login_hint')).toBe('teacher@maple.school');
    const callback = await loginAtProvider(jar, url.href, 'teacher@maple.school', 'secret', app);
    const response = await request(jar, callback);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/catalog?sort=title');
    const { status, body } = await me(jar);
    expect(status).toBe(200);
    expect(body.email).toBe('teacher@maple.school');
    expect(body.role).toBe('TEACHER');
    expect(body.organizationMemberships).toEqual([expect.objectContaining({ role: 'org:member', organization: expect.objectContaining({ slug: 'maple' }) })]);
    // Kept: the provider and subject; not kept: its tokens and picture.
    const [row] = await server.database.db.select().from(account).innerJoin(user, eq(account.userId, user.id)).where(eq(user.email, 'teacher@maple.school'));
    expect(row!.account).toMatchObject({ providerId: 'sso-maple', accountId: 't1', accessToken: null, refreshToken: null, idToken: null });
    expect(row!.user.image).toBeNull();
    expect(row!.user.emailVerified).toBe(true);
  });
});

describe('failures leave no account and no session', () => {
  async function expectNothingMade(before: { users: number; sessions: number }) {
    expect(await userCount()).toBe(before.users);
    expect(await sessionCount()).toBe(before.sessions);
  }
  const counts = async () => ({ users: await userCount(), sessions: await sessionCount() });

  it('a callback without the browser that started it (state mismatch) goes back to the sign-in page', async () => {
    const before = await counts();
    const jar = new CookieJar();
    const callback = await loginAtProvider(jar, await start(jar, 'teacher@maple.school'), 'teacher@maple.school', 'secret', app);
    const response = await request(new CookieJar(), callback);
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location')!, app).pathname).toBe('/sign-in');
    expect(errorOf(response)).toMatch(/^state_/);
    await expectNothingMade(before);
  });

  it('a replayed callback is refused, and so is a code the provider did not issue', async () => {
    const jar = new CookieJar();
    const callback = await loginAtProvider(jar, await start(jar, 'teacher@maple.school'), 'teacher@maple.school', 'secret', app);
    expect((await request(jar, callback)).headers.get('location')).toBe('/catalog');
    const replay = await request(jar, callback);
    expect(errorOf(replay)).toMatch(/^state_/);

    const before = await counts();
    const fresh = new CookieJar();
    const second = new URL(await loginAtProvider(fresh, await start(fresh, 'teacher@maple.school'), 'teacher@maple.school', 'secret', app));
    second.searchParams.set('code', 'not-a-code-the-provider-issued');
    const forged = await request(fresh, second.href);
    expect(errorOf(forged)).toBe('invalid_code');
    await expectNothingMade(before);
  });

  it('an unknown domain gets a clear 404 and no redirect', async () => {
    const response = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { email: 'someone@nowhere.example' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ errors: [{ code: 'sso_not_configured', message: expect.stringContaining('has not set up sign-in') }] });
  });

  it('bad input gets a 400 with the error shape', async () => {
    for (const json of [{ email: 'not-an-address' }, { provider: 'myspace' }, { email: 'a@maple.school', extra: 1 }, {}]) {
      const response = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(((await response.json()) as any).errors[0].code).toBe('invalid_parameter');
    }
    const foreign = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { email: 'teacher@maple.school', redirectUrl: 'https://evil.example/' } });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as any).errors[0].message).toBe('Navigation to a different domain is blocked.');
  });

  it('a user who cancels at the provider comes back with access_denied', async () => {
    const before = await counts();
    const jar = new CookieJar();
    const callback = await cancelAtProvider(jar, await start(jar, 'teacher@maple.school'), app);
    const response = await request(jar, callback);
    expect(errorOf(response)).toBe('access_denied');
    await expectNothingMade(before);
  });

  it('an ID token signed by another key is refused', async () => {
    const before = await counts();
    idp.signWithForeignKey(true);
    try {
      const response = await signIn(new CookieJar(), 'teacher@maple.school');
      expect(errorOf(response)).toBe('unable_to_get_user_info');
    } finally {
      idp.signWithForeignKey(false);
    }
    await expectNothingMade(before);
  });

  it('an address the provider has not verified makes no account', async () => {
    const before = await counts();
    const response = await signIn(new CookieJar(), 'unverified@maple.school');
    expect(errorOf(response)).toBe('email_not_verified');
    await expectNothingMade(before);
  });

  it("an organization's provider cannot vouch for an address outside its domains", async () => {
    const before = await counts();
    const response = await signIn(new CookieJar(), 'teacher@maple.school', 'outsider@elsewhere.org');
    expect(errorOf(response)).toBe('email_domain_mismatch');
    await expectNothingMade(before);
  });

  it('a provider that is down gets a 503 with what to do', async () => {
    const db = server.database.db;
    await createOrganization(db, 'Pine School', 'pine');
    // Nothing listens on port 9 of the loopback address.
    await addSsoProvider(db, { organization: 'pine', issuer: 'http://127.0.0.1:9', ...CLIENT, domains: ['pine.school'] }, server.accounts.secret);
    const response = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { email: 'ann@pine.school' } });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ errors: [{ code: 'sso_provider_unavailable', message: expect.stringContaining('not answering') }] });
  });

  it("better-auth's own provider routes are closed: sign-in starts at /sso/sign-in", async () => {
    for (const route of ['sign-in/social', 'link-social', 'sign-in/oauth2']) {
      const response = await request(new CookieJar(), `${app}/api/v1/auth/${route}`, { method: 'POST', json: { provider: 'sso-maple', providerId: 'sso-maple' } });
      expect(response.status, route).toBe(404);
    }
  });
});

describe('providers and domains', () => {
  it('--trust-email accepts the provider\'s addresses as verified; a provider added while the server runs works at once', async () => {
    const db = server.database.db;
    // Without --trust-email, Kim's unverified address is refused …
    await addSsoProvider(db, { organization: 'oak', issuer: idp.issuer, ...CLIENT, domains: ['oak.school'] }, server.accounts.secret);
    expect(errorOf(await signIn(new CookieJar(), 'kim@oak.school'))).toBe('email_not_verified');
    // … and replaced with --trust-email (no restart), it is accepted, verified, with no role (the default is none).
    await addSsoProvider(db, { organization: 'oak', issuer: idp.issuer, ...CLIENT, domains: ['oak.school'], trustEmail: true }, server.accounts.secret);
    const jar = new CookieJar();
    expect((await signIn(jar, 'kim@oak.school')).headers.get('location')).toBe('/catalog');
    const { body } = await me(jar);
    expect(body.email).toBe('kim@oak.school');
    expect(body.role).toBeNull();
    expect(body.organizationMemberships.map((m: any) => m.organization.slug)).toEqual(['oak']);
    const [row] = await db.select({ emailVerified: user.emailVerified }).from(user).where(eq(user.email, 'kim@oak.school'));
    expect(row!.emailVerified).toBe(true);
  });

  it('routes each address to its own organization\'s provider, and a removed provider stops at once', async () => {
    const db = server.database.db;
    await createOrganization(db, 'Birch School', 'birch');
    await addSsoProvider(db, { organization: 'birch', issuer: idp.issuer, clientId: 'birch-client', clientSecret: 's', domains: ['birch.school', 'birch.k12.example'] }, server.accounts.secret);
    const birch = new URL(await start(new CookieJar(), 'Ann@Birch.K12.Example'));
    expect(birch.searchParams.get('client_id')).toBe('birch-client');
    expect(birch.searchParams.get('redirect_uri')).toBe(`${app}/api/v1/auth/callback/sso-birch`);
    const maple = new URL(await start(new CookieJar(), 'x@maple.school'));
    expect(maple.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(await removeSsoProvider(db, 'birch')).toBe(true);
    const gone = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { email: 'ann@birch.school' } });
    expect(gone.status).toBe(404);
  });

  it('refuses a domain that another organization has, and http:// issuers off loopback', async () => {
    const db = server.database.db;
    await expect(addSsoProvider(db, { organization: 'oak', issuer: idp.issuer, ...CLIENT, domains: ['maple.school'] }, server.accounts.secret)).rejects.toThrow(/belongs to maple/);
    await expect(addSsoProvider(db, { organization: 'oak', issuer: 'http://login.example.org', ...CLIENT, domains: ['oak.school'] }, server.accounts.secret)).rejects.toThrow(/https:\/\//);
  });

  it('stores the client secret encrypted', async () => {
    const rows = await server.database.db.execute<{ client_secret: string }>(`select client_secret from sso_providers` as never);
    const secrets = ((rows as any).rows ?? rows) as { client_secret: string }[];
    expect(secrets.length).toBeGreaterThan(0);
    for (const row of secrets) {
      expect(row.client_secret).not.toContain(CLIENT.clientSecret);
      expect(row.client_secret).toMatch(/^v1\./);
    }
  });
});

describe('existing accounts and the roster', () => {
  it('links an existing password account only when both addresses are verified', async () => {
    idp.addAccount({ id: 'p1', email: 'pat@maple.school', emailVerified: true });
    const made = await signUpUser(server, { email: 'pat@maple.school' });
    const db = server.database.db;
    // The local address is not confirmed: no link, no session; the page tells Pat to sign in with the password first.
    const before = await sessionCount();
    expect(errorOf(await signIn(new CookieJar(), 'pat@maple.school'))).toBe('account_not_linked');
    expect(await sessionCount()).toBe(before);
    // Once it is confirmed, the school sign-in links to the same account.
    await db.update(user).set({ emailVerified: true }).where(eq(user.email, 'pat@maple.school'));
    const jar = new CookieJar();
    expect((await signIn(jar, 'pat@maple.school')).headers.get('location')).toBe('/catalog');
    const { body } = await me(jar);
    expect(body.id ?? body.userId ?? body.email).toBeTruthy();
    expect(body.email).toBe('pat@maple.school');
    const [{ n }] = (await db.select({ n: count() }).from(user).where(eq(user.email, 'pat@maple.school'))) as [{ n: number }];
    expect(n).toBe(1);
    // The password still works too.
    const password = await request(new CookieJar(), `${app}/api/v1/auth/sign-in/email`, { method: 'POST', json: { email: 'pat@maple.school', password: TEST_PASSWORD } });
    expect(password.status).toBe(200);
    void made;
  });

  it('links from Manage Account after a password sign-in, then the school sign-in needs no password', async () => {
    idp.addAccount({ id: 'l1', email: 'lee@maple.school', emailVerified: true });
    await signUpUser(server, { email: 'lee@maple.school' });
    expect(errorOf(await signIn(new CookieJar(), 'lee@maple.school'))).toBe('account_not_linked');
    // Signed in with the password, Lee links the school's provider.
    const jar = new CookieJar();
    const password = await request(jar, `${app}/api/v1/auth/sign-in/email`, { method: 'POST', json: { email: 'lee@maple.school', password: TEST_PASSWORD } });
    expect(password.status).toBe(200);
    const providers = await request(jar, `${app}/api/v1/sso/providers`);
    expect(((await providers.json()) as any).school).toEqual({ name: 'Maple School', linked: false });
    const link = await request(jar, `${app}/api/v1/sso/link`, { method: 'POST', json: {} });
    expect(link.status).toBe(200);
    const callback = await loginAtProvider(jar, ((await link.json()) as { url: string }).url, 'lee@maple.school', 'secret', app);
    expect((await request(jar, callback)).headers.get('location')).toBe('/account?linked=sso-maple');
    const school = new CookieJar();
    expect((await signIn(school, 'lee@maple.school')).headers.get('location')).toBe('/catalog');
    expect((await me(school)).body.email).toBe('lee@maple.school');
    const after = await request(school, `${app}/api/v1/sso/providers`);
    expect(((await after.json()) as any).school).toEqual({ name: 'Maple School', linked: true });
    // Linking needs a session.
    expect((await request(new CookieJar(), `${app}/api/v1/sso/link`, { method: 'POST', json: {} })).status).toBe(401);
  });

  it('a roster entry decides the role of a first sign-in: an administrator becomes an org admin', async () => {
    const db = server.database.db;
    idp.addAccount({ id: 'r1', email: 'rita@maple.school', emailVerified: true });
    const [maple] = await db.execute<{ id: string }>(`select id from organization where slug = 'maple'` as never).then((r: any) => r.rows ?? r);
    await db.insert(rosterStaff).values({ organizationId: maple.id, sourcedId: 'adm-1', email: 'Rita@maple.school', givenName: 'Rita', familyName: 'Reyes', role: 'admin', enabled: true });
    const jar = new CookieJar();
    expect((await signIn(jar, 'rita@maple.school')).headers.get('location')).toBe('/catalog');
    const { body } = await me(jar);
    expect(body.organizationMemberships).toEqual([expect.objectContaining({ role: 'org:admin', organization: expect.objectContaining({ slug: 'maple' }) })]);
    // An admin row gives no reading role, so the role modal asks (the organization's default is for people the roster does not name).
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, 'rita@maple.school'));
    expect(await getRole(db, row!.id)).toBeNull();
  });

  it('the userinfo endpoint supplies the email when the ID token has none', async () => {
    const other = await startOidcProvider({
      emailInIdToken: false,
      accounts: [{ id: 'e1', email: 'eve@elm.school', emailVerified: true }],
      clients: [{ ...CLIENT, redirectUris: [`${app}/api/v1/auth/callback/sso-elm`] }],
    });
    try {
      await createOrganization(server.database.db, 'Elm School', 'elm');
      await addSsoProvider(server.database.db, { organization: 'elm', issuer: other.issuer, ...CLIENT, domains: ['elm.school'] }, server.accounts.secret);
      const jar = new CookieJar();
      expect((await signIn(jar, 'eve@elm.school')).headers.get('location')).toBe('/catalog');
      expect((await me(jar)).body.email).toBe('eve@elm.school');
    } finally {
      await other.stop();
    }
  });
});

describe('platform providers', () => {
  it('shows no Google or Microsoft button unless configured', async () => {
    const response = await request(new CookieJar(), `${app}/api/v1/sso/providers`);
    expect(await response.json()).toEqual({ google: false, microsoft: false, school: null });
    const google = await request(new CookieJar(), `${app}/api/v1/sso/sign-in`, { method: 'POST', json: { provider: 'google' } });
    expect(google.status).toBe(404);
  });

  it('with client ids in the environment, Continue with Google and Microsoft start a PKCE code flow at their services', async () => {
    const configured = await startFixtureServer({
      accounts: {
        env: { GOOGLE_CLIENT_ID: 'g-id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'g-secret', MICROSOFT_CLIENT_ID: 'm-id', MICROSOFT_CLIENT_SECRET: 'm-secret' },
      },
    });
    try {
      const providers = await request(new CookieJar(), `${configured.url}/api/v1/sso/providers`);
      expect(await providers.json()).toEqual({ google: true, microsoft: true, school: null });
      for (const [provider, host] of [
        ['google', 'accounts.google.com'],
        ['microsoft', 'login.microsoftonline.com'],
      ] as const) {
        const response = await request(new CookieJar(), `${configured.url}/api/v1/sso/sign-in`, { method: 'POST', json: { provider } });
        expect(response.status).toBe(200);
        const url = new URL(((await response.json()) as { url: string }).url);
        expect(url.host).toBe(host);
        expect(url.searchParams.get('code_challenge_method')).toBe('S256');
        expect(url.searchParams.get('redirect_uri')).toBe(`${configured.url}/api/v1/auth/callback/${provider}`);
      }
    } finally {
      await configured.stop();
    }
  });

  it('refuses half a configuration at start', async () => {
    const { platformProviders } = await import('../../server/sso/config');
    expect(() => platformProviders({ GOOGLE_CLIENT_ID: 'x' })).toThrow(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET go together/);
    expect(platformProviders({})).toEqual({});
  });
});
