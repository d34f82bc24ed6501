/** Accounts composed for the server: better-auth, its rate limits and the mailer it sends with. */
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { createAuth, PASSWORD_ONLY, type Auth, type SignInExtensions } from './auth';
import { authSettings } from './config';
import { createLimiters, type LimitRules, type Limiters } from './limits';
import { DbRateLimitStore } from './rateLimit';
import { createMailer, type Mailer } from '../mail/mailer';

export interface Accounts {
  auth: Auth;
  /** The secret better-auth signs with; it also keys the encryption of providers' client secrets (server/sso/secrets.ts). */
  secret: string;
  limiters: Limiters;
  database: Database;
  mailer: Mailer;
}

export interface AccountsOptions {
  database: Database;
  /** The secret better-auth signs with (./config.ts, loadAuthSecret). */
  secret: string;
  /** Where the outbox is kept when there is no SMTP_URL; null for an in-memory database. */
  dataDir: string | null;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** Override rate limits (tests). */
  limits?: Partial<LimitRules>;
  /** Where mail goes; by default from the environment (SMTP_URL, else DATA_DIR/outbox). */
  mailer?: Mailer;
  /** What single sign-on adds to sign-in (server/sso/index.ts). @default PASSWORD_ONLY */
  signIn?: SignInExtensions;
}

export function createAccounts({ database, secret, dataDir, logger, env = process.env, limits, mailer: given, signIn = PASSWORD_ONLY }: AccountsOptions): Accounts {
  const settings = authSettings(env);
  const limiters = createLimiters(new DbRateLimitStore(database, { logger }), limits, logger);
  const mailer = given ?? createMailer({ env, dataDir, logger });
  const auth = createAuth({ database, secret, settings, logger, mailer, signIn });
  return { auth, secret, limiters, database, mailer };
}
