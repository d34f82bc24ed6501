/**
 * Single sign-on against a real OpenID provider (issue 28 item 4): oidc-provider with its login and consent pages
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
import { createOrganization, getRole } from '../../server/users/service';
import { rosterStaff, session, user } from '../../server/db/schema';

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
  });
});
