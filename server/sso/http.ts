/**
 * The single sign-on routes (docs/api.md "Single sign-on"):
 *
 * - `GET /api/v1/sso/providers`: which "Continue with …" buttons the sign-in page shows, and for a signed-in user
 *   the school their address routes to (Manage Account's "Link your school account").
 * - `POST /api/v1/sso/sign-in` `{email}` or `{provider}`: where to send the browser. A school address goes to the
 *   provider of its domain; the answer is the provider's authorization address (code flow, PKCE S256, state and
 *   nonce, all better-auth's) plus the state cookie. The page then navigates there in full. The provider comes
 *   back to `/api/v1/auth/callback/<provider id>`, which signs in and redirects to the page asked for, or to
 *   `/sign-in?error=<code>`.
 * - `POST /api/v1/sso/link` `{provider?}`: the same round trip, linking the provider's account to the signed-in one
 *   (better-auth's link-social), back to Manage Account.
 *
 * better-auth's own `/auth/sign-in/social`, `/auth/link-social` and `/auth/sign-in/oauth2` answer 404
 * (server/auth/http.ts): these routes are the only way in, so every request is checked here first.
 */
import type { Context, Hono } from 'hono';
import { AUTH_BASE_PATH, type Auth } from '../auth/auth';
import type { Limiters } from '../auth/limits';
import type { Database } from '../db/client';
import type { PlatformProviders } from './config';
import { requireSession, sessionOf, toErrorShape } from '../auth/http';
import { clientIp, minutes, tooManyRequests } from '../auth/limits';
import { HttpError } from '../kit/errors';
import { jsonBody } from '../kit/validate';
import { NO_STORE } from '../kit/headers';
import { and, eq } from 'drizzle-orm';
import { account } from '../db/schema';
import { providerForEmail } from './providers';
import {
  SSO_NOT_CONFIGURED_MESSAGE,
  SsoLinkBodySchema,
  SsoSignInBodySchema,
  type PlatformProvider,
  type SsoProviders,
} from '../../src/domain/sso';
import { CROSS_DOMAIN_MESSAGE, resolveRedirect } from '../../src/domain/redirect';
import { paths, withRedirect } from '../../src/domain/routes';

/** Where Manage Account is, for the link round trip. */
const ACCOUNT_PAGE = paths.account;

/** Whether the user signs in with this provider already (an account row for it). */
async function hasAccount(database: Database, userId: string, providerId: string): Promise<boolean> {
  const [row] = await database.db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, providerId)));
  return !!row;
}

const notConfigured = () => new HttpError(404, [{ code: 'sso_not_configured', message: SSO_NOT_CONFIGURED_MESSAGE }]);

/**
 * Call one of better-auth's provider routes in this request's name: the same headers (session cookie, origin), the
 * route's own address on this origin (better-auth takes the callback address, `<origin>/api/v1/auth/callback/<id>`,
 * from it when PUBLIC_URL is not set), and a JSON body.
 */
function authRequest(c: Context, route: string, body: object): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Request(new URL(`${AUTH_BASE_PATH}${route}`, c.req.url), { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The provider's address from better-auth's answer, with its cookies (the state), as our JSON answer. */
async function redirectAnswer(c: Context, response: Response): Promise<Response> {
  if (response.status !== 200) return toErrorShape(response);
  const { url } = (await response.json()) as { url?: unknown };
  if (typeof url !== 'string') throw new HttpError(500, [{ code: 'internal_error', message: 'The sign-in could not be started.' }]);
  const headers = new Headers({ ...NO_STORE, 'Content-Type': 'application/json; charset=utf-8' });
  for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  return new Response(JSON.stringify({ url }), { status: 200, headers });
}

export interface SsoDeps {
  auth: Auth;
  limiters: Limiters;
  platform: PlatformProviders;
  database: Database;
}

export function registerSsoApi(api: Hono<any>, { auth, limiters, platform, database }: SsoDeps): void {
  const enabled = (provider: PlatformProvider) => !!platform[provider];

  /** The provider id a sign-in or link goes to: a configured platform provider, or the school of an address. */
  async function chosen(choice: { provider: PlatformProvider } | { email: string }): Promise<string> {
    if ('provider' in choice) {
      if (!enabled(choice.provider)) throw notConfigured();
      return choice.provider;
    }
    const found = await providerForEmail(database.db, choice.email);
    if (!found) throw notConfigured();
    return found.id;
  }

  api.get('/sso/providers', async (c) => {
    const session = await sessionOf(auth, c);
    const school = session ? await providerForEmail(database.db, session.user.email) : null;
    const linked = school && session ? await hasAccount(database, session.user.id, school.id) : false;
    const answer: SsoProviders = {
      google: enabled('google'),
      microsoft: enabled('microsoft'),
      school: school ? { name: school.organizationName, linked } : null,
    };
    return c.json(answer, 200, NO_STORE);
  });

  api.post('/sso/sign-in', async (c) => {
    const body = await jsonBody(c, SsoSignInBodySchema, "{email} or {provider: 'google' | 'microsoft'}, with an optional redirectUrl");
    const ip = clientIp(c, auth.settings.trustProxy);
    const wait = await limiters.ssoSignInPerIp.blockedFor(ip);
    if (wait > 0) throw tooManyRequests(`Too many sign-in attempts. Try again in ${minutes(wait)}.`, wait);
    await limiters.ssoSignInPerIp.hit(ip);

    const origin = new URL(c.req.url).origin;
    const target = resolveRedirect(body.redirectUrl, origin);
    if (!target.ok) throw new HttpError(400, [{ code: 'invalid_parameter', message: CROSS_DOMAIN_MESSAGE }]);
    const provider = await chosen(body);
    const loginHint = 'email' in body ? body.email : undefined;
    const response = await auth.forRequest(c.req.raw).handler(
      authRequest(c, '/sign-in/social', {
        provider,
        callbackURL: target.path,
        // better-auth adds `error=<code>` to this address when the round trip fails.
        errorCallbackURL: body.redirectUrl ? withRedirect(paths.signIn, target.path) : paths.signIn,
        disableRedirect: true,
        ...(loginHint ? { loginHint } : {}),
      }),
    );
    return redirectAnswer(c, response);
  });

  api.post('/sso/link', async (c) => {
    const session = await requireSession(auth, c);
    const body = await jsonBody(c, SsoLinkBodySchema, "{provider?: 'google' | 'microsoft'}");
    const provider = await chosen(body.provider ? { provider: body.provider } : { email: session.user.email });
    const response = await auth.forRequest(c.req.raw).handler(
      authRequest(c, '/link-social', {
        provider,
        callbackURL: `${ACCOUNT_PAGE}?linked=${encodeURIComponent(provider)}`,
        errorCallbackURL: ACCOUNT_PAGE,
        disableRedirect: true,
      }),
    );
    return redirectAnswer(c, response);
  });
}
