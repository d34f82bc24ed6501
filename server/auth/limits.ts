/**
 * The rate limits of the accounts module (not in the spec; docs/decisions.md). Each is a fixed window per key,
 * counted in the database (server/auth/rateLimit.ts) so that every server on one PostgreSQL shares it. Guessing a
 * secret (a password, a class code) fails closed when the counters cannot be reached; signing up fails open.
 */
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiter, type RateLimitRule, type RateLimitStore } from './rateLimit';
import { HttpError } from '../kit/errors';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Failed sign-ins from one IP address (a school shares one, so successes do not count). @default 30 per 15 minutes */
export const SIGN_IN_FAILURES_PER_IP: RateLimitRule = { max: 30, windowMs: 15 * MINUTE, whenStoreFails: 'closed' };
/** Failed sign-ins for one email address, from anywhere. @default 5 per 15 minutes */
export const SIGN_IN_FAILURES_PER_EMAIL: RateLimitRule = { max: 5, windowMs: 15 * MINUTE, whenStoreFails: 'closed' };
/** Sign-ups from one IP address (a school shares one). Guesses nothing, so it fails open. @default 50 per hour */
export const SIGN_UP_PER_IP: RateLimitRule = { max: 50, windowMs: HOUR, whenStoreFails: 'open' };
/** Wrong class-code guesses from one client id. 36^8 is only 41 bits. @default 10 per 15 minutes */
export const CLASS_CODE_FAILURES_PER_CLIENT: RateLimitRule = { max: 10, windowMs: 15 * MINUTE, whenStoreFails: 'closed' };
/** Wrong class-code guesses from one IP address (a classroom shares one). @default 30 per 15 minutes */
export const CLASS_CODE_FAILURES_PER_IP: RateLimitRule = { max: 30, windowMs: 15 * MINUTE, whenStoreFails: 'closed' };

/**
 * Password reset requests for one email address, found or not (each sends a mail to a real account). The same
 * answer either way, so the limit tells nothing about which addresses have accounts. @default 3 per hour
 */
export const PASSWORD_RESET_PER_EMAIL: RateLimitRule = { max: 3, windowMs: HOUR, whenStoreFails: 'closed' };
/** Password reset requests from one IP address (a school shares one). @default 20 per hour */
export const PASSWORD_RESET_PER_IP: RateLimitRule = { max: 20, windowMs: HOUR, whenStoreFails: 'closed' };

/** Email change requests for one new address (each mails it a link). @default 3 per hour */
export const EMAIL_CHANGE_PER_ADDRESS: RateLimitRule = { max: 3, windowMs: HOUR, whenStoreFails: 'closed' };
/** Email change requests from one IP address. @default 10 per hour */
export const EMAIL_CHANGE_PER_IP: RateLimitRule = { max: 10, windowMs: HOUR, whenStoreFails: 'closed' };

/** Mails that confirm an invited address, for one address (on sign-up, sign-in and on request). @default 3 per hour */
export const ADDRESS_CONFIRMATION_PER_ADDRESS: RateLimitRule = { max: 3, windowMs: HOUR, whenStoreFails: 'closed' };
/** Requests for a new confirmation mail from one IP address. @default 10 per hour */
export const ADDRESS_CONFIRMATION_PER_IP: RateLimitRule = { max: 10, windowMs: HOUR, whenStoreFails: 'closed' };

/** Single sign-on starts from one IP address (each may fetch a provider's discovery). A school shares one IP. @default 120 per 15 minutes */
export const SSO_SIGN_IN_PER_IP: RateLimitRule = { max: 120, windowMs: 15 * MINUTE, whenStoreFails: 'open' };

export interface LimitRules {
  signInFailuresPerIp: RateLimitRule;
  signInFailuresPerEmail: RateLimitRule;
  signUpPerIp: RateLimitRule;
  classCodeFailuresPerClient: RateLimitRule;
  classCodeFailuresPerIp: RateLimitRule;
  passwordResetPerEmail: RateLimitRule;
  passwordResetPerIp: RateLimitRule;
  emailChangePerAddress: RateLimitRule;
  emailChangePerIp: RateLimitRule;
  addressConfirmationPerAddress: RateLimitRule;
  addressConfirmationPerIp: RateLimitRule;
  ssoSignInPerIp: RateLimitRule;
}

export const DEFAULT_LIMITS: LimitRules = {
  signInFailuresPerIp: SIGN_IN_FAILURES_PER_IP,
  signInFailuresPerEmail: SIGN_IN_FAILURES_PER_EMAIL,
  signUpPerIp: SIGN_UP_PER_IP,
  classCodeFailuresPerClient: CLASS_CODE_FAILURES_PER_CLIENT,
  classCodeFailuresPerIp: CLASS_CODE_FAILURES_PER_IP,
  passwordResetPerEmail: PASSWORD_RESET_PER_EMAIL,
  passwordResetPerIp: PASSWORD_RESET_PER_IP,
  emailChangePerAddress: EMAIL_CHANGE_PER_ADDRESS,
  emailChangePerIp: EMAIL_CHANGE_PER_IP,
  addressConfirmationPerAddress: ADDRESS_CONFIRMATION_PER_ADDRESS,
  addressConfirmationPerIp: ADDRESS_CONFIRMATION_PER_IP,
  ssoSignInPerIp: SSO_SIGN_IN_PER_IP,
};

export type Limiters = { [K in keyof LimitRules]: RateLimiter };

/** The limiters over one store. An override replaces a rule's budget and keeps what it does when the store fails, unless given. */
export function createLimiters(store: RateLimitStore, overrides: Partial<LimitRules> = {}, logger?: Logger): Limiters {
  return Object.fromEntries(
    (Object.keys(DEFAULT_LIMITS) as (keyof LimitRules)[]).map((k) => [k, new RateLimiter(k, { ...DEFAULT_LIMITS[k], ...overrides[k] }, store, logger)]),
  ) as Limiters;
}

/** The client's IP address: the socket's, or the first X-Forwarded-For entry when TRUST_PROXY is on. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** A 429 with the error shape and Retry-After. */
export function tooManyRequests(message: string, retryAfterMs: number): HttpError {
  const error = new HttpError(429, [{ code: 'rate_limited', message }]);
  (error as HttpError & { retryAfter?: number }).retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return error;
}

export function minutes(ms: number): string {
  const m = Math.max(1, Math.ceil(ms / MINUTE));
  return `${m} minute${m === 1 ? '' : 's'}`;
}
