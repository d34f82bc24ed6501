/** One labelled React Aria text field of the account forms, with its validation message. */
import { FieldError, Input, Label, Text, TextField } from 'react-aria-components';
import type { ComponentProps } from 'react';
import { NEW_PASSWORD_DESCRIPTION } from './authForm';

export const inputStyles =
  'h-11 w-full rounded-xl border border-field bg-surface px-3.5 text-base text-ink placeholder:text-ink-muted outline-none focus:border-primary-700 focus:ring-2 focus:ring-primary-200 data-[invalid]:border-danger';

type Props = Omit<ComponentProps<typeof TextField>, 'children' | 'className'> & {
  label: string;
  description?: string;
  autoComplete?: string;
  /** Called after each change, beside onChange: a form clears what it said about the field once the user edits it. */
  onEdit?: () => void;
};

export function AuthField({ label, description, autoComplete, onChange, onEdit, ...props }: Props) {
  return (
    <TextField
      {...props}
      onChange={(value) => {
        onChange?.(value);
        onEdit?.();
      }}
      className="flex flex-col gap-1.5"
    >
      <Label className="text-sm font-medium text-ink">{label}</Label>
      <Input autoComplete={autoComplete} className={inputStyles} />
      {description ? (
        <Text slot="description" className="text-sm text-ink-muted">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-danger" />
    </TextField>
  );
}

/** A field of one kind: its label, name and what the browser may fill in have defaults; it is always required. */
type KindProps = Omit<Props, 'label' | 'type' | 'isRequired' | 'description'> & { label?: string };

/** A required email address: 'Email', named `email`, filled in with the user's address unless told otherwise. */
export function EmailField({ label = 'Email', name = 'email', autoComplete = 'email', ...props }: KindProps) {
  return <AuthField {...props} label={label} name={name} type="email" isRequired autoComplete={autoComplete} />;
}

/** A required new password, with the rules the server applies under it (sign-up, reset, change). */
export function NewPasswordField({ label = 'New password', name = 'password', ...props }: Omit<KindProps, 'autoComplete'>) {
  return <AuthField {...props} label={label} name={name} type="password" isRequired autoComplete="new-password" description={NEW_PASSWORD_DESCRIPTION} />;
}

/** A form-level message: an error (role alert) or a confirmation (role status). */
export function FormMessage({ kind, children }: { kind: 'error' | 'success'; children: string | null }) {
  if (!children) return null;
  return (
    <p
      role={kind === 'error' ? 'alert' : 'status'}
      className={`rounded-xl px-3.5 py-2.5 text-sm font-medium ${kind === 'error' ? 'bg-danger/10 text-danger' : 'bg-primary-50 text-primary-900'}`}
    >
      {children}
    </p>
  );
}
