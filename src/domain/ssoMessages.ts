/**
 * Single sign-on's words and codes without zod (the sign-in page's chunk stays small): the platform providers, the
 * page's labels, and what each `?error=<code>` from a provider round trip tells the user. src/domain/sso.ts adds the
 * request and answer schemas.
 */

export { PLATFORM_PROVIDERS, type PlatformProvider } from './ssoProviders';

/** Labels on the sign-in page. */
export const SSO_LABELS = {
  google: 'Continue with Google',
  microsoft: 'Continue with Microsoft',
  school: 'Sign in with your school',
  schoolEmail: 'School email',
  continue: 'Continue',
  link: 'Link your school account',
} as const;

/** The answer to a school address whose domain has no provider (404 sso_not_configured). */
export const SSO_NOT_CONFIGURED_MESSAGE =
  "Your school has not set up sign-in with Lectern for this address. Sign in with your email and password, or ask your school's IT team.";
/** The answer when the school's provider cannot be reached (503 sso_provider_unavailable). */
export const SSO_UNAVAILABLE_MESSAGE = "Your school's sign-in service is not answering. Try again in a few minutes.";

const RESTART = 'Start again from this page.';
const UNVERIFIABLE = "Your school's sign-in service sent an answer that could not be verified, so you were not signed in. Try again; if it keeps happening, tell your school's IT team.";

/** What the sign-in page (and Manage Account, after a link) shows for each `?error=` code. */
export const SSO_ERROR_MESSAGES: Record<string, string> = {
  state_not_found: `Your sign-in took too long or was started in another window. ${RESTART}`,
  state_mismatch: `Your sign-in took too long or was started in another window. ${RESTART}`,
  state_security_mismatch: `Your sign-in took too long or was started in another window. ${RESTART}`,
  state_invalid: `Your sign-in took too long or was started in another window. ${RESTART}`,
  invalid_code: `The sign-in could not be completed: it was used already or has expired, or the sign-in service did not answer. ${RESTART}`,
  no_code: `The sign-in service sent no answer to finish signing in. ${RESTART}`,
  access_denied: 'You cancelled signing in. Choose how to sign in below.',
  email_not_verified:
    "The sign-in service did not confirm your email address, so no account was made. Ask your school's IT team to confirm it, or sign in with your email and password.",
  email_domain_mismatch:
    "Your school's sign-in service gave an email address outside your school's domains, so you were not signed in. Ask your school's IT team to check your account.",
  email_not_found: "The sign-in service did not share your email address, so you were not signed in. Ask your school's IT team.",
  account_not_linked:
    'An account with this email already exists. Sign in with your password first, then link your school account from Manage Account.',
  unable_to_link_account: 'Your school account could not be linked: its email address must be confirmed and match this account\'s.',
  email_does_not_match: "Your school account's email address is not this account's, so it was not linked.",
  account_already_linked_to_different_user: 'That school account is linked to another Lectern account already.',
  unable_to_get_user_info: UNVERIFIABLE,
  nonce_binding_missing: UNVERIFIABLE,
  issuer_mismatch: UNVERIFIABLE,
  oauth_provider_not_found: 'Sign-in with your school is no longer set up for this address. Sign in with your email and password, or ask your school.',
  sso_provider_unavailable: SSO_UNAVAILABLE_MESSAGE,
  signup_disabled: 'New accounts cannot be made this way. Ask your school.',
};

/** The fallback for a code not listed. */
export const SSO_DEFAULT_ERROR_MESSAGE = 'Signing in did not work. Start again, or sign in with your email and password.';

/** The message for a `?error=` code from a provider round trip. */
export function ssoErrorMessage(code: string): string {
  return Object.hasOwn(SSO_ERROR_MESSAGES, code) ? SSO_ERROR_MESSAGES[code]! : SSO_DEFAULT_ERROR_MESSAGE;
}
