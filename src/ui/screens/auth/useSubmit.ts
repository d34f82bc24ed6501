/**
 * The submit state of an account form (Manage Account's, the password reset screens'): field errors (our checks
 * first, then the server's, each cleared as its field is edited), the failure shown above the form, and a
 * confirmation.
 */
import { useState } from 'react';
import { focusField } from './AuthScreen';
import { firstInvalid, messageOf, withoutField, type FieldErrors } from './authForm';

export function useSubmit() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [done, setDone] = useState<string | null>(null);
  /** An onChange for one field: sets its value and clears what was said about it. */
  const edit = (field: string, set: (value: string) => void) => (value: string) => {
    set(value);
    setFieldErrors((errors) => withoutField(errors, field));
  };
  /**
   * Shows `checks` under their fields and focuses the first, or else runs `action`, whose answer is the
   * confirmation. A failure goes under the fields `fieldOf` names for it, or else above the form.
   */
  const run = async (
    form: HTMLFormElement | null,
    checks: FieldErrors,
    action: () => Promise<string>,
    fieldOf?: (error: unknown) => FieldErrors | null,
  ) => {
    if (pending) return;
    setFailure(null);
    setDone(null);
    const order = form ? [...form.elements].map((e) => (e as HTMLInputElement).name).filter(Boolean) : [];
    setFieldErrors(checks);
    if (Object.keys(checks).length) {
      focusField(form, firstInvalid(checks, order));
      return;
    }
    setPending(true);
    try {
      setDone(await action());
    } catch (error) {
      const fields = fieldOf?.(error) ?? null;
      if (fields) {
        setFieldErrors(fields);
        focusField(form, firstInvalid(fields, order));
      } else setFailure(error);
    } finally {
      setPending(false);
    }
  };
  return { pending, failure, error: failure === null ? null : messageOf(failure), fieldErrors, done, run, edit };
}

export type Submit = ReturnType<typeof useSubmit>;

/** Checks as FieldErrors: each field with its message, those without one left out. */
export function errorsOf(checks: Record<string, string | null>): FieldErrors {
  return Object.fromEntries(Object.entries(checks).filter(([, message]) => message)) as FieldErrors;
}
