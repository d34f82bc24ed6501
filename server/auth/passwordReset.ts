/**
 * Forgot password, on better-auth's password-reset support (POST /auth/request-password-reset, POST
 * /auth/reset-password): better-auth makes the token (24 characters of [A-Za-z0-9], 142 bits), keeps it in the
 * `verification` table for RESET_PASSWORD_TOKEN_EXPIRES_IN_S, consumes it once, and ends every session of the user
 * when the password changes. We only send the mail (server/mail), whose link opens the app's /reset-password page
 * rather than better-auth's redirecting endpoint, and make links for `npm run admin -- user reset-link <email>`.
 *
 * Unknown addresses get the same answer as known ones, and the mail goes out in the background, so the answer's
 * time does not tell whether an account exists (better-auth does a look-up of the same cost for unknown ones).
 */
import type { Logger } from 'pino';
import type { User } from 'better-auth';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { passwordResetMessage, schoolOf } from '../mail/messages';
import { resetPasswordPath } from '../../src/domain/routes';
import type { AuthSettings } from './config';

/** How long a reset link works. The issue asks for 1 hour. @default 3600 */
export const RESET_PASSWORD_TOKEN_EXPIRES_IN_S = 60 * 60;

/** The identifier better-auth stores a reset token under in `verification` (its routes/password.ts). */
export const RESET_IDENTIFIER_PREFIX = 'reset-password:';

/** The app's page that sets a new password with `token`, on `origin`. */
export function resetLink(origin: string, token: string): string {
  return new URL(resetPasswordPath(token), origin).href;
}

/** The origin users reach: PUBLIC_URL's, else the request's. */
export function publicOriginOf(settings: AuthSettings, request: Request | undefined): string | null {
  if (settings.publicOrigin) return settings.publicOrigin;
  return request ? new URL(request.url).origin : null;
}

export interface ResetMailDeps {
  database: Database;
  mailer: Mailer;
  settings: AuthSettings;
  logger: Logger;
}

/**
 * better-auth's `sendResetPassword`: compose the mail and send it in the background (its delivery, or failure,
 * must not change the answer or its time). Failures are logged.
 */
export function sendResetPasswordMail({ database, mailer, settings, logger }: ResetMailDeps) {
  return async ({ user, token }: { user: User; token: string }, request?: Request): Promise<void> => {
    const origin = publicOriginOf(settings, request);
    if (!origin) {
      logger.error('password reset: no origin for the link (set PUBLIC_URL)');
      return;
    }
    const link = resetLink(origin, token);
    void (async () => {
      const school = await schoolOf(database, user.id);
      await mailer.send(
        passwordResetMessage({ to: user.email, name: user.name, school, link, expiresInMinutes: RESET_PASSWORD_TOKEN_EXPIRES_IN_S / 60 }),
      );
    })().catch((err: unknown) => logger.error({ err }, 'password reset: the mail could not be sent'));
  };
}
