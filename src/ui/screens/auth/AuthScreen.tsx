/**
 * /sign-in and /sign-up (SPEC §2), outside the main layout, each linking to the other. React Aria forms: our own
 * checks (authForm.ts: required fields, an email address, 8 characters for a new password) run on submit, then
 * the server's answer is shown where it belongs: a taken email or a weak password under its field, a wrong
 * password or a rate limit above the form. Field errors clear as the user types in that field.
 *
 * The target comes from `redirectUrl` (src/domain/redirect.ts): same origin only, '/catalog' by default. A target
 * on another domain is refused with 'Navigation to a different domain is blocked.', and the user goes to the
 * catalog instead.
 *
 * A hosted widget's hash route (`/sign-in#/factor-one`, `/sign-up#/verify-email-address`) is replaced by the plain
 * form it stands for, keeping the query; its password-reset steps (`#/reset-password`) go to /forgot-password.
 * Sign-in links to /forgot-password under the password ("Forgot password?"), and offers single sign-on
 * below the password form (SsoSignIn.tsx).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { Link, useLocation, useSearch } from 'wouter';
import { SUPPORT_EMAIL } from '../../../domain/constants';
import { authHashRedirect, type AuthMode } from '../../../domain/authHash';
import { DEFAULT_AFTER_SIGN_IN, resolveRedirect } from '../../../domain/redirect';
import { ApiError } from '../../../api/errors';
import { buttonStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api } from '../../platform/api';
import { paths, withRedirect } from '../../../domain/routes';
import { AuthCard } from './AuthCard';
import { AuthField, EmailField, FormMessage } from './AuthField';
import { checkAuthForm, firstInvalid, NEW_PASSWORD_DESCRIPTION, withoutField, type FieldErrors } from './authForm';
import { completeSignIn } from './session';
import { SsoSignIn } from './SsoSignIn';
import { ssoErrorMessage } from '../../../domain/ssoMessages';

type Mode = AuthMode;

// The address's hash, which wouter's location leaves out: hash changes, and the router's own navigations.
const HASH_EVENTS = ['hashchange', 'popstate', 'pushState', 'replaceState'] as const;
function subscribeHash(onChange: () => void): () => void {
  for (const type of HASH_EVENTS) window.addEventListener(type, onChange);
  return () => {
    for (const type of HASH_EVENTS) window.removeEventListener(type, onChange);
  };
}
const readHash = () => window.location.hash;
const FIELD_ORDER = ['name', 'email', 'password'] as const;

/** Focus a form's field by name (the first one with an error). */
export function focusField(form: HTMLFormElement | null, name: string | null): void {
  const field = name ? form?.elements.namedItem(name) : null;
  if (field instanceof HTMLElement) field.focus();
}

/** Where a server error is shown: under a field, or above the form. */
export function placeServerError(error: unknown): { fields: FieldErrors; form: string | null } {
  if (!(error instanceof ApiError)) return { fields: {}, form: 'Something went wrong, please try again!' };
  if (error.code === 'email_taken') return { fields: { email: error.message }, form: null };
  if (error.code === 'weak_password') return { fields: { password: error.message }, form: null };
  if (error.code === 'invalid_parameter') {
    const fields: FieldErrors = {};
    for (const e of error.errors) {
      if (/email/i.test(e.message)) fields.email ??= e.message;
      else if (/password/i.test(e.message)) fields.password ??= e.message;
      else if (/name/i.test(e.message)) fields.name ??= e.message;
    }
    if (Object.keys(fields).length) return { fields, form: null };
  }
  return { fields: {}, form: error.message };
}

export function AuthScreen({ mode }: { mode: Mode }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const redirectUrl = new URLSearchParams(search).get('redirectUrl') ?? '';
  // A single sign-on round trip that failed comes back here with its code (SsoSignIn.tsx).
  const ssoError = new URLSearchParams(search).get('error');
  const target = resolveRedirect(redirectUrl, window.location.origin);
  const title = mode === 'sign-in' ? 'Sign In' : 'Sign Up';
  useDocumentTitle(title);
  // A hosted widget's hash route (SPEC §2): its step here, or the plain form (src/domain/authHash.ts).
  const hash = useSyncExternalStore(subscribeHash, readHash, () => '');
  const hashTarget = authHashRedirect(mode, search, hash);
  useEffect(() => {
    if (hashTarget) navigate(hashTarget, { replace: true });
  }, [hashTarget, navigate]);

  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const edit = (field: string, set: (value: string) => void) => (value: string) => {
    set(value);
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    const errors = checkAuthForm(mode, { name, email, password });
    setFieldErrors(errors);
    if (Object.keys(errors).length) {
      focusField(formRef.current, firstInvalid(errors, FIELD_ORDER));
      return;
    }
    setPending(true);
    try {
      if (mode === 'sign-in') await api.signIn({ email: email.trim(), password });
      else await api.signUp({ email: email.trim(), password, name: name.trim() });
    } catch (error) {
      const placed = placeServerError(error);
      setFieldErrors(placed.fields);
      setFormError(placed.form);
      setPending(false);
      focusField(formRef.current, firstInvalid(placed.fields, FIELD_ORDER));
      return;
    }
    await completeSignIn(queryClient);
    navigate(target.ok ? target.path : DEFAULT_AFTER_SIGN_IN);
  };

  const other = mode === 'sign-in' ? paths.signUp : paths.signIn;
  const otherHref = redirectUrl ? withRedirect(other, redirectUrl) : other;

  return (
    <AuthCard title={title}>
      {!target.ok ? (
        <div className="mt-6">
          <FormMessage kind="error">{target.message}</FormMessage>
        </div>
      ) : null}
      {mode === 'sign-in' && ssoError ? (
        <div className="mt-6">
          <FormMessage kind="error">{ssoErrorMessage(ssoError)}</FormMessage>
        </div>
      ) : null}
      <Form ref={formRef} onSubmit={submit} validationBehavior="aria" validationErrors={fieldErrors} aria-label={title} className="mt-6 flex flex-col gap-4">
        <FormMessage kind="error">{formError}</FormMessage>
        {mode === 'sign-up' ? (
          <AuthField label="Name" name="name" value={name} onChange={edit('name', setName)} isRequired autoComplete="name" maxLength={100} />
        ) : null}
        <EmailField value={email} onChange={edit('email', setEmail)} />
        <AuthField
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={edit('password', setPassword)}
          isRequired
          autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
          description={mode === 'sign-up' ? NEW_PASSWORD_DESCRIPTION : undefined}
        />
        {mode === 'sign-in' ? (
          <Link href={paths.forgotPassword} className={`${linkStyles} -mt-2 self-end text-sm`}>
            Forgot password?
          </Link>
        ) : null}
        <Button type="submit" isPending={pending} className={`${buttonStyles.primary} mt-2 w-full py-3 text-base`}>
          {pending ? (mode === 'sign-in' ? 'Signing in…' : 'Creating account…') : title}
        </Button>
      </Form>
      {mode === 'sign-in' ? <SsoSignIn redirectUrl={redirectUrl} /> : null}
      <p className="mt-6 text-center text-sm text-ink-muted">
        {mode === 'sign-in' ? 'New here? ' : 'Already have an account? '}
        <Link href={otherHref} className={linkStyles}>
          {mode === 'sign-in' ? 'Sign Up' : 'Sign In'}
        </Link>
      </p>
      <p className="mt-8 border-t border-line pt-6 text-center text-sm text-ink-muted">
        Questions?{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={linkStyles}>
          Contact Support
        </a>
      </p>
    </AuthCard>
  );
}

export default AuthScreen;
