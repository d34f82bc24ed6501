/** The rate limits of the accounts module (not in the spec; docs/decisions.md). Each is a fixed window per key. */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiter, type RateLimitRule } from './rateLimit';
import { HttpError } from '../http/errors';

const MINUTE = 60_000;

/** Failed sign-ins from one IP address (a school shares one, so successes do not count). @default 30 per 15 minutes */
export const SIGN_IN_FAILURES_PER_IP: RateLimitRule = { max: 30, windowMs: 15 * MINUTE };
/** Failed sign-ins for one email address, from anywhere. @default 5 per 15 minutes */
export const SIGN_IN_FAILURES_PER_EMAIL: RateLimitRule = { max: 5, windowMs: 15 * MINUTE };
/** Sign-ups from one IP address (a school shares one). @default 50 per hour */
export const SIGN_UP_PER_IP: RateLimitRule = { max: 50, windowMs: 60 * MINUTE };
/** Wrong class-code guesses from one client id. 36^8 is only 41 bits. @default 10 per 15 minutes */
export const CLASS_CODE_FAILURES_PER_CLIENT: RateLimitRule = { max: 10, windowMs: 15 * MINUTE };
/** Wrong class-code guesses from one IP address (a classroom shares one). @default 30 per 15 minutes */
export const CLASS_CODE_FAILURES_PER_IP: RateLimitRule = { max: 30, windowMs: 15 * MINUTE };

export interface LimitRules {
  signInFailuresPerIp: RateLimitRule;
  signInFailuresPerEmail: RateLimitRule;
  signUpPerIp: RateLimitRule;
  classCodeFailuresPerClient: RateLimitRule;
  classCodeFailuresPerIp: RateLimitRule;
}

export const DEFAULT_LIMITS: LimitRules = {
  signInFailuresPerIp: SIGN_IN_FAILURES_PER_IP,
  signInFailuresPerEmail: SIGN_IN_FAILURES_PER_EMAIL,
  signUpPerIp: SIGN_UP_PER_IP,
  classCodeFailuresPerClient: CLASS_CODE_FAILURES_PER_CLIENT,
  classCodeFailuresPerIp: CLASS_CODE_FAILURES_PER_IP,
};

export type Limiters = { [K in keyof LimitRules]: RateLimiter };

export function createLimiters(overrides: Partial<LimitRules> = {}, now?: () => number): Limiters {
  const rules = { ...DEFAULT_LIMITS, ...overrides };
  return Object.fromEntries(Object.entries(rules).map(([k, rule]) => [k, new RateLimiter(rule, now)])) as Limiters;
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
