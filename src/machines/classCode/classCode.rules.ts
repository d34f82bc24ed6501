/** Pure class-code rules (SPEC §5 Validation: class code; §4 Class code: features). */
import { CLASS_CODE_LENGTH, DEFAULT_ERROR_MESSAGE } from '../../domain/constants';
import type { ToastRequest } from '../toasts/toasts.types';

const CLASS_CODE_PATTERN = new RegExp(`^[A-Za-z0-9]{${CLASS_CODE_LENGTH}}$`);

/** Exactly CLASS_CODE_LENGTH (8) alphanumeric characters; the form's Submit stays disabled until this holds. */
export function isValidClassCode(text: string): boolean {
  return CLASS_CODE_PATTERN.test(text);
}

/** What the class-code input shows: upper-cased and cut to CLASS_CODE_LENGTH characters. */
export function normalizeClassCode(text: string): string {
  return text.toUpperCase().slice(0, CLASS_CODE_LENGTH);
}

/**
 * Features come from the signed-in user, else from the visitor check, else empty (SPEC §4 Class code).
 * A visitor check that says the class code is invalid grants nothing.
 */
export function resolveFeatures(
  user: { features: string[] } | null,
  visitor: { groupCodeValid: boolean; features: string[] } | null,
): string[] {
  if (user) return user.features;
  if (visitor?.groupCodeValid) return visitor.features;
  return [];
}

/** The error toast of a failed check: the API's message, or the default one when it gave none (SPEC §8 Toasts). */
export function failureToast(message: string | undefined): ToastRequest {
  return { kind: 'error', message: message || DEFAULT_ERROR_MESSAGE };
}
