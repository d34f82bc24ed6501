/**
 * Who a single sign-on makes someone:
 *
 * - `validateUserInfo` (better-auth's gate before it creates, links or signs in a provider's user): the address
 *   must be verified (`email_verified: true`, or the provider was added with --trust-email), and an
 *   organization's provider may only vouch for addresses in that organization's domains. Otherwise better-auth
 *   creates nothing and the user returns to the sign-in page with `?error=email_not_verified` or
 *   `?error=email_domain_mismatch`.
 * - `joinByDomain` (after a user is created): a first sign-in with a verified address in an organization's
 *   verified domain makes them a member of it, with the organization's default reading role (teacher or none). A
 *   person the organization's roster names gets their membership and role from the roster instead, when the
 *   session starts (server/roster/service.ts claimRosterStaff). Password sign-ups are never verified at creation,
 *   so this only ever follows a provider's sign-in.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { rosterStaff, user } from '../db/schema';
import { claimRosterStaff } from '../roster/service';
import { getRole, setMembership, setRole } from '../accounts/service';
import { domainOf, isOrganizationProviderId, providerForEmail } from './providers';
import type { OrganizationProviders } from './plugin';

/** The shape better-auth hands `user.validateUserInfo`. */
interface UserInfoCheck {
  user: { email?: unknown; emailVerified?: unknown };
  source: { method: string; oauth?: { providerId: string } };
}

const isTrue = (value: unknown) => value === true || value === 'true';

/** better-auth's `user.validateUserInfo`: the email_verified rule and the organization's domains. */
export function validateSsoUserInfo(providers: OrganizationProviders) {
  return async ({ user, source }: UserInfoCheck): Promise<void | { error: string; errorDescription?: string }> => {
    const providerId = source.method === 'oauth' ? source.oauth?.providerId : undefined;
    if (!providerId) return;
    if (!isTrue(user.emailVerified)) return { error: 'email_not_verified', errorDescription: 'The provider did not confirm the email address.' };
    if (!isOrganizationProviderId(providerId)) return;
    const row = await providers.row(providerId);
    const domain = typeof user.email === 'string' ? domainOf(user.email) : null;
    if (!row || !domain || !row.domains.includes(domain)) {
      return { error: 'email_domain_mismatch', errorDescription: "The address is outside the organization's domains." };
    }
  };
}

/** `databaseHooks.user.create.after`: a verified address in an organization's domain joins that organization. */
export function joinByDomain(db: Db, logger: Logger) {
  return async (created: { id: string; email: string; emailVerified: boolean }): Promise<void> => {
    if (!created.emailVerified) return;
    try {
      const provider = await providerForEmail(db, created.email);
      if (!provider) return;
      const [listed] = await db
        .select({ id: rosterStaff.id })
        .from(rosterStaff)
        .where(and(eq(rosterStaff.organizationId, provider.organizationId), eq(sql`lower(${rosterStaff.email})`, created.email.toLowerCase())));
      // The roster decides for the people it names (and keeps a disabled one out).
      if (listed) return;
      await setMembership(db, created.id, provider.organizationId, 'member');
      if (provider.defaultRole && !(await getRole(db, created.id))) await setRole(db, created.id, provider.defaultRole);
      logger.info({ organization: provider.organizationSlug, role: provider.defaultRole }, 'sso: a first sign-in joined its organization by domain');
    } catch (error) {
      // The account exists either way; membership can be given by hand (npm run admin -- user org-admin …).
      logger.error({ err: error }, 'sso: could not add a new user to the organization of their domain');
    }
  };
}

/**
 * At every new session: a user with a verified address claims the roster entries that name it (membership and
 * role; server/roster/service.ts). A failure is logged and the sign-in goes on.
 */
export function claimRosterAtSignIn(db: Db, logger: Logger) {
  return async (userId: string): Promise<void> => {
    try {
      const [account] = await db.select({ id: user.id, email: user.email, emailVerified: user.emailVerified }).from(user).where(eq(user.id, userId));
      if (account?.emailVerified) await claimRosterStaff(db, account);
    } catch (error) {
      logger.error({ err: error }, 'roster: could not claim the roster entries of a signing-in user');
    }
  };
}
