/**
 * The hash routes of a hosted sign-in widget (SPEC §2: "Sign-in uses hash routing"), read by /sign-in and
 * /sign-up. Links and bookmarks made for such a widget (`/sign-in#/factor-one`, `/sign-up#/verify-email-address`,
 * `/sign-in#/reset-password`) land on the step Lectern has for them:
 * - every sign-in step (first and second factor, account choice, single sign-on return) is the one sign-in form;
 * - every sign-up step (continue, verifying an email address or a phone number) is the one sign-up form;
 * - a step of the other widget goes to that widget's form (a `/sign-up#/factor-one` link is a sign-in);
 * - a password-reset step (`#/reset-password`, `#/forgot-password`) goes to Lectern's own page, /forgot-password.
 * Anything else in the hash is dropped: the plain form.
 */
import { paths } from './routes';

export type AuthMode = 'sign-in' | 'sign-up';
export type AuthStep = 'form' | 'reset-password';

/** The canonical hash of the password-reset step. */
export const RESET_PASSWORD_HASH = '#/reset-password';

const SIGN_IN_STEPS = new Set(['', 'factor-one', 'factor-two', 'choose', 'sso-callback', 'verify', 'continue']);
const SIGN_UP_STEPS = new Set(['', 'continue', 'verify-email-address', 'verify-phone-number', 'sso-callback', 'verify']);
const RESET_STEPS = new Set(['reset-password', 'reset-password-success', 'forgot-password']);

export interface AuthHashRoute {
  mode: AuthMode;
  step: AuthStep;
  /** The hash the address should carry: '' for the plain form. */
  hash: string;
}

/** The first segment of a widget's hash path: '#/factor-one/abc?x=1' → 'factor-one'. */
export function hashStep(hash: string): string {
  const path = hash.replace(/^#/, '').replace(/[?#].*$/, '');
  const first = path.replace(/^\/+/, '').split('/')[0] ?? '';
  return first.toLowerCase();
}

/** Where a hash route of the hosted widget leads, on the sign-in or the sign-up page. */
export function authHashRoute(mode: AuthMode, hash: string): AuthHashRoute {
  const step = hashStep(hash);
  if (RESET_STEPS.has(step)) return { mode: 'sign-in', step: 'reset-password', hash: RESET_PASSWORD_HASH };
  const own = mode === 'sign-in' ? SIGN_IN_STEPS : SIGN_UP_STEPS;
  const theirs = mode === 'sign-in' ? SIGN_UP_STEPS : SIGN_IN_STEPS;
  const target = !own.has(step) && theirs.has(step) ? (mode === 'sign-in' ? 'sign-up' : 'sign-in') : mode;
  return { mode: target, step: 'form', hash: '' };
}

/**
 * The address to replace the current one with so it shows `route`, keeping the query (the redirect target), or
 * null when the address is already right.
 */
export function authHashRedirect(mode: AuthMode, search: string, hash: string): string | null {
  const route = authHashRoute(mode, hash);
  if (route.step === 'reset-password') return paths.forgotPassword;
  if (route.mode === mode && route.hash === (hash === '#' ? '' : hash)) return null;
  const query = search.replace(/^\?/, '');
  return `${route.mode === 'sign-in' ? paths.signIn : paths.signUp}${query ? `?${query}` : ''}${route.hash}`;
}
