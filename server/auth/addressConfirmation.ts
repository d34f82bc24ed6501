/**
 * Verified invitations. Accepting an invitation needs the invited address to be proven: the
 * signed-in account's email must be the invited one *and* verified (server/auth/organizations.ts refuses
 * accept-invitation with 403 email_not_verified otherwise). Until then there is no membership: the invitation stays
 * pending and the school's license features do not apply.
 *
 * An address is proven by a confirmation link mailed to it: better-auth's own email-verification token (a JWT
 * signed with the auth secret, bound to the user id) on its GET /auth/verify-email, which marks the email verified
 * and redirects to the invitation's page (`callbackURL`). The link is mailed
 * - when someone signs up or signs in with an unverified address that has a pending invitation (the newest one);
 * - on request, from the invitation's page: POST /api/v1/invitations/{invitationId}/confirmation-email.
 * Both are limited per address and per IP address (server/auth/limits.ts). better-auth's own
 * POST /auth/send-verification-email stays closed: it would mail any account that asks. The invitation look-ups
 * and what makes one open (`isOpen`) are in server/accounts/service.ts, shared with the accept check.
 */
import { createEmailVerificationToken } from 'better-auth/api';
import type { Mailer } from '../mail/mailer';
import { addressConfirmationMessage } from '../mail/messages';
import { AUTH_BASE_PATH, type AuthInstance } from './auth';
import { acceptInvitationPath } from '../../src/domain/routes';
import type { InvitationWithSchool } from '../accounts/service';

/** How long a confirmation link works. Not in the spec. @default 86400 (24 hours) */
export const ADDRESS_CONFIRMATION_EXPIRES_IN_S = 24 * 60 * 60;

/** The confirmation link for `account`'s address, on `origin`, that comes back to the invitation's page. */
export async function confirmationLink(instance: AuthInstance, origin: string, account: { id: string; email: string }, invitationId: string): Promise<string> {
  const { secret } = await instance.$context;
  const token = await createEmailVerificationToken(secret, account.email, undefined, ADDRESS_CONFIRMATION_EXPIRES_IN_S, { userId: account.id });
  const url = new URL(`${AUTH_BASE_PATH}/verify-email`, origin);
  url.searchParams.set('token', token);
  url.searchParams.set('callbackURL', acceptInvitationPath(invitationId));
  return url.href;
}

/** Mail `account` the link that confirms its address for `invite`. Rejects when the mail cannot be sent. */
export async function mailAddressConfirmation(
  { instance, mailer }: { instance: AuthInstance; mailer: Mailer },
  origin: string,
  account: { id: string; email: string; name: string },
  invite: Pick<InvitationWithSchool, 'id' | 'organizationName'>,
): Promise<void> {
  const link = await confirmationLink(instance, origin, account, invite.id);
  await mailer.send(
    addressConfirmationMessage({ to: account.email, name: account.name, school: invite.organizationName, link, expiresInMinutes: ADDRESS_CONFIRMATION_EXPIRES_IN_S / 60 }),
  );
}

/** What sign-up and sign-in answer about the user (better-auth's `{ user }`), when it is that. */
export function signedInUser(body: unknown): { id: string; email: string; name: string; emailVerified: boolean } | null {
  const u = (body as { user?: Record<string, unknown> } | null)?.user;
  if (!u || typeof u.id !== 'string' || typeof u.email !== 'string') return null;
  return { id: u.id, email: u.email, name: typeof u.name === 'string' ? u.name : '', emailVerified: u.emailVerified === true };
}
