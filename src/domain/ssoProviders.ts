/**
 * The platform-wide providers a deployment can switch on (server/sso/config.ts), in a module of their own: the
 * response validation's schemas need them, and none of the sign-in page's words (src/domain/ssoMessages.ts).
 */
export const PLATFORM_PROVIDERS = ['google', 'microsoft'] as const;
export type PlatformProvider = (typeof PLATFORM_PROVIDERS)[number];
