/**
 * The platform-wide sign-in providers, switched on by the environment and checked with zod at start:
 *
 * - `GOOGLE_CLIENT_ID` and `GOOGLE_CLIENT_SECRET`: "Continue with Google" (Google Workspace and personal accounts).
 * - `MICROSOFT_CLIENT_ID` and `MICROSOFT_CLIENT_SECRET`, optionally `MICROSOFT_TENANT_ID` (default `common`: any
 *   work, school or personal Microsoft account): "Continue with Microsoft".
 *
 * A provider is on only when both its id and its secret are set; one without the other stops the server with a
 * clear message. docs/sso.md says how to get them and which redirect address to register.
 */
import { z } from 'zod';

const Value = z.string().trim().min(1).max(500);

const SsoEnvSchema = z
  .object({
    GOOGLE_CLIENT_ID: Value.optional(),
    GOOGLE_CLIENT_SECRET: Value.optional(),
    MICROSOFT_CLIENT_ID: Value.optional(),
    MICROSOFT_CLIENT_SECRET: Value.optional(),
    MICROSOFT_TENANT_ID: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.-]{1,100}$/, { error: 'MICROSOFT_TENANT_ID must be a tenant id, a domain, or common/organizations/consumers' })
      .optional(),
  })
  .superRefine((env, ctx) => {
    for (const [id, secret] of [
      ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
      ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'],
    ] as const) {
      if (!!env[id] !== !!env[secret]) ctx.addIssue({ code: 'custom', path: [env[id] ? secret : id], message: `${id} and ${secret} go together: set both, or neither` });
    }
  });

export interface PlatformProviders {
  google?: { clientId: string; clientSecret: string };
  microsoft?: { clientId: string; clientSecret: string; tenantId: string };
}

/** The platform providers the environment switches on. Throws with every problem listed. */
export function platformProviders(env: NodeJS.ProcessEnv = process.env): PlatformProviders {
  const pick = (name: string) => env[name] || undefined;
  const parsed = SsoEnvSchema.safeParse({
    GOOGLE_CLIENT_ID: pick('GOOGLE_CLIENT_ID'),
    GOOGLE_CLIENT_SECRET: pick('GOOGLE_CLIENT_SECRET'),
    MICROSOFT_CLIENT_ID: pick('MICROSOFT_CLIENT_ID'),
    MICROSOFT_CLIENT_SECRET: pick('MICROSOFT_CLIENT_SECRET'),
    MICROSOFT_TENANT_ID: pick('MICROSOFT_TENANT_ID'),
  });
  if (!parsed.success) throw new Error(`Invalid environment:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  const e = parsed.data;
  return {
    ...(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { google: { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } } : {}),
    ...(e.MICROSOFT_CLIENT_ID && e.MICROSOFT_CLIENT_SECRET
      ? { microsoft: { clientId: e.MICROSOFT_CLIENT_ID, clientSecret: e.MICROSOFT_CLIENT_SECRET, tenantId: e.MICROSOFT_TENANT_ID ?? 'common' } }
      : {}),
  };
}
