/**
 * Mounts better-auth under /api/v1/auth/* with our rate limits and our error shape, and gives the other routes
 * the signed-in user. Everything better-auth answers with an error becomes `{errors:[{code,message}]}`, with
 * clear messages for a wrong password, a taken email and a weak password.
 */
import type { Context, Hono } from 'hono';
import type { Auth, AuthInstance } from './auth';
import { AUTH_BASE_PATH } from './auth';
import { clientIp, minutes, tooManyRequests, type Limiters } from './limits';
import { HttpError, badRequest } from '../kit/errors';
import type { Mailer } from '../mail/mailer';
import type { Database } from '../db/client';
import { sendEmailChangedNotice } from './emailChange';
import { mailAddressConfirmation, signedInUser } from './addressConfirmation';
import { invitationWithSchool, isOpen, newestOpenInvitationFor } from '../accounts/service';
import { publicOriginOf } from './passwordReset';
import { param, unsupportedMediaType } from '../kit/validate';
import { z } from 'zod';
import { NO_STORE } from '../kit/headers';
import { readBodyUpTo } from '../kit/body';
import { EDGE_MAX_BODY_BYTES, EDGE_MESSAGES, isJsonType, mediaTypeOf } from '../kit/edgeInput';
import type { TextKind } from '../../src/domain/textRules';

export interface AuthDeps {
  auth: Auth;
  limiters: Limiters;
  mailer: Mailer;
  database: Database;
}

/** Our answer to one of better-auth's errors: our code, with a status and a message only where its own do not fit. */
interface OurError {
  status?: HttpError['status'];
  code: string;
  /** Without one, better-auth's message stands. */
  message?: string;
}

const EMAIL_TAKEN: OurError = { status: 409, code: 'email_taken', message: 'An account with this email already exists. Sign in instead.' };

/** better-auth's error codes we answer in our own words (and sometimes with a more fitting status). */
const ERRORS: Record<string, OurError> = {
  INVALID_EMAIL_OR_PASSWORD: { code: 'invalid_credentials', message: 'The email or password is incorrect.' },
  INVALID_PASSWORD: { code: 'invalid_credentials', message: 'The password is incorrect.' },
  USER_ALREADY_EXISTS: EMAIL_TAKEN,
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: EMAIL_TAKEN,
  WEAK_PASSWORD: { status: 400, code: 'weak_password' },
  PASSWORD_TOO_SHORT: { status: 400, code: 'weak_password', message: 'Password must be at least 8 characters.' },
  PASSWORD_TOO_LONG: { status: 400, code: 'invalid_parameter', message: 'Password must be at most 128 characters.' },
  INVALID_EMAIL: { status: 400, code: 'invalid_parameter', message: 'Enter a valid email address.' },
  VALIDATION_ERROR: { status: 400, code: 'invalid_parameter' },
  // The organization plugin (Manage Organization, invitation links).
  INVITATION_NOT_FOUND: { status: 404, code: 'invitation_not_found', message: 'This invitation is no longer valid: it was cancelled or accepted, or it has expired.' },
  YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION: {
    status: 403,
    code: 'not_invitation_recipient',
    message: 'This invitation is for another email address. Sign in with the invited address to accept it.',
  },
  USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION: { status: 409, code: 'already_member', message: 'This person is already a member of the organization.' },
  USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION: { status: 409, code: 'already_invited', message: 'This person has a pending invitation already.' },
  MEMBER_NOT_FOUND: { status: 404, code: 'member_not_found', message: 'No such member in this organization.' },
  // Verified invitations (server/auth/addressConfirmation.ts): the message is the hook's.
  EMAIL_NOT_VERIFIED: { status: 403, code: 'email_not_verified' },
  // Forgot password (server/auth/passwordReset.ts).
  INVALID_TOKEN: {
    status: 400,
    code: 'invalid_token',
    message: 'This password reset link is no longer valid: it was used already or it has expired. Ask for a new one.',
  },
};

/** An entry of ERRORS with its own status and message, as an error our own routes throw: the answer better-auth's routes give. */
function ourError(rawCode: string): HttpError {
  const { status = 400, code, message = '' } = ERRORS[rawCode]!;
  return new HttpError(status, [{ code, message }]);
}

/** better-auth's provider routes that are reached only through /api/v1/sso/* (server/sso/http.ts). */
const SSO_ONLY_THROUGH_OUR_ROUTES = new Set(['/sign-in/social', '/link-social', '/sign-in/oauth2', '/oauth2/link']);

/**
 * better-auth's fields, by name, under their kind of the text rule (src/domain/textRules.ts), wherever they appear in
 * a body or a query string of /auth/* (sign-up, sign-in, password reset, email change, update-user, the organization
 * plugin's routes, a provider's callback). The edge applies them (server/kit/edgeInput.ts, `authFieldKinds`); any
 * other string keeps the edge's general rule.
 */
export const AUTH_FIELD_KINDS: Readonly<Record<string, TextKind>> = {
  name: 'name',
  firstName: 'name',
  lastName: 'name',
  email: 'email',
  newEmail: 'email',
  updateTo: 'email',
  memberIdOrEmail: 'email',
  loginHint: 'email',
  token: 'token',
  code: 'token',
  state: 'token',
  nonce: 'token',
  accessToken: 'token',
  refreshToken: 'token',
  callbackURL: 'url',
  errorCallbackURL: 'url',
  newUserCallbackURL: 'url',
  redirectTo: 'url',
  image: 'url',
  logo: 'url',
  iss: 'url',
  id: 'identifier',
  invitationId: 'identifier',
  organizationId: 'identifier',
  organizationSlug: 'identifier',
  slug: 'identifier',
  memberId: 'identifier',
  userId: 'identifier',
  teamId: 'identifier',
  accountId: 'identifier',
  role: 'identifier',
  roleName: 'identifier',
  provider: 'identifier',
  providerId: 'identifier',
  requestType: 'identifier',
};

/** The edge's field kinds for a request path: better-auth's under /api/v1/auth/. */
export function authFieldKinds(path: string): Readonly<Record<string, TextKind>> | undefined {
  return path.startsWith(`${AUTH_BASE_PATH}/`) ? AUTH_FIELD_KINDS : undefined;
}

/** A provider's callback, which may come back as a form post (`response_mode=form_post`). */
const CALLBACK_PATH = /^\/(?:oauth2\/)?callback\//;

export const AUTH_BODY_SHAPE = 'a JSON object';

/**
 * The request better-auth serves. The edge has applied the text rule with AUTH_FIELD_KINDS already; here a POST
 * without a body (sign-out, as documented) is given `{}`, a body of another type than JSON is a 415 (a provider's
 * callback may also post a form), and a body that is not JSON a 400, each in our error shape. Nothing here touches
 * the database.
 */
async function checkedAuthRequest(c: Context, path: string): Promise<Request> {
  const request = c.req.raw;
  if (request.method !== 'POST') return request;
  const type = mediaTypeOf(c);
  const isForm = type === 'application/x-www-form-urlencoded' && CALLBACK_PATH.test(path);
  if (type && !isJsonType(type) && !isForm) throw unsupportedMediaType(AUTH_BODY_SHAPE);
  const bytes = await readBodyUpTo(request, EDGE_MAX_BODY_BYTES);
  if (!bytes) throw new HttpError(413, [{ code: 'payload_too_large', message: EDGE_MESSAGES.tooLarge }]);
  const text = new TextDecoder().decode(bytes);
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  if (!text.trim()) {
    headers.set('content-type', 'application/json');
    return new Request(request.url, { method: 'POST', headers, body: '{}', signal: request.signal });
  }
  if (!type) throw unsupportedMediaType(AUTH_BODY_SHAPE);
  if (!isForm) {
    try {
      JSON.parse(text);
    } catch {
      throw badRequest(`The body must be JSON: ${AUTH_BODY_SHAPE}`);
    }
  }
  return new Request(request.url, { method: 'POST', headers, body: text, signal: request.signal });
}

/** An invitation id in a path (better-auth's random ids). */
const InvitationIdSchema = z.string().trim().min(1).max(200);

/** The answer to every password reset request, whether or not the address has an account. */
export const PASSWORD_RESET_REQUESTED = 'If an account exists for that address, we sent a link.';

function snake(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

const STATUS_CODES: Record<number, string> = { 400: 'invalid_parameter', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 429: 'rate_limited' };

/** Rewrite an error answer from better-auth into `{errors:[{code,message}]}`; other answers pass unchanged. */
export async function toErrorShape(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  let body: { code?: unknown; message?: unknown } | null = null;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = await response.clone().json();
    } catch {
      body = null;
    }
  }
  const rawCode = typeof body?.code === 'string' ? body.code : '';
  const rawMessage = typeof body?.message === 'string' && body.message ? body.message : response.statusText || 'Request failed';
  const known = ERRORS[rawCode];
  const status = known?.status ?? response.status;
  const error = {
    code: known?.code ?? (rawCode ? snake(rawCode) : (STATUS_CODES[status] ?? 'error')),
    message: known?.message || rawMessage,
  };
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json; charset=utf-8');
  const errors = rawCode === 'VALIDATION_ERROR' ? validationErrors(rawMessage) : [error];
  return new Response(JSON.stringify({ errors }), { status, headers });
}

/** better-auth's '[body.name] Invalid input: …; [body.email] …' as one error per field, in our wording. */
function validationErrors(message: string): { code: string; message: string }[] {
  return message.split('; ').map((part) => {
    const match = /^\[body\.([^\]]+)\]\s*(.*)$/.exec(part);
    if (!match) return { code: 'invalid_parameter', message: part };
    const [, field, text] = match as unknown as [string, string, string];
    return { code: 'invalid_parameter', message: /received undefined/.test(text) ? `${field} is required` : `${field}: ${text}` };
  });
}

async function emailOf(request: Request, field = 'email'): Promise<string | null> {
  try {
    const body = (await request.clone().json()) as Record<string, unknown>;
    const value = body[field];
    return typeof value === 'string' ? value.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}

export function registerAuth(api: Hono<any>, { auth, limiters, mailer, database }: AuthDeps): void {
  api.on(['GET', 'POST'], '/auth/*', async (c) => {
    const path = c.req.path.slice(AUTH_BASE_PATH.length);
    const request = await checkedAuthRequest(c, path);
    const instance = auth.forRequest(request);
    const ip = clientIp(c, auth.settings.trustProxy);

    if (request.method === 'POST' && path === '/sign-in/email') {
      const email = await emailOf(request);
      const wait = Math.max(
        ...(await Promise.all([limiters.signInFailuresPerIp.blockedFor(ip), email ? limiters.signInFailuresPerEmail.blockedFor(email) : 0])),
      );
      if (wait > 0) throw tooManyRequests(`Too many sign-in attempts. Try again in ${minutes(wait)}.`, wait);
      const response = await instance.handler(request);
      if (response.status === 401) {
        await Promise.all([limiters.signInFailuresPerIp.hit(ip), email ? limiters.signInFailuresPerEmail.hit(email) : undefined]);
      }
      if (response.status === 200) void offerAddressConfirmation(instance, request, response);
      return toErrorShape(response);
    }
    if (request.method === 'POST' && path === '/request-password-reset') {
      // Counted whether or not the address has an account, and before better-auth looks, so the limit tells nothing.
      const email = await emailOf(request);
      const wait = Math.max(
        ...(await Promise.all([limiters.passwordResetPerIp.blockedFor(ip), email ? limiters.passwordResetPerEmail.blockedFor(email) : 0])),
      );
      if (wait > 0) throw tooManyRequests(`Too many password reset requests. Try again in ${minutes(wait)}.`, wait);
      await Promise.all([limiters.passwordResetPerIp.hit(ip), email ? limiters.passwordResetPerEmail.hit(email) : undefined]);
      const response = await toErrorShape(await instance.handler(request));
      if (response.status !== 200) return response;
      return c.json({ status: true, message: PASSWORD_RESET_REQUESTED });
    }
    if (SSO_ONLY_THROUGH_OUR_ROUTES.has(path)) {
      // Provider sign-in and linking start at /api/v1/sso/* (server/sso/http.ts), which checks them first.
      throw new HttpError(404, [{ code: 'not_found', message: 'Not found' }]);
    }
    if (request.method === 'POST' && path === '/send-verification-email') {
      // Only email changes send verification mail (server/auth/emailChange.ts); this endpoint would mail anyone.
      throw new HttpError(404, [{ code: 'not_found', message: 'Not found' }]);
    }
    if (request.method === 'POST' && path === '/change-email') {
      const email = await emailOf(request, 'newEmail');
      const wait = Math.max(
        ...(await Promise.all([limiters.emailChangePerIp.blockedFor(ip), email ? limiters.emailChangePerAddress.blockedFor(email) : 0])),
      );
      if (wait > 0) throw tooManyRequests(`Too many email change requests. Try again in ${minutes(wait)}.`, wait);
      await Promise.all([limiters.emailChangePerIp.hit(ip), email ? limiters.emailChangePerAddress.hit(email) : undefined]);
    }
    if (request.method === 'GET' && path === '/verify-email') {
      // An email change applies here: when it did (a redirect without an error, or 200), tell the old address.
      const token = new URL(request.url).searchParams.get('token') ?? '';
      const response = await instance.handler(request);
      const location = response.headers.get('location') ?? '';
      const applied = response.status === 200 || (response.status >= 300 && response.status < 400 && !/[?&]error=/.test(location));
      if (applied && token) sendEmailChangedNotice({ database, mailer, logger: auth.logger }, token);
      if (response.status >= 400) {
        // Without a callbackURL better-auth answers 401; the problem is the link, not the session.
        throw new HttpError(400, [
          { code: 'invalid_token', message: 'This email confirmation link is no longer valid: it has expired or was altered. Change the email again from Manage Account.' },
        ]);
      }
      return response;
    }
    if (request.method === 'POST' && path === '/sign-up/email') {
      const wait = await limiters.signUpPerIp.blockedFor(ip);
      if (wait > 0) throw tooManyRequests(`Too many new accounts from this network. Try again in ${minutes(wait)}.`, wait);
      await limiters.signUpPerIp.hit(ip);
      const response = await instance.handler(request);
      if (response.status === 200) void offerAddressConfirmation(instance, request, response);
      return toErrorShape(response);
    }
    return toErrorShape(await instance.handler(request));
  });

  /**
   * After a sign-up or sign-in: an unverified address with a pending invitation gets the link that confirms it
   * (the newest invitation's), within its limit. In the background; nothing here changes the answer.
   */
  async function offerAddressConfirmation(instance: AuthInstance, request: Request, response: Response): Promise<void> {
    try {
      const account = signedInUser(await response.clone().json());
      if (!account || account.emailVerified) return;
      const invite = await newestOpenInvitationFor(database.db, account.email);
      const origin = publicOriginOf(auth.settings, request);
      if (!invite || !origin) return;
      const address = account.email.toLowerCase();
      if ((await limiters.addressConfirmationPerAddress.blockedFor(address)) > 0) return;
      await limiters.addressConfirmationPerAddress.hit(address);
      await mailAddressConfirmation({ instance, mailer }, origin, account, invite);
    } catch (err) {
      auth.logger.error({ err }, 'invitation: the address confirmation mail could not be sent');
    }
  }

  // A new confirmation link for the invitation's address, asked for from its page (server/auth/addressConfirmation.ts).
  api.post('/invitations/:invitationId/confirmation-email', async (c) => {
    const session = await requireSession(auth, c);
    const invitationId = param(InvitationIdSchema, c.req.param('invitationId'));
    const invite = await invitationWithSchool(database.db, invitationId);
    if (!invite || !isOpen(invite)) throw ourError('INVITATION_NOT_FOUND');
    const { user: account } = session;
    if (invite.email.toLowerCase() !== account.email.toLowerCase()) throw ourError('YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION');
    if (account.emailVerified) {
      throw new HttpError(409, [{ code: 'email_already_verified', message: 'Your email address is confirmed already. Accept the invitation.' }]);
    }
    const address = account.email.toLowerCase();
    const ip = clientIp(c, auth.settings.trustProxy);
    const wait = Math.max(
      ...(await Promise.all([limiters.addressConfirmationPerIp.blockedFor(ip), limiters.addressConfirmationPerAddress.blockedFor(address)])),
    );
    if (wait > 0) throw tooManyRequests(`Too many confirmation emails. Try again in ${minutes(wait)}.`, wait);
    await Promise.all([limiters.addressConfirmationPerIp.hit(ip), limiters.addressConfirmationPerAddress.hit(address)]);
    const origin = publicOriginOf(auth.settings, c.req.raw)!;
    await mailAddressConfirmation({ instance: auth.forRequest(c.req.raw), mailer }, origin, account, invite);
    return c.json({ status: true, email: account.email }, 200, NO_STORE);
  });
}

export type SessionResult = NonNullable<Awaited<ReturnType<AuthInstance['api']['getSession']>>>;

/** The signed-in user and session of a request, or null. */
export async function sessionOf(auth: Auth, c: Context): Promise<SessionResult | null> {
  return auth.forRequest(c.req.raw).api.getSession({ headers: c.req.raw.headers });
}

/** The signed-in user and session, or a 401 with the error shape. */
export async function requireSession(auth: Auth, c: Context): Promise<SessionResult> {
  const session = await sessionOf(auth, c);
  if (!session) throw new HttpError(401, [{ code: 'unauthorized', message: 'Sign in to continue.' }]);
  return session;
}
