/** The reset link an administrator makes for a user (`npm run admin -- user reset-link`), without the HTTP API. */
import crypto from 'node:crypto';
import pino from 'pino';
import type { Database } from '../db/client';
import { createMailer } from '../mail/mailer';
import { createAuth, PASSWORD_ONLY, type AuthInstance } from './auth';
import { authSettings } from './config';
import { RESET_IDENTIFIER_PREFIX, RESET_PASSWORD_TOKEN_EXPIRES_IN_S, resetLink } from './passwordReset';

/**
 * A one-time reset link for the account of `email` (for `npm run admin -- user reset-link`), made as better-auth
 * makes its own: the same identifier, lifetime and single use. Null when there is no such account.
 */
export async function issueResetLink(instance: AuthInstance, email: string, origin: string): Promise<{ link: string; expiresAt: Date } | null> {
  const context = await instance.$context;
  const found = await context.internalAdapter.findUserByEmail(email.trim().toLowerCase());
  if (!found) return null;
  const token = crypto.randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + RESET_PASSWORD_TOKEN_EXPIRES_IN_S * 1000);
  await context.internalAdapter.createVerificationValue({ value: found.user.id, identifier: `${RESET_IDENTIFIER_PREFIX}${token}`, expiresAt });
  return { link: resetLink(origin, token), expiresAt };
}

/**
 * `npm run admin -- user reset-link <email>`: a reset link made on `database` (the server's own through the admin
 * socket, or one the command opened), on better-auth's own verification store. The link's origin is `baseUrl`,
 * else PUBLIC_URL's, else http://localhost:<port()> (the command gives the configured PORT). Null when there is no
 * such account.
 */
export async function adminResetLink(
  database: Database,
  email: string,
  options: { baseUrl?: string; env?: NodeJS.ProcessEnv; port: () => number },
): Promise<{ link: string; expiresAt: Date } | null> {
  const env = options.env ?? process.env;
  const settings = authSettings(env);
  const logger = pino({ level: 'silent' });
  // This instance signs nothing (no cookie, no session): a secret of its own will do.
  const secret = crypto.randomBytes(32).toString('base64url');
  const auth = createAuth({
    database,
    secret,
    settings,
    logger,
    mailer: createMailer({ env, dataDir: null, logger }),
    signIn: PASSWORD_ONLY,
  });
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : (settings.publicOrigin ?? `http://localhost:${options.port()}`);
  return issueResetLink(auth.forRequest(new Request(origin)), email, origin);
}
