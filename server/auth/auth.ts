/**
 * better-auth on our database (drizzle adapter, provider 'pg', on PGlite or PostgreSQL alike): email and
 * password, session cookies (httpOnly, SameSite=Lax, Secure over HTTPS) and the organization plugin.
 *
 * Cookie attributes are fixed when an instance is built, so there are two instances, identical but for the
 * Secure flag (and better-auth's `__Secure-` cookie prefix that goes with it); each request is served by the one
 * that matches its scheme. With PUBLIC_URL set, its scheme decides for every request.
 */
import { betterAuth, type BetterAuthOptions, type BetterAuthPlugin } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { organization } from 'better-auth/plugins';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { authSchema } from '../db/authSchema';
import { PRODUCT_NAME } from '../../src/domain/constants';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from './passwords';
import type { AuthSettings } from './config';
import type { Mailer } from '../mail/mailer';
import { RESET_PASSWORD_TOKEN_EXPIRES_IN_S, sendResetPasswordMail } from './passwordReset';
import { EMAIL_CHANGE_EXPIRES_IN_S, sendEmailChangeMail, verifyChangedEmail } from './emailChange';
import { activatePreferredOrganization, checkOrganizationRequest, INVITATION_EXPIRES_IN_S, mailInvitation } from './organizations';

/** Where better-auth's endpoints live (sign-up, sign-in, sign-out, sessions, organizations). */
export const AUTH_BASE_PATH = '/api/v1/auth';
/** Prefix of our cookie names: `lectern.session_token` (`__Secure-lectern.session_token` over HTTPS). */
export const AUTH_COOKIE_PREFIX = 'lectern';
/** How long a session lasts without use; it is extended at most once a day while in use. better-auth's defaults. */
export const SESSION_EXPIRES_IN_S = 7 * 24 * 60 * 60;
export const SESSION_UPDATE_AGE_S = 24 * 60 * 60;

/** The endpoints that take a new password, and the body field that carries it. */
const PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
  '/set-password': 'newPassword',
};

/**
 * What a feature above auth adds to sign-in: single sign-on (server/sso/index.ts) gives its providers, its plugin
 * and its hooks. The composer (server/server.ts) passes it in, so auth depends on no feature above it.
 */
export interface SignInExtensions {
  /** better-auth's social providers ("Continue with Google", "Continue with Microsoft"), where configured. */
  socialProviders: NonNullable<BetterAuthOptions['socialProviders']>;
  /** Plugins beside the organization plugin. */
  plugins: BetterAuthPlugin[];
  /** better-auth's `user.validateUserInfo`: whether a provider's user may be created, linked or signed in. */
  validateUserInfo?: NonNullable<BetterAuthOptions['user']>['validateUserInfo'];
  /** After a user is created. */
  userCreated?: (created: { id: string; email: string; emailVerified: boolean }) => Promise<void>;
  /** Before a session starts, with its user's id. */
  sessionStarting?: (userId: string) => Promise<void>;
  /** Where a provider round trip that fails before its own error address is known comes back to. */
  errorURL?: string;
}

/** Email and password only: no provider, plugin or hook of another feature. */
export const PASSWORD_ONLY: SignInExtensions = { socialProviders: {}, plugins: [] };

export interface AuthOptions {
  database: Database;
  secret: string;
  settings: AuthSettings;
  logger: Logger;
  /** Where mail goes (server/mail): SMTP, or the outbox. */
  mailer: Mailer;
  /** What single sign-on adds to sign-in. */
  signIn: SignInExtensions;
}

function buildAuth({ database, secret, settings, logger, mailer, signIn }: AuthOptions, secure: boolean) {
  const preferOrganization = activatePreferredOrganization(database.db, logger);
  return betterAuth({
    appName: PRODUCT_NAME,
    secret,
    basePath: AUTH_BASE_PATH,
    // Without PUBLIC_URL, better-auth takes the origin from each request.
    baseURL: settings.publicOrigin,
    database: drizzleAdapter(database.db, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      // Forgot password (server/auth/passwordReset.ts): a single-use link for 1 hour, by mail; using it ends every
      // session of the user.
      sendResetPassword: sendResetPasswordMail({ database, mailer, settings, logger }),
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TOKEN_EXPIRES_IN_S,
      revokeSessionsOnPasswordReset: true,
    },
    session: { expiresIn: SESSION_EXPIRES_IN_S, updateAge: SESSION_UPDATE_AGE_S },
    // Manage Account changes the email (server/auth/emailChange.ts): a link goes to the new address, and the change
    // applies only when it is opened; the old address then gets a notice (server/auth/http.ts).
    // Single sign-on (server/sso, docs/sso.md): which provider's users may be created, linked or signed in.
    user: { changeEmail: { enabled: true, updateEmailWithoutVerification: false }, validateUserInfo: signIn.validateUserInfo },
    // "Continue with Google" / "Continue with Microsoft", where configured.
    socialProviders: signIn.socialProviders,
    account: {
      // A provider's account joins an existing one with the same email only when both addresses are verified: no
      // provider is trusted by name, and the local address must be confirmed (better-auth's requireLocalEmailVerified).
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true, allowDifferentEmails: false },
      // The provider's tokens are not used after sign-in; what is kept of them is encrypted.
      encryptOAuthTokens: true,
    },
    emailVerification: { sendVerificationEmail: sendEmailChangeMail({ database, mailer, logger }), expiresIn: EMAIL_CHANGE_EXPIRES_IN_S },
    // Schools are created by the operator (npm run admin -- org create), not by users. Their admins invite by link
    // (server/auth/organizations.ts), and the link is mailed too. Accepting needs the signed-in email to be the
    // invited one and verified; our hook checks the latter (server/auth/organizations.ts says why better-auth's
    // own requireEmailVerificationOnInvitation stays off).
    plugins: [
      organization({
        allowUserToCreateOrganization: false,
        invitationExpiresIn: INVITATION_EXPIRES_IN_S,
        cancelPendingInvitationsOnReInvite: true,
        requireEmailVerificationOnInvitation: false,
        sendInvitationEmail: mailInvitation({ mailer, settings, logger }),
      }),
      ...signIn.plugins,
    ],
    databaseHooks: {
      // A first sign-in through a provider joins the organization of its verified domain (signIn.userCreated,
      // server/sso/membership.ts). Nothing of a provider's is kept beyond the sign-in: no picture address, no tokens
      // (docs/sso.md "What is kept"). An email change applied by its link marks the new address verified
      // (server/auth/emailChange.ts).
      user: {
        create: {
          before: async (created) => ({ data: { ...created, image: null } }),
          after: async (created) => {
            await signIn.userCreated?.(created);
          },
        },
        update: { before: verifyChangedEmail },
      },
      account: { create: { before: async (created) => ({ data: withoutTokens(created) }) }, update: { before: async (changed) => ({ data: withoutTokens(changed) }) } },
      // A new session first runs signIn.sessionStarting (single sign-on claims the user's roster entries, a verified
      // address only), then starts in the user's preferred organization (a non-default one first; docs/decisions.md).
      session: {
        create: {
          before: async (session) => {
            await signIn.sessionStarting?.(session.userId);
            return preferOrganization(session);
          },
        },
      },
    },
    // Our own limits (server/auth/http.ts) answer with the API's error shape.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    trustedOrigins: (request) => {
      const origins = settings.publicOrigin ? [settings.publicOrigin] : [];
      const host = request?.headers.get('host');
      if (host) origins.push(`http://${host}`, `https://${host}`);
      return origins;
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: AUTH_COOKIE_PREFIX,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: settings.trustProxy ? { ipAddressHeaders: ['x-forwarded-for'] } : { disableIpTracking: true },
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        // better-auth warns that no baseURL is set when PUBLIC_URL is absent; that is intended here.
        if (/Base URL is not set/.test(message)) return;
        logger[level]({ args: args.length ? args : undefined }, `better-auth: ${message}`);
      },
    },
    // Client errors (wrong password, taken email, a 415, …) are answers, not faults: only server errors are logged as
    // such. better-auth's errors come from better-call, whose APIError is another class than the one better-auth
    // exports, so they are told by name and numeric status.
    onAPIError: {
      // A provider round trip that fails before its own error address is known comes back to the sign-in page.
      errorURL: signIn.errorURL,
      onError: (error) => {
        const { name, status, statusCode, message } = (error ?? {}) as { name?: unknown; status?: unknown; statusCode?: unknown; message?: unknown };
        const answered = name === 'APIError' && typeof statusCode === 'number' && statusCode < 500;
        if (!answered) logger.error({ err: error }, 'better-auth: request failed');
        else logger.debug({ status, statusCode, message }, 'better-auth: request refused');
      },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await checkOrganizationRequest(database.db, ctx);
        const field = PASSWORD_FIELDS[ctx.path];
        if (!field) return;
        const password = (ctx.body as Record<string, unknown> | undefined)?.[field];
        if (typeof password !== 'string') return;
        const problem = passwordProblem(password);
        if (problem) throw new APIError('BAD_REQUEST', { code: 'WEAK_PASSWORD', message: problem });
      }),
    },
  });
}

/** An account row without the provider's tokens: Lectern calls no provider API after sign-in. */
function withoutTokens<T extends Record<string, unknown>>(row: T): T {
  return { ...row, accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null };
}

export type AuthInstance = ReturnType<typeof buildAuth>;

export interface Auth {
  /** The instance for a request: Secure cookies over HTTPS (or when PUBLIC_URL is https). */
  forRequest(request: Request): AuthInstance;
  isHttps(request: Request): boolean;
  settings: AuthSettings;
  logger: Logger;
}

export function createAuth(options: AuthOptions): Auth {
  const instances = new Map<boolean, AuthInstance>();
  const { settings } = options;
  const isHttps = (request: Request) => {
    if (settings.publicOrigin) return settings.publicOrigin.startsWith('https:');
    if (new URL(request.url).protocol === 'https:') return true;
    return settings.trustProxy && request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  };
  return {
    settings,
    logger: options.logger,
    isHttps,
    forRequest(request) {
      const secure = isHttps(request);
      let instance = instances.get(secure);
      if (!instance) {
        instance = buildAuth(options, secure);
        instances.set(secure, instance);
      }
      return instance;
    },
  };
}
