/**
 * Schools' OpenID Connect providers (the `sso_providers` table): added, listed and removed by the operator
 * (`npm run admin -- sso …`, server/sso/adminCommands.ts), looked up by email domain at sign-in and by id on the
 * provider's callback. One provider per organization; its `--domain`s are the organization's verified domains, and
 * no two organizations share a domain.
 */
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { organization, ssoProviders } from '../db/schema';
import { AccountsError, findOrganization } from '../accounts/service';
import { encryptSecret } from './secrets';

/** The provider id of an organization's provider: better-auth's callback is `/api/v1/auth/callback/<id>`. */
export const SSO_PROVIDER_PREFIX = 'sso-';
export const ssoProviderId = (organizationSlug: string) => `${SSO_PROVIDER_PREFIX}${organizationSlug}`;
export const isOrganizationProviderId = (id: string) => id.startsWith(SSO_PROVIDER_PREFIX);

/** Hosts where an `http://` issuer is accepted (tests, an identity server on the same machine). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** An issuer address: https, or http on loopback only; no query or fragment; without a trailing slash. */
export const IssuerSchema = z
  .string()
  .trim()
  .max(500)
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: `The issuer '${value}' is not an address: give the provider's issuer, e.g. https://login.example.org/realms/school.` });
      return z.NEVER;
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
      ctx.addIssue({ code: 'custom', message: `The issuer must be an https:// address (http:// is accepted on localhost only), not '${value}'.` });
      return z.NEVER;
    }
    if (url.search || url.hash || url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'The issuer takes no query, fragment or credentials.' });
      return z.NEVER;
    }
    return url.href.replace(/\/+$/, '');
  });

/** An email domain: lower-case labels of letters, digits and hyphens, with a dot. */
export const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, { error: 'A domain looks like school.org (no @, no spaces).' });

export const AddProviderSchema = z.object({
  organization: z.string().trim().min(1),
  issuer: IssuerSchema,
  clientId: z.string().trim().min(1, { error: '--client-id is required' }).max(500),
  clientSecret: z.string().min(1, { error: '--client-secret is required' }).max(2000),
  domains: z.array(DomainSchema).min(1, { error: 'Give at least one --domain: the school\'s email domain.' }),
  trustEmail: z.boolean().default(false),
  /** The reading role of a first sign-in that the roster does not name. */
  defaultRole: z.enum(['teacher', 'none']).default('none'),
});
export type AddProvider = z.input<typeof AddProviderSchema>;

export interface ProviderRow {
  id: string;
  organizationId: string;
  organizationSlug: string;
  organizationName: string;
  issuer: string;
  clientId: string;
  /** Encrypted (server/sso/secrets.ts). */
  clientSecret: string;
  domains: string[];
  trustEmail: boolean;
  defaultRole: 'TEACHER' | null;
  updatedAt: Date;
}

const columns = {
  id: ssoProviders.id,
  organizationId: ssoProviders.organizationId,
  organizationSlug: organization.slug,
  organizationName: organization.name,
  issuer: ssoProviders.issuer,
  clientId: ssoProviders.clientId,
  clientSecret: ssoProviders.clientSecret,
  domains: ssoProviders.domains,
  trustEmail: ssoProviders.trustEmail,
  defaultRole: ssoProviders.defaultRole,
  updatedAt: ssoProviders.updatedAt,
};

function select(db: Db) {
  return db.select(columns).from(ssoProviders).innerJoin(organization, eq(ssoProviders.organizationId, organization.id));
}

function invalid(error: z.ZodError): AccountsError {
  return new AccountsError('invalid', error.issues.map((i) => i.message).join(' '));
}

/**
 * Add an organization's provider, or replace the one it has. The secret is stored encrypted with a key from
 * `authSecret`. A domain another organization has already is refused.
 */
export async function addSsoProvider(db: Db, input: AddProvider, authSecret: string): Promise<{ provider: ProviderRow; replaced: boolean }> {
  const parsed = AddProviderSchema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  const given = parsed.data;
  const org = await findOrganization(db, given.organization);
  if (!org) throw new AccountsError('not_found', `No organization '${given.organization}'. Create it with: org create <name>`);
  const domains = [...new Set(given.domains)];
  for (const domain of domains) {
    const owner = await providerForDomain(db, domain);
    if (owner && owner.organizationId !== org.id) {
      throw new AccountsError('conflict', `The domain ${domain} belongs to ${owner.organizationSlug} already; remove it there first (sso remove ${owner.organizationSlug}).`);
    }
  }
  const id = ssoProviderId(org.slug);
  const values = {
    issuer: given.issuer,
    clientId: given.clientId,
    clientSecret: encryptSecret(given.clientSecret, authSecret),
    domains,
    trustEmail: given.trustEmail,
    defaultRole: given.defaultRole === 'teacher' ? ('TEACHER' as const) : null,
    updatedAt: new Date(),
  };
  const [existing] = await db.select({ id: ssoProviders.id }).from(ssoProviders).where(eq(ssoProviders.organizationId, org.id));
  if (existing) await db.update(ssoProviders).set(values).where(eq(ssoProviders.organizationId, org.id));
  else await db.insert(ssoProviders).values({ id, organizationId: org.id, ...values });
  const provider = await findSsoProvider(db, existing?.id ?? id);
  return { provider: provider!, replaced: !!existing };
}

/** Every provider, or one organization's; by organization slug. */
export async function listSsoProviders(db: Db, organizationRef?: string): Promise<ProviderRow[]> {
  if (organizationRef !== undefined) {
    const org = await findOrganization(db, organizationRef);
    if (!org) throw new AccountsError('not_found', `No organization '${organizationRef}'.`);
    return select(db).where(eq(ssoProviders.organizationId, org.id));
  }
  return select(db).orderBy(organization.slug);
}

/** Remove an organization's provider; false when it had none. Accounts made through it stay. */
export async function removeSsoProvider(db: Db, organizationRef: string): Promise<boolean> {
  const org = await findOrganization(db, organizationRef);
  if (!org) throw new AccountsError('not_found', `No organization '${organizationRef}'.`);
  const removed = await db.delete(ssoProviders).where(eq(ssoProviders.organizationId, org.id)).returning({ id: ssoProviders.id });
  return removed.length > 0;
}

export async function findSsoProvider(db: Db, id: string): Promise<ProviderRow | null> {
  const [row] = await select(db).where(eq(ssoProviders.id, id));
  return row ?? null;
}

/** The provider whose verified domains include `domain` (lower case), or null. */
export async function providerForDomain(db: Db, domain: string): Promise<ProviderRow | null> {
  const [row] = await select(db).where(sql`${ssoProviders.domains} @> ${JSON.stringify([domain.toLowerCase()])}::jsonb`);
  return row ?? null;
}

/** The provider an address's domain routes to, or null. */
export async function providerForEmail(db: Db, email: string): Promise<ProviderRow | null> {
  const domain = domainOf(email);
  return domain ? providerForDomain(db, domain) : null;
}

/** The domain part of an address, lower case; null when it has none. */
export function domainOf(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).trim().toLowerCase();
}
