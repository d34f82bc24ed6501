/**
 * Forgot password, outside the main layout like /sign-in, in one lazy chunk:
 * - /forgot-password asks for the email and always answers "If an account exists for that address, we sent a
 *   link" (the server answers the same for every address; only a rate limit or a malformed address differ);
 * - /reset-password?token=… sets a new password under sign-up's rules (authForm.ts here, the common-password list
 *   on the server), which ends every session of the account; then the person signs in with it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { Link, useSearch } from 'wouter';
import { paths } from '../../../domain/routes';
import { ApiError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { buttonStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api } from '../../platform/api';
import { AuthCard } from './AuthCard';
import { AuthField, FormMessage } from './AuthField';
import { checkEmail, checkPassword, NEW_PASSWORD_DESCRIPTION, type FieldErrors } from './authForm';
import { focusField } from './AuthScreen';

/** What /forgot-password says after every request, whether or not the address has an account. */
export const RESET_LINK_SENT = 'If an account exists for that address, we sent a link.';
export const PASSWORD_CHANGED = 'Your password was changed, and you were signed out everywhere. Sign in with your new password.';
export const MISSING_TOKEN = 'This password reset link is incomplete. Ask for a new one.';

/** The auth card with the way back to /sign-in under its content. */
function ResetCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <AuthCard title={title}>
      {children}
      <p className="mt-6 text-center text-sm text-ink-muted">
        <Link href={paths.signIn} className={linkStyles}>
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}

function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Something went wrong, please try again!';
}

export function ForgotPasswordScreen() {
  const title = 'Forgot Password';
  useDocumentTitle(title);
  const [email, setEmail] = useState('');
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setFormError(null);
    setSent(false);
    const problem = checkEmail(email);
    setFieldErrors(problem ? { email: problem } : {});
    if (problem) {
      focusField(formRef.current, 'email');
      return;
    }
    setPending(true);
    try {
      await api.requestPasswordReset(email.trim());
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_parameter') {
        setFieldErrors({ email: 'Enter a valid email address.' });
        focusField(formRef.current, 'email');
      } else setFormError(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <ResetCard title={title}>
      <p className="mt-4 text-center text-ink-muted">Enter the email you sign in with. We will send you a link to choose a new password.</p>
      <Form ref={formRef} onSubmit={submit} validationBehavior="aria" validationErrors={fieldErrors} aria-label={title} className="mt-6 flex flex-col gap-4">
        <FormMessage kind="error">{formError}</FormMessage>
        <FormMessage kind="success">{sent ? RESET_LINK_SENT : null}</FormMessage>
        <AuthField
          label="Email"
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          onEdit={() => setFieldErrors({})}
          isRequired
          autoComplete="email"
        />
        <Button type="submit" isPending={pending} className={`${buttonStyles.primary} mt-2 w-full py-3 text-base`}>
          {pending ? 'Sending…' : 'Send Link'}
        </Button>
      </Form>
    </ResetCard>
  );
}

export function ResetPasswordScreen() {
  const title = 'Choose a New Password';
  useDocumentTitle(title);
  const queryClient = useQueryClient();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(token ? null : MISSING_TOKEN);
  const [tokenSpent, setTokenSpent] = useState(!token);
  const [done, setDone] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending || !token) return;
    setFormError(null);
    const problem = checkPassword(password, true);
    setFieldErrors(problem ? { password: problem } : {});
    if (problem) {
      focusField(formRef.current, 'password');
      return;
    }
    setPending(true);
    try {
      await api.resetPassword({ token, newPassword: password });
      setDone(true);
      // Every session of the account ended, this browser's too if it had one.
      await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'weak_password') {
        setFieldErrors({ password: error.message });
        focusField(formRef.current, 'password');
      } else {
        setFormError(errorMessage(error));
        if (error instanceof ApiError && error.code === 'invalid_token') setTokenSpent(true);
      }
    } finally {
      setPending(false);
    }
  };

  if (done) {
    return (
      <ResetCard title={title}>
        <div className="mt-6 flex flex-col gap-4">
          <FormMessage kind="success">{PASSWORD_CHANGED}</FormMessage>
          <Link href={paths.signIn} className={`${buttonStyles.primary} w-full py-3 text-center text-base`}>
            Sign In
          </Link>
        </div>
      </ResetCard>
    );
  }
  return (
    <ResetCard title={title}>
      <Form ref={formRef} onSubmit={submit} validationBehavior="aria" validationErrors={fieldErrors} aria-label={title} className="mt-6 flex flex-col gap-4">
        <FormMessage kind="error">{formError}</FormMessage>
        {tokenSpent ? (
          <Link href={paths.forgotPassword} className={`${linkStyles} text-center`}>
            Ask for a new link
          </Link>
        ) : (
          <>
            <AuthField
              label="New password"
              name="password"
              type="password"
              value={password}
              onChange={setPassword}
              onEdit={() => setFieldErrors({})}
              isRequired
              autoComplete="new-password"
              description={NEW_PASSWORD_DESCRIPTION}
            />
            <Button type="submit" isPending={pending} className={`${buttonStyles.primary} mt-2 w-full py-3 text-base`}>
              {pending ? 'Saving…' : 'Set Password'}
            </Button>
          </>
        )}
      </Form>
    </ResetCard>
  );
}
