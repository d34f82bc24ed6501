/**
 * Forgot password, outside the main layout like /sign-in, in one lazy chunk:
 * - /forgot-password asks for the email and always answers "If an account exists for that address, we sent a
 *   link" (the server answers the same for every address; only a rate limit or a malformed address differ);
 * - /reset-password?token=… sets a new password under sign-up's rules (authForm.ts here, the common-password list
 *   on the server), which ends every session of the account; then the person signs in with it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { Link, useSearch } from 'wouter';
import { paths } from '../../../domain/routes';
import { ApiError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { buttonStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { api } from '../../platform/api';
import { AuthCard } from './AuthCard';
import { EmailField, FormMessage, NewPasswordField } from './AuthField';
import { checkEmail, checkPassword, MESSAGES } from './authForm';
import { errorsOf, useSubmit } from './useSubmit';

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

export function ForgotPasswordScreen() {
  const title = 'Forgot Password';
  useDocumentTitle(title);
  const [email, setEmail] = useState('');
  const form = useSubmit();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.run(
      event.currentTarget,
      errorsOf({ email: checkEmail(email) }),
      async () => {
        await api.requestPasswordReset(email.trim());
        return RESET_LINK_SENT;
      },
      (error) => (error instanceof ApiError && error.code === 'invalid_parameter' ? { email: MESSAGES.emailInvalid } : null),
    );
  };

  return (
    <ResetCard title={title}>
      <p className="mt-4 text-center text-ink-muted">Enter the email you sign in with. We will send you a link to choose a new password.</p>
      <Form onSubmit={submit} validationBehavior="aria" validationErrors={form.fieldErrors} aria-label={title} className="mt-6 flex flex-col gap-4">
        <FormMessage kind="error">{form.error}</FormMessage>
        <FormMessage kind="success">{form.done}</FormMessage>
        <EmailField value={email} onChange={form.edit('email', setEmail)} />
        <Button type="submit" isPending={form.pending} className={`${buttonStyles.primary} mt-2 w-full py-3 text-base`}>
          {form.pending ? 'Sending…' : 'Send Link'}
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
  const form = useSubmit();
  // A link without a token, or one the server says was used or has expired: only a new link helps.
  const tokenSpent = !token || (form.failure instanceof ApiError && form.failure.code === 'invalid_token');

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    void form.run(
      event.currentTarget,
      errorsOf({ password: checkPassword(password, true) }),
      async () => {
        await api.resetPassword({ token, newPassword: password });
        // Every session of the account ended, this browser's too if it had one.
        void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
        return PASSWORD_CHANGED;
      },
      (error) => (error instanceof ApiError && error.code === 'weak_password' ? { password: error.message } : null),
    );
  };

  if (form.done) {
    return (
      <ResetCard title={title}>
        <div className="mt-6 flex flex-col gap-4">
          <FormMessage kind="success">{form.done}</FormMessage>
          <Link href={paths.signIn} className={`${buttonStyles.primary} w-full py-3 text-center text-base`}>
            Sign In
          </Link>
        </div>
      </ResetCard>
    );
  }
  return (
    <ResetCard title={title}>
      <Form onSubmit={submit} validationBehavior="aria" validationErrors={form.fieldErrors} aria-label={title} className="mt-6 flex flex-col gap-4">
        <FormMessage kind="error">{token ? form.error : MISSING_TOKEN}</FormMessage>
        {tokenSpent ? (
          <Link href={paths.forgotPassword} className={`${linkStyles} text-center`}>
            Ask for a new link
          </Link>
        ) : (
          <>
            <NewPasswordField value={password} onChange={form.edit('password', setPassword)} />
            <Button type="submit" isPending={form.pending} className={`${buttonStyles.primary} mt-2 w-full py-3 text-base`}>
              {form.pending ? 'Saving…' : 'Set Password'}
            </Button>
          </>
        )}
      </Form>
    </ResetCard>
  );
}
