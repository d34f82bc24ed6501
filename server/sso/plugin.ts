/**
 * Schools' providers inside better-auth. Each organization's OpenID Connect provider is a generic-oauth
 * provider (better-auth's `genericOAuth` builds it: discovery, PKCE S256, state, nonce, ID token verification
 * against the issuer's JWKS, userinfo), made when a request names it rather than when the server starts, so a
 * provider the operator adds or removes while servers run counts at once, on every server of one database.
 *
 * A before-hook on the three endpoints that take a provider id (`/sign-in/social`, `/link-social` and the
 * callback `/callback/:id`) reads the provider's row and puts the built provider into this request's context
 * (`socialProviders` of the per-request context copy; nothing shared is changed). A built provider is kept for
 * SSO_PROVIDER_CACHE_MS while its row is unchanged, so discovery and the JWKS are not fetched on every sign-in.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth, type GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { decryptSecret } from './secrets';
import { findSsoProvider, isOrganizationProviderId, type ProviderRow } from './providers';
import { SSO_UNAVAILABLE_MESSAGE } from '../../src/domain/sso';

/** How long a built provider (its discovery document and JWKS) is reused while its row is unchanged. @default 10 minutes */
export const SSO_PROVIDER_CACHE_MS = 10 * 60_000;
/** How long discovery may take before the provider counts as down. @default 8 s */
export const SSO_DISCOVERY_TIMEOUT_MS = 8_000;
/** The scopes asked of a school's provider: the subject, the email with `email_verified`, and the name. */
export const SSO_SCOPES = ['openid', 'email', 'profile'];

/** What better-auth keeps in `socialProviders`: an object with an id. */
type SocialProvider = { id: string };

/** The built provider and what it was built from. */
interface Built {
  provider: SocialProvider;
  version: number;
  builtAt: number;
}

export class ProviderUnavailableError extends Error {}

/** Builds and caches organization providers from their rows. */
export class OrganizationProviders {
  private readonly cache = new Map<string, Built>();

  constructor(
    private readonly options: { db: Db; authSecret: string; logger: Logger; now?: () => number },
  ) {}

  /** The provider's row (for the rules of server/sso/membership.ts), or null. */
  row(id: string): Promise<ProviderRow | null> {
    return findSsoProvider(this.options.db, id);
  }

  /** The better-auth provider for `id`; null when no such provider exists; ProviderUnavailableError when it cannot be built. */
  async resolve(id: string, context: object): Promise<SocialProvider | null> {
    const row = await this.row(id);
    if (!row) {
      this.cache.delete(id);
      return null;
    }
    const now = (this.options.now ?? Date.now)();
    const version = row.updatedAt.getTime();
    const cached = this.cache.get(id);
    if (cached && cached.version === version && now - cached.builtAt < SSO_PROVIDER_CACHE_MS) return cached.provider;
    const provider = await this.build(row, context);
    this.cache.set(id, { provider, version, builtAt: now });
    return provider;
  }

  private async build(row: ProviderRow, context: object): Promise<SocialProvider> {
    const { logger, authSecret } = this.options;
    const clientSecret = decryptSecret(row.clientSecret, authSecret);
    if (clientSecret === null) {
      logger.error({ provider: row.id }, 'sso: the client secret cannot be decrypted (was the auth secret changed?); add the provider again with npm run admin -- sso add');
      throw new ProviderUnavailableError(row.id);
    }
    const config: GenericOAuthConfig = {
      providerId: row.id,
      name: row.organizationName,
      discoveryUrl: `${row.issuer}/.well-known/openid-configuration`,
      clientId: row.clientId,
      clientSecret,
      scopes: SSO_SCOPES,
      pkce: true,
      // No ID token check without the issuer's keys: a provider whose discovery lacks them is not used.
      requireIdTokenVerification: true,
      // --trust-email: the provider's addresses count as verified without `email_verified: true`.
      ...(row.trustEmail ? { mapProfileToUser: () => ({ emailVerified: true }) } : {}),
    };
    const init = genericOAuth({ config: [config] }).init as unknown as (ctx: object) => Promise<{ context: { socialProviders: SocialProvider[] } }>;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ProviderUnavailableError(`discovery of ${row.issuer} took over ${SSO_DISCOVERY_TIMEOUT_MS} ms`)), SSO_DISCOVERY_TIMEOUT_MS);
    });
    try {
      const built = await Promise.race([init({ ...context, socialProviders: [] }), timeout]);
      const provider = built.context.socialProviders.find((p) => p.id === row.id);
      if (!provider) throw new ProviderUnavailableError(`discovery of ${row.issuer} failed`);
      return provider;
    } catch (error) {
      logger.warn({ provider: row.id, issuer: row.issuer, err: error }, 'sso: the provider could not be reached');
      throw error instanceof ProviderUnavailableError ? error : new ProviderUnavailableError(String(error));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The organization provider id a request names, if any. */
function requestedProviderId(ctx: { path?: string; body?: unknown; params?: unknown }): string | null {
  let id: unknown;
  if (ctx.path === '/sign-in/social' || ctx.path === '/link-social') id = (ctx.body as { provider?: unknown } | undefined)?.provider;
  else if (ctx.path === '/callback/:id') id = (ctx.params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && isOrganizationProviderId(id) ? id : null;
}

/** Where a callback goes when the provider cannot be used: the sign-in page, with the error code. */
export const SSO_ERROR_PAGE = '/sign-in';

/** The better-auth plugin that puts a request's organization provider into its context. */
export function organizationSso(providers: OrganizationProviders): BetterAuthPlugin {
  return {
    id: 'lectern-organization-sso',
    hooks: {
      before: [
        {
          matcher: (ctx) => requestedProviderId(ctx) !== null,
          handler: createAuthMiddleware(async (ctx) => {
            const id = requestedProviderId(ctx)!;
            const context = ctx.context as unknown as { socialProviders: SocialProvider[] };
            let provider: SocialProvider | null;
            try {
              provider = await providers.resolve(id, ctx.context);
            } catch (error) {
              if (!(error instanceof ProviderUnavailableError)) throw error;
              if (ctx.path === '/callback/:id') throw ctx.redirect(`${SSO_ERROR_PAGE}?error=sso_provider_unavailable`);
              throw new APIError('SERVICE_UNAVAILABLE', { code: 'SSO_PROVIDER_UNAVAILABLE', message: SSO_UNAVAILABLE_MESSAGE });
            }
            // This request's copy of the context: other requests keep their own list.
            const others = context.socialProviders.filter((p) => typeof p !== 'object' || p.id !== id);
            context.socialProviders = provider ? [provider, ...others] : others;
          }),
        },
      ],
    },
  };
}
