/** The accounts module: better-auth, its rate limits, and the users API, composed for the server. */
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { ContentStore } from '../content/store';
import { createAuth, type Auth } from './auth';
import { authSettings, loadAuthSecret } from './config';
import { registerAuth } from './http';
import { createLimiters, type LimitRules, type Limiters } from './limits';
import { DbRateLimitStore } from './rateLimit';
import { registerUsersApi } from '../users/http';
import { registerRosterApi } from '../roster/http';
import { platformProviders, type PlatformProviders } from '../sso/config';
import { OrganizationProviders } from '../sso/plugin';
import { registerSsoApi } from '../sso/http';
import { createMailer, type Mailer } from '../mail/mailer';

export interface Accounts {
  auth: Auth;
  /** The secret better-auth signs with; it also keys the encryption of providers' client secrets (server/sso/secrets.ts). */
  secret: string;
  /** Google and Microsoft, where switched on (server/sso/config.ts). */
  platform: PlatformProviders;
  /** Organizations' OpenID Connect providers (server/sso/plugin.ts). */
  organizationProviders: OrganizationProviders;
  limiters: Limiters;
  database: Database;
  mailer: Mailer;
}

export interface AccountsOptions {
  database: Database;
  /** Where a generated secret is kept; null for an in-memory database (a fresh secret per process). */
  dataDir: string | null;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** Override rate limits (tests). */
  limits?: Partial<LimitRules>;
  /** Where mail goes; by default from the environment (SMTP_URL, else DATA_DIR/outbox). */
  mailer?: Mailer;
}

export function createAccounts({ database, dataDir, logger, env = process.env, limits, mailer: given }: AccountsOptions): Accounts {
  const settings = authSettings(env);
  const secret = loadAuthSecret(dataDir, env);
  const limiters = createLimiters(new DbRateLimitStore(database, { logger }), limits, logger);
  const mailer = given ?? createMailer({ env, dataDir, logger });
  const platform = platformProviders(env);
  const organizationProviders = new OrganizationProviders({ db: database.db, authSecret: secret, logger });
  const auth = createAuth({ database, secret, settings, logger, mailer, platform, organizationProviders });
  return { auth, secret, platform, organizationProviders, limiters, database, mailer };
}

/** Mount /auth/* and the users API on the /api/v1 router. */
export function registerAccountsApi(api: Hono<any>, deps: Accounts & { store: ContentStore }): void {
  registerAuth(api, deps);
  registerSsoApi(api, deps);
  registerUsersApi(api, deps);
  registerRosterApi(api, deps);
}
