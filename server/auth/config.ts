/**
 * Settings of the accounts module, from the environment, and the secret better-auth signs cookies with.
 *
 * - `BETTER_AUTH_SECRET`: the signing secret. Without it, one is generated on first start and kept in
 *   `DATA_DIR/auth-secret` (mode 0600, never committed). Servers sharing one PostgreSQL must share it: set it.
 * - `PUBLIC_URL`: the address users reach (e.g. `https://lectern.example.org`). When it is https, cookies are
 *   Secure and HSTS is sent; it is also a trusted origin for the CSRF check.
 * - `TRUST_PROXY=true`: believe `X-Forwarded-For` (client IP for rate limits) and `X-Forwarded-Proto`
 *   (HTTPS detection) from a reverse proxy. Off by default, since a client could forge them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const AuthEnvSchema = z.object({
  BETTER_AUTH_SECRET: z.string().min(32, { error: 'BETTER_AUTH_SECRET must be at least 32 characters' }).optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'PUBLIC_URL must be an http:// or https:// address' }).optional(),
  TRUST_PROXY: z.enum(['true', 'false', '1', '0']).optional(),
});

export interface AuthSettings {
  /** The origin of PUBLIC_URL (no path), or undefined. */
  publicOrigin?: string;
  trustProxy: boolean;
}

export function authSettings(env: NodeJS.ProcessEnv = process.env): AuthSettings {
  const parsed = AuthEnvSchema.safeParse({
    BETTER_AUTH_SECRET: env.BETTER_AUTH_SECRET || undefined,
    PUBLIC_URL: env.PUBLIC_URL || undefined,
    TRUST_PROXY: env.TRUST_PROXY || undefined,
  });
  if (!parsed.success) throw new Error(`Invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return {
    publicOrigin: parsed.data.PUBLIC_URL ? new URL(parsed.data.PUBLIC_URL).origin : undefined,
    trustProxy: parsed.data.TRUST_PROXY === 'true' || parsed.data.TRUST_PROXY === '1',
  };
}

/** The file in DATA_DIR holding a generated secret. */
export const AUTH_SECRET_FILE = 'auth-secret';

/**
 * BETTER_AUTH_SECRET when set; otherwise the secret in DATA_DIR/auth-secret, generated (32 random bytes) on
 * first use; for an in-memory database (tests) a fresh secret per process.
 */
export function loadAuthSecret(dataDir: string | null, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.BETTER_AUTH_SECRET;
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('BETTER_AUTH_SECRET must be at least 32 characters');
    return fromEnv;
  }
  const fresh = () => crypto.randomBytes(32).toString('base64url');
  if (!dataDir) return fresh();
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = fresh();
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
