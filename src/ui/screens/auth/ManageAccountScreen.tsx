/**
 * Manage Account: the name (better-auth update-user), the email (change-email: a link goes to the new
 * address and the change applies when it is opened) and the password (change-password: the current one
 * is checked, the new one follows the password rules, other sessions are signed out). Each form shows the server's
 * error, or a confirmation, and a saved name refreshes the cached user. "Sign-in with your school" links a school's
 * provider, Google or Microsoft to the account (SsoLinkSection.tsx).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { ApiError } from '../../../api/errors';
import type { CurrentUser } from '../../../domain/schemas';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { api } from '../../platform/api';
import { paths } from '../../../domain/routes';
import { AccountPage } from './AccountPage';
import { AuthField, FormMessage, NewPasswordField } from './AuthField';
import { checkEmail, checkName, checkPassword, type FieldErrors } from './authForm';
import { roleLabel } from './session';
import { SsoLinkSection } from './SsoLinkSection';
import { errorsOf, useSubmit, type Submit } from './useSubmit';
import { queryKeys } from '../../../api/queryKeys';

/** better-auth's provider id of a password account. */
const PASSWORD_PROVIDER_ID = 'credential';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/\s+/g, '-')}`;
  return (
    <section aria-labelledby={id} className={`${cardStyles} p-6 sm:p-8`}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-5">{children}</div>
    </section>
  );
}

/** One form of the page: its fields, its error or confirmation, and its submit button. `onSubmit` gets the form. */
function AccountForm({
  label,
  form,
  onSubmit,
  submitLabel,
  children,
}: {
  label: string;
  form: Submit;
  onSubmit: (element: HTMLFormElement) => void;
  submitLabel: string;
  children: ReactNode;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit(event.currentTarget);
  };
  return (
    <Form onSubmit={submit} validationBehavior="aria" validationErrors={form.fieldErrors} aria-label={label} className="flex max-w-md flex-col gap-4">
      {children}
      <FormMessage kind="error">{form.error}</FormMessage>
      <FormMessage kind="success">{form.done}</FormMessage>
      <Button type="submit" isPending={form.pending} className={`${buttonStyles.primary} w-fit`}>
        {submitLabel}
      </Button>
    </Form>
  );
}

/** A form of one field of the profile (name, email): checked with `check`, then saved with `save`, which answers the confirmation. */
function ProfileFieldForm({
  label,
  name,
  initial,
  check,
  save,
  submitLabel,
  ...field
}: {
  label: string;
  name: string;
  initial: string;
  check: (value: string) => string | null;
  save: (value: string) => Promise<string>;
  submitLabel: string;
} & Pick<ComponentProps<typeof AuthField>, 'type' | 'autoComplete' | 'maxLength'>) {
  const [value, setValue] = useState(initial);
  const form = useSubmit();
  const submit = (element: HTMLFormElement) => void form.run(element, errorsOf({ [name]: check(value) }), () => save(value));
  return (
    <AccountForm label={label} form={form} onSubmit={submit} submitLabel={submitLabel}>
      <AuthField label={label} name={name} value={value} onChange={form.edit(name, setValue)} isRequired {...field} />
    </AccountForm>
  );
}

function NameForm({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const save = async (name: string) => {
    await api.updateName(name.trim());
    await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
    return 'Name saved.';
  };
  return <ProfileFieldForm label="Name" name="name" initial={user.name} check={checkName} save={save} submitLabel="Save Name" autoComplete="name" maxLength={100} />;
}

/** What Manage Account says once a change of email is asked for (it applies when the mailed link is opened). */
export function emailChangeSent(email: string): string {
  return `We sent a link to ${email}. Your email changes when you open it.`;
}

function EmailForm({ user }: { user: CurrentUser }) {
  const save = async (email: string) => {
    const wanted = email.trim().toLowerCase();
    if (wanted === user.email.toLowerCase()) return 'That is already your email.';
    // The same answer for an address that belongs to another account (better-auth sends nothing then).
    await api.changeEmail(wanted);
    return emailChangeSent(wanted);
  };
  return <ProfileFieldForm label="Email" name="email" type="email" initial={user.email} check={checkEmail} save={save} submitLabel="Save Email" autoComplete="email" />;
}

function PasswordForm() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const form = useSubmit();
  const submit = (element: HTMLFormElement) => {
    void form.run(
      element,
      errorsOf({ currentPassword: checkPassword(currentPassword, false), newPassword: checkPassword(newPassword, true) }),
      async () => {
        await api.changePassword({ currentPassword, newPassword });
        setCurrent('');
        setNew('');
        return 'Password changed. Other devices have been signed out.';
      },
      (error): FieldErrors | null => {
        if (!(error instanceof ApiError)) return null;
        if (error.code === 'invalid_credentials') return { currentPassword: error.message };
        if (error.code === 'weak_password') return { newPassword: error.message };
        return null;
      },
    );
  };
  return (
    <AccountForm label="Password" form={form} onSubmit={submit} submitLabel="Change Password">
      <AuthField label="Current password" name="currentPassword" type="password" value={currentPassword} onChange={form.edit('currentPassword', setCurrent)} isRequired autoComplete="current-password" />
      <NewPasswordField name="newPassword" value={newPassword} onChange={form.edit('newPassword', setNew)} />
    </AccountForm>
  );
}

/** What Manage Account says to someone who signs in only through their school, Google or Microsoft. */
export const NO_PASSWORD_TEXT = 'You sign in with your school account, so this account has no password. To add one, use';

/** The password form, or for an account without a password (a school sign-in only) the way to set one. */
function PasswordSection() {
  const methods = useQuery({ queryKey: queryKeys.signInMethods(), queryFn: ({ signal }) => api.listSignInMethods({ signal }), retry: false });
  if (methods.data && !methods.data.includes(PASSWORD_PROVIDER_ID)) {
    return (
      <p className="text-ink-muted">
        {NO_PASSWORD_TEXT}{' '}
        <Link href={paths.forgotPassword} className={linkStyles}>
          Forgot password?
        </Link>{' '}
        on the sign-in page.
      </p>
    );
  }
  return <PasswordForm />;
}

export function ManageAccountScreen() {
  return (
    <AccountPage title="Manage Account" path={paths.account} signedOutText="to manage your account." width="max-w-2xl">
      {(user) => (
        <div className="mt-8 flex flex-col gap-6">
          {roleLabel(user) ? <p className="text-ink-muted">Role: {roleLabel(user)}</p> : null}
          <Section title="Name">
            <NameForm user={user} />
          </Section>
          <Section title="Email">
            <EmailForm user={user} />
          </Section>
          <Section title="Password">
            <PasswordSection />
          </Section>
          <SsoLinkSection render={(children) => <Section title="Sign-in with your school">{children}</Section>} />
        </div>
      )}
    </AccountPage>
  );
}
