/**
 * Single sign-on composed for the server: the platform providers the environment switches on, the organizations'
 * own providers, and what they add to sign-in (server/auth takes it as `SignInExtensions`).
 */
import type { Logger } from 'pino';
import type { SignInExtensions } from '../auth/auth';
import type { Database } from '../db/client';
import { platformProviders, type PlatformProviders } from './config';
import { claimRosterAtSignIn, joinByDomain, validateSsoUserInfo } from './membership';
import { OrganizationProviders, organizationSso, SSO_ERROR_PAGE } from './plugin';

export interface Sso {
  /** Google and Microsoft, where switched on (./config.ts). */
  platform: PlatformProviders;
  /** Organizations' OpenID Connect providers, read from the database per request (./plugin.ts). */
  organizationProviders: OrganizationProviders;
  /** The providers, plugin and hooks sign-in runs with. */
  signIn: SignInExtensions;
}

export interface SsoOptions {
  database: Database;
  /** The auth secret (server/auth/config.ts): it keys the encryption of providers' client secrets (./secrets.ts). */
  secret: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

export function createSso({ database, secret, logger, env = process.env }: SsoOptions): Sso {
  const platform = platformProviders(env);
  const organizationProviders = new OrganizationProviders({ db: database.db, authSecret: secret, logger });
  return {
    platform,
    organizationProviders,
    signIn: {
      // "Continue with Google" / "Continue with Microsoft", where configured.
      socialProviders: {
        ...(platform.google ? { google: { clientId: platform.google.clientId, clientSecret: platform.google.clientSecret, prompt: 'select_account' as const } } : {}),
        ...(platform.microsoft
          ? { microsoft: { clientId: platform.microsoft.clientId, clientSecret: platform.microsoft.clientSecret, tenantId: platform.microsoft.tenantId, prompt: 'select_account' as const } }
          : {}),
      },
      plugins: [organizationSso(organizationProviders)],
      // A provider's user is created, linked or signed in only with a verified address, and an organization's
      // provider only for its own domains (./membership.ts).
      validateUserInfo: validateSsoUserInfo(organizationProviders),
      // A first sign-in through a provider joins the organization of its verified domain.
      userCreated: joinByDomain(database.db, logger),
      // A new session claims the user's roster entries (server/roster/service.ts).
      sessionStarting: claimRosterAtSignIn(database.db, logger),
      errorURL: SSO_ERROR_PAGE,
    },
  };
}
