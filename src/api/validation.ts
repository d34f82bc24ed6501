/**
 * Everything the API client validates responses with: the shared schemas of `src/domain/schemas.ts` (the same
 * ones the server uses), the few response shapes only the client reads (better-auth's session, bodies it
 * ignores), and the check of an error body. Loaded lazily through `loadValidation()`; see docs/decisions.md.
 */
import { z } from 'zod';
import { PassageAudioSchema, PassageSchema } from '../domain/schemas';

export * from '../domain/schemas';
export { SsoProvidersSchema, SsoRedirectSchema } from '../domain/sso';
export { errorsOfBody } from './errorBody';
// Parsing by function, not by a schema's method: the same call for zod's classic schemas (the tests') and its mini
// ones (the client's build), whose types share no class with a parse method.
export { parse, safeParse } from 'zod';

/** GET /passages/audioOnly: the narration, or the passage's blocked state as GET /passages gives it. */
export const AudioOnlyAnswerSchema = z.union([PassageAudioSchema, PassageSchema]);

/** better-auth's GET /auth/get-session: the session (with its user), or null when signed out. */
export const SessionSchema = z.nullable(z.looseObject({ user: z.looseObject({ id: z.string() }) }));

/** better-auth's GET /auth/list-accounts: the ways the signed-in user signs in ('credential' is the password). */
export const SignInMethodsSchema = z.array(z.looseObject({ providerId: z.string() }));

/** A body the client does not read (sign-out, update-user, …). */
export const IgnoredBodySchema = z.unknown();
