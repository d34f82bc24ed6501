/**
 * A verified email change, on better-auth's change-email flow: with `updateEmailWithoutVerification`
 * off and `emailVerification.sendVerificationEmail` set, POST /auth/change-email changes nothing and mails a link
 * to the new address (a signed token, EMAIL_CHANGE_EXPIRES_IN_S); GET /auth/verify-email?token=… applies the
 * change, and then the old address gets a notice (server/auth/http.ts calls `sendEmailChangedNotice`). Opening the
 * link proves the new address, so the change also marks the email verified (`verifyChangedEmail`).
 */
import type { Logger } from 'pino';
import type { BetterAuthOptions, User } from 'better-auth';
import { eq } from 'drizzle-orm';
import { user } from '../db/authSchema';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { emailChangeMessage, emailChangedNotice, schoolOf } from '../mail/messages';

/** How long the link to confirm a new email works. Not in the spec. @default 86400 (24 hours) */
export const EMAIL_CHANGE_EXPIRES_IN_S = 24 * 60 * 60;

/** What better-auth's email-verification token says (a JWT it signs and checks; we only read it). */
const TokenPayload = z.object({ email: z.string(), updateTo: z.string().optional(), requestType: z.string().optional() });

/** The payload of an email-verification token, unchecked (better-auth checks its signature), or null. */
export function readVerificationToken(token: string): z.infer<typeof TokenPayload> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const parsed = TokenPayload.safeParse(JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface EmailChangeMailDeps {
  database: Database;
  mailer: Mailer;
  logger: Logger;
}

/**
 * better-auth's `sendVerificationEmail`, which it calls for an email change with the user at the new address. Only
 * email changes send it here (POST /auth/send-verification-email is closed, server/auth/http.ts). Sent in the
 * background; a failure is logged.
 */
export function sendEmailChangeMail({ database, mailer, logger }: EmailChangeMailDeps) {
  return async ({ user: account, url, token }: { user: User; url: string; token: string }): Promise<void> => {
    const payload = readVerificationToken(token);
    if (!payload?.updateTo) {
      logger.warn('email verification: only email changes send mail; nothing sent');
      return;
    }
    void (async () => {
      const school = await schoolOf(database, account.id);
      await mailer.send(
        emailChangeMessage({ to: payload.updateTo!, name: account.name, oldEmail: payload.email, school, link: url, expiresInMinutes: EMAIL_CHANGE_EXPIRES_IN_S / 60 }),
      );
    })().catch((err: unknown) => logger.error({ err }, 'email change: the mail could not be sent'));
  };
}

type UserUpdateBefore = NonNullable<NonNullable<NonNullable<NonNullable<BetterAuthOptions['databaseHooks']>['user']>['update']>['before']>;

/**
 * better-auth's `databaseHooks.user.update.before`: the update that applies an email change marks the new address
 * verified. better-auth's GET /verify-email applies a `change-email-verification` token by writing the new email
 * with the account's old `emailVerified` (false for an account that never proved its first address), although the
 * link was opened from the new address's mailbox, which proves it. That update is the only one made while serving
 * /verify-email with an `email` from a token of that type, and better-auth has checked the token's signature before
 * it (the payload is only read here); its other branch (`updateEmailWithoutVerification`, off here) is left alone.
 */
export const verifyChangedEmail: UserUpdateBefore = async (data, ctx) => {
  if (ctx?.path !== '/verify-email' || typeof data.email !== 'string') return;
  const token: unknown = (ctx.query as { token?: unknown } | undefined)?.token;
  const payload = typeof token === 'string' ? readVerificationToken(token) : null;
  if (payload?.requestType !== 'change-email-verification' || payload.updateTo?.toLowerCase() !== data.email.toLowerCase()) return;
  return { data: { emailVerified: true } };
};

/** After a change applied through `token`: tell the old address. In the background; a failure is logged. */
export function sendEmailChangedNotice({ database, mailer, logger }: EmailChangeMailDeps, token: string): void {
  const payload = readVerificationToken(token);
  if (!payload?.updateTo || payload.requestType !== 'change-email-verification') return;
  const { email: oldEmail, updateTo: newEmail } = payload;
  void (async () => {
    const [found] = await database.db.select({ id: user.id, name: user.name }).from(user).where(eq(user.email, newEmail)).limit(1);
    const school = found ? await schoolOf(database, found.id) : null;
    await mailer.send(emailChangedNotice({ to: oldEmail, name: found?.name ?? '', newEmail, school }));
  })().catch((err: unknown) => logger.error({ err }, 'email change: the notice to the old address could not be sent'));
}
