/**
 * Single sign-on, shared by the server and the sign-in page: the request and answer shapes of
 * `/api/v1/sso/*`, and what each failure tells the user. A failed provider round trip comes back to the sign-in
 * page as `?error=<code>` (better-auth's codes and ours); the page shows SSO_ERROR_MESSAGES[code].
 */
import { z } from 'zod';
import { PLATFORM_PROVIDERS } from './ssoProviders';

export * from './ssoMessages';

/** GET /api/v1/sso/providers: which platform buttons to show; with a session, the school provider of its address. */
export const SsoProvidersSchema = z.object({
  google: z.boolean(),
  microsoft: z.boolean(),
  /** For a signed-in user: the school whose provider their address routes to, and whether it is linked; or null. */
  school: z.nullable(z.object({ name: z.string(), linked: z.boolean() })),
});
export type SsoProviders = z.infer<typeof SsoProvidersSchema>;

/** POST /api/v1/sso/sign-in: a school address (routed by its domain) or a platform provider. */
export const SsoSignInBodySchema = z.union([
  z.strictObject({
    email: z.pipe(z.string().check(z.trim(), z.maxLength(320)), z.email({ error: 'Enter a valid email address.' })),
    redirectUrl: z.optional(z.string().check(z.maxLength(2000))),
  }),
  z.strictObject({ provider: z.enum(PLATFORM_PROVIDERS), redirectUrl: z.optional(z.string().check(z.maxLength(2000))) }),
]);
export type SsoSignInBody = z.infer<typeof SsoSignInBodySchema>;

/** POST /api/v1/sso/link: link a provider to the signed-in account; without `provider`, the school of its address. */
export const SsoLinkBodySchema = z.strictObject({ provider: z.optional(z.enum(PLATFORM_PROVIDERS)) });

/** The answer of sign-in and link: the provider's address, to open in a full-page navigation. */
export const SsoRedirectSchema = z.object({ url: z.url() });
export type SsoRedirect = z.infer<typeof SsoRedirectSchema>;

