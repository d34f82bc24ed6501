/**
 * The test OpenID Connect provider for single sign-on (tests/support/oidcProvider.ts) and the
 * browserless code flow (tests/support/browserlessFlow.ts), checked by hand as a relying party would: discovery,
 * the code flow with PKCE S256, state and nonce, the ID token verified against the published JWKS, a wrong password,
 * Cancel, a replayed code, the userinfo-only email claims, a client added while running, and foreign-key signing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JSONWebKeySet } from 'jose';
import { startOidcProvider, type OidcProviderHandle, type TestClient } from '../support/oidcProvider';
import { cancelAtProvider, CookieJar, follow, formAction, loginAtProvider, request } from '../support/browserlessFlow';

const TEACHER = { id: 'teacher-1', email: 'teacher@maple.school', emailVerified: true, name: 'Tess Teacher' };
const UNVERIFIED = { id: 'unverified-1', email: 'unverified@maple.school', emailVerified: false, password: 'other-pass' };

let provider: OidcProviderHandle;
let app: Server;
let appOrigin: string;
let client: TestClient;
/** What the stand-in app's redirect URI received. */
const callbacks: URLSearchParams[] = [];

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  code_challenge_methods_supported: string[];
  token_endpoint_auth_methods_supported: string[];
}

const b64url = (buf: Buffer) => buf.toString('base64url');

interface Started {
  authorizationUrl: string;
  state: string;
  nonce: string;
  verifier: string;
}

async function discovery(issuer = provider.issuer): Promise<Discovery> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  expect(res.status).toBe(200);
  return (await res.json()) as Discovery;
}

/** The relying party's first step: an authorization URL with PKCE S256, state and nonce. */
async function authorizationRequest(c: TestClient, extra: Record<string, string> = {}, issuer = provider.issuer): Promise<Started> {
  const d = await discovery(issuer);
  const state = b64url(randomBytes(16));
  const nonce = b64url(randomBytes(16));
  const verifier = b64url(randomBytes(32));
  const url = new URL(d.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: c.clientId,
    response_type: 'code',
    redirect_uri: c.redirectUris[0],
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return { authorizationUrl: url.href, state, nonce, verifier };
}

async function exchange(c: TestClient, code: string, verifier: string, how: 'basic' | 'post' = 'basic', issuer = provider.issuer) {
  const d = await discovery(issuer);
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: c.redirectUris[0], code_verifier: verifier });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (how === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString('base64')}`;
  } else {
    form.set('client_id', c.clientId);
    form.set('client_secret', c.clientSecret);
  }
  const res = await fetch(d.token_endpoint, { method: 'POST', headers, body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function verifyIdToken(idToken: string, c: TestClient, issuer = provider.issuer) {
  const d = await discovery(issuer);
  const jwks = (await (await fetch(d.jwks_uri)).json()) as JSONWebKeySet;
  return jwtVerify(idToken, createLocalJWKSet(jwks), { issuer: d.issuer, audience: c.clientId });
}

/** Authorization request, login, consent: the callback URL's parameters (the callback is requested on the stand-in app). */
async function signIn(c: TestClient, login = TEACHER.email, password = 'secret', issuer = provider.issuer) {
  const started = await authorizationRequest(c, {}, issuer);
  const jar = new CookieJar();
  const callbackUrl = await loginAtProvider(jar, started.authorizationUrl, login, password, appOrigin);
  const params = new URL(callbackUrl).searchParams;
  return { ...started, jar, callbackUrl, params, code: params.get('code') ?? '' };
}

beforeAll(async () => {
  app = createServer((req, res) => {
    callbacks.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('callback received');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  client = { clientId: 'lectern-test', clientSecret: 'test-secret-not-real', redirectUris: [`${appOrigin}/api/v1/auth/callback/sso-test`] };
  provider = await startOidcProvider({ port: 0, accounts: [TEACHER], clients: [client] });
});

afterAll(async () => {
  await provider?.stop();
  app?.closeAllConnections();
  await new Promise<void>((resolve) => (app ? app.close(() => resolve()) : resolve()));
});

describe('test OpenID provider', () => {
  it('publishes its discovery document, health and JWKS', async () => {
    expect(provider.issuer).toBe(`http://127.0.0.1:${provider.port}`);
    const d = await discovery();
    expect(d.issuer).toBe(provider.issuer);
    expect(d.authorization_endpoint).toBe(`${provider.issuer}/auth`);
    expect(d.token_endpoint).toBe(`${provider.issuer}/token`);
    expect(d.userinfo_endpoint).toBe(`${provider.issuer}/me`);
    expect(d.jwks_uri).toBe(`${provider.issuer}/jwks`);
    expect(d.code_challenge_methods_supported).toContain('S256');
    expect(d.token_endpoint_auth_methods_supported.sort()).toEqual(['client_secret_basic', 'client_secret_post']);
    expect((await fetch(`${provider.issuer}/health`)).status).toBe(200);
    const jwks = (await (await fetch(d.jwks_uri)).json()) as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('runs the code flow: login, consent, code at the redirect URI, tokens, a verified ID token and userinfo', async () => {
    const started = await authorizationRequest(client);
    const jar = new CookieJar();
    const loginPage = await follow(jar, started.authorizationUrl, { stopOrigins: [appOrigin] });
    expect(loginPage.response.status).toBe(200);
    expect(loginPage.body).toContain('name="login"');
    expect(loginPage.body).toContain('name="password"');
    expect(loginPage.body).toContain('>Sign-in</button>');
    expect(loginPage.body).toContain('>Cancel</button>');

    const callbackUrl = await loginAtProvider(jar, loginPage.url, TEACHER.email, 'secret', appOrigin);
    expect(callbackUrl.startsWith(client.redirectUris[0])).toBe(true);
    const params = new URL(callbackUrl).searchParams;
    expect(params.get('state')).toBe(started.state);
    expect(params.get('iss')).toBe(provider.issuer);
    const code = params.get('code');
    expect(code).toBeTruthy();

    // The stand-in app gets the callback (the jar's provider cookies do not go there).
    const received = callbacks.length;
    const atApp = await request(jar, callbackUrl);
    expect(atApp.status).toBe(200);
    expect(callbacks[received].get('code')).toBe(code);

    const tokens = await exchange(client, code!, started.verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body.token_type).toBe('Bearer');
    const { payload, protectedHeader } = await verifyIdToken(String(tokens.body.id_token), client);
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      iss: provider.issuer,
      aud: client.clientId,
      sub: TEACHER.id,
      nonce: started.nonce,
      email: TEACHER.email,
      email_verified: true,
      name: TEACHER.name,
    });

    const userinfo = await fetch(`${provider.issuer}/me`, { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } });
    expect(userinfo.status).toBe(200);
    expect(await userinfo.json()).toEqual({ sub: TEACHER.id, email: TEACHER.email, email_verified: true, name: TEACHER.name });
  });

  it('accepts client_secret_post, reuses the provider session in the same jar, and refuses a wrong client secret', async () => {
    const first = await signIn(client);
    expect((await exchange(client, first.code, first.verifier, 'post')).status).toBe(200);

    // Same browser, signed in at the provider and consent given: straight back with a code.
    const again = await authorizationRequest(client);
    const back = await follow(first.jar, again.authorizationUrl, { stopOrigins: [appOrigin] });
    expect(back.stoppedAt).toBeDefined();
    const code = new URL(back.stoppedAt!).searchParams.get('code')!;
    const wrong = await exchange({ ...client, clientSecret: 'not-the-secret' }, code, again.verifier);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
  });

  it('shows the login page again after a wrong password, and signs in with the right one from there', async () => {
    const started = await authorizationRequest(client);
    const jar = new CookieJar();
    const loginPage = await follow(jar, started.authorizationUrl, { stopOrigins: [appOrigin] });
    const action = formAction(loginPage.body, loginPage.url, 'login')!;
    const rejected = await follow(jar, action, { method: 'POST', form: { login: TEACHER.email, password: 'wrong' }, stopOrigins: [appOrigin] });
    expect(rejected.stoppedAt).toBeUndefined();
    expect(rejected.response.status).toBe(401);
    expect(rejected.body).toContain('name="login"');
    expect(rejected.body).toContain('name="password"');
    expect(rejected.body).toContain('role="alert"');
    expect(rejected.body).toContain(`value="${TEACHER.email}"`);

    const unknown = await follow(jar, action, { method: 'POST', form: { login: 'nobody@maple.school', password: 'secret' } });
    expect(unknown.response.status).toBe(401);

    await expect(loginAtProvider(jar, loginPage.url, TEACHER.email, 'also-wrong', appOrigin)).rejects.toThrow(/did not accept the login/);
    const callbackUrl = await loginAtProvider(jar, loginPage.url, TEACHER.email, 'secret', appOrigin);
    expect(new URL(callbackUrl).searchParams.get('state')).toBe(started.state);
    expect(new URL(callbackUrl).searchParams.get('code')).toBeTruthy();
  });

  it('Cancel at the login page or the consent page sends error=access_denied to the redirect URI', async () => {
    const started = await authorizationRequest(client);
    const cancelled = new URL(await cancelAtProvider(new CookieJar(), started.authorizationUrl, appOrigin));
    expect(cancelled.origin + cancelled.pathname).toBe(client.redirectUris[0]);
    expect(cancelled.searchParams.get('error')).toBe('access_denied');
    expect(cancelled.searchParams.get('state')).toBe(started.state);
    expect(cancelled.searchParams.get('code')).toBeNull();

    // At the consent page: log in by hand, then cancel.
    const second = await authorizationRequest(client);
    const jar = new CookieJar();
    const loginPage = await follow(jar, second.authorizationUrl, { stopOrigins: [appOrigin] });
    const consent = await follow(jar, formAction(loginPage.body, loginPage.url, 'login')!, {
      method: 'POST',
      form: { login: TEACHER.email, password: 'secret' },
      stopOrigins: [appOrigin],
    });
    expect(consent.body).toContain('>Continue</button>');
    const denied = new URL(await cancelAtProvider(jar, consent.url, appOrigin));
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe(second.state);
  });

  it('exchanges a code once only, and only with its PKCE verifier', async () => {
    const flow = await signIn(client);
    expect((await exchange(client, flow.code, b64url(randomBytes(32)))).body.error).toBe('invalid_grant');

    const other = await signIn(client);
    expect((await exchange(client, other.code, other.verifier)).status).toBe(200);
    const replay = await exchange(client, other.code, other.verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('requires PKCE', async () => {
    const started = await authorizationRequest(client);
    const url = new URL(started.authorizationUrl);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const result = await follow(new CookieJar(), url.href, { stopOrigins: [appOrigin] });
    const back = new URL(result.stoppedAt!).searchParams;
    expect(back.get('error')).toBe('invalid_request');
    expect(back.get('error_description')).toMatch(/PKCE/);
  });

  it('signs ID tokens with a key outside the published JWKS while signWithForeignKey is on', async () => {
    const published = (await (await fetch(`${provider.issuer}/jwks`)).json()) as JSONWebKeySet;
    provider.signWithForeignKey(true);
    try {
      const flow = await signIn(client);
      const tokens = await exchange(client, flow.code, flow.verifier);
      expect(tokens.status).toBe(200);
      const idToken = String(tokens.body.id_token);
      // Same kid as the published key, so a client finds "its" key and the signature check is what fails.
      expect(decodeProtectedHeader(idToken).kid).toBe(published.keys[0].kid);
      await expect(verifyIdToken(idToken, client)).rejects.toBeInstanceOf(joseErrors.JWSSignatureVerificationFailed);
      expect(await (await fetch(`${provider.issuer}/jwks`)).json()).toEqual(published);
    } finally {
      provider.signWithForeignKey(false);
    }
    const flow = await signIn(client);
    const tokens = await exchange(client, flow.code, flow.verifier);
    await expect(verifyIdToken(String(tokens.body.id_token), client)).resolves.toBeDefined();
  });

  it('takes clients and accounts added while running; an unverified email is reported as such', async () => {
    const late: TestClient = { clientId: 'late-client', clientSecret: 'late-secret', redirectUris: [`${appOrigin}/late/callback`] };
    provider.addClient(late);
    provider.addAccount(UNVERIFIED);
    expect(provider.accounts.get(UNVERIFIED.id)?.email).toBe(UNVERIFIED.email);
    expect(() => provider.addClient({ clientId: 'bad', clientSecret: 'x', redirectUris: ['not a url'] })).toThrow();

    // Log in by id rather than email, with the account's own password.
    const flow = await signIn(late, UNVERIFIED.id, UNVERIFIED.password);
    expect(flow.callbackUrl.startsWith(late.redirectUris[0])).toBe(true);
    const tokens = await exchange(late, flow.code, flow.verifier);
    const { payload } = await verifyIdToken(String(tokens.body.id_token), late);
    expect(payload).toMatchObject({ sub: UNVERIFIED.id, email: UNVERIFIED.email, email_verified: false, aud: late.clientId });
  });

  it('with emailInIdToken: false, the email claims come only from userinfo', async () => {
    const own: TestClient = { clientId: 'userinfo-only', clientSecret: 'secret-2', redirectUris: [`${appOrigin}/cb`] };
    const second = await startOidcProvider({ accounts: [TEACHER], clients: [own], emailInIdToken: false });
    try {
      expect(second.port).not.toBe(provider.port);
      const flow = await signIn(own, TEACHER.email, 'secret', second.issuer);
      const tokens = await exchange(own, flow.code, flow.verifier, 'basic', second.issuer);
      const { payload } = await verifyIdToken(String(tokens.body.id_token), own, second.issuer);
      expect(payload.sub).toBe(TEACHER.id);
      expect(payload.nonce).toBe(flow.nonce);
      expect(payload).not.toHaveProperty('email');
      expect(payload).not.toHaveProperty('email_verified');
      const userinfo = await fetch(`${second.issuer}/me`, { headers: { authorization: `Bearer ${String(tokens.body.access_token)}` } });
      expect(await userinfo.json()).toMatchObject({ sub: TEACHER.id, email: TEACHER.email, email_verified: true });
    } finally {
      await second.stop();
    }
  });
});
