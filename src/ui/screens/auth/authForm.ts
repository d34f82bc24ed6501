/**
 * The account forms' own checks, run on submit before anything is sent (the server checks again and has the
 * last word: the common-password list, taken emails). Errors are shown under their fields and cleared as the
 * user types, so a message never disappears under the pointer on its way to a button.
 */
import { DEFAULT_ERROR_MESSAGE } from '../../../domain/constants';

/** Shortest new password (the server's MIN_PASSWORD_LENGTH). @default 8 */
export const MIN_PASSWORD_LENGTH = 8;

export const MESSAGES = {
  nameRequired: 'Enter your name.',
  emailRequired: 'Enter your email.',
  emailInvalid: 'Enter a valid email address.',
  passwordRequired: 'Enter your password.',
  passwordTooShort: `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
} as const;

/** Under a new password's field (sign-up, reset): the rules the server applies. */
export const NEW_PASSWORD_DESCRIPTION = `At least ${MIN_PASSWORD_LENGTH} characters, not a common password.`;

export type FieldErrors = Record<string, string>;

/** A plausible address: something@something.tld, no spaces. */
export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

export function checkName(value: string): string | null {
  return value.trim() ? null : MESSAGES.nameRequired;
}

export function checkEmail(value: string): string | null {
  if (!value.trim()) return MESSAGES.emailRequired;
  return isEmail(value) ? null : MESSAGES.emailInvalid;
}

/** A password being typed in: required; a new one also needs MIN_PASSWORD_LENGTH characters. */
export function checkPassword(value: string, isNew: boolean): string | null {
  if (!value) return MESSAGES.passwordRequired;
  if (isNew && [...value].length < MIN_PASSWORD_LENGTH) return MESSAGES.passwordTooShort;
  return null;
}

/** Sign-in: email and password. Sign-up: also a name, and a new password's length. */
export function checkAuthForm(mode: 'sign-in' | 'sign-up', values: { name: string; email: string; password: string }): FieldErrors {
  const errors: FieldErrors = {};
  const put = (field: string, message: string | null) => {
    if (message) errors[field] = message;
  };
  if (mode === 'sign-up') put('name', checkName(values.name));
  put('email', checkEmail(values.email));
  put('password', checkPassword(values.password, mode === 'sign-up'));
  return errors;
}

/** The first field with an error, in the order given (for focus). */
export function firstInvalid(errors: FieldErrors, order: readonly string[]): string | null {
  return order.find((field) => errors[field]) ?? null;
}

/** Errors without one field's (it is being edited). Returns the same object when there was nothing to clear. */
export function withoutField(errors: FieldErrors, field: string): FieldErrors {
  if (!(field in errors)) return errors;
  const next = { ...errors };
  delete next[field];
  return next;
}

/** What a failed call shows: its message, or the default one (SPEC §8) when it has none. */
export function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : DEFAULT_ERROR_MESSAGE;
}
