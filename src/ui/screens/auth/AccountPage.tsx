/**
 * The frame of an account page (Manage Account, Manage Organization): its heading and document title, a spinner
 * while the current user loads, and for a visitor who is signed out a 'Sign In' link that comes back to the page.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { signInPath } from '../../../domain/routes';
import type { CurrentUser } from '../../../domain/schemas';
import { Spinner } from '../../components/Spinner';
import { linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { useCurrentUser } from './session';

export function AccountPage({
  title,
  path,
  signedOutText,
  width,
  children,
}: {
  title: string;
  /** The page's own address, where sign-in comes back to. */
  path: string;
  /** What follows the 'Sign In' link for a visitor, e.g. 'to manage your account.' */
  signedOutText: string;
  /** The page's max-width class. */
  width: string;
  /** The page for the signed-in user. */
  children: (user: CurrentUser) => ReactNode;
}) {
  useDocumentTitle(title);
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <Spinner label="Loading…" />;
  return (
    <div className={`mx-auto ${width}`}>
      <h1 className="font-serif text-3xl font-semibold text-primary-900">{title}</h1>
      {user ? (
        children(user)
      ) : (
        <p className="mt-6 text-ink-muted">
          <Link href={signInPath(path)} className={linkStyles}>
            Sign In
          </Link>{' '}
          {signedOutText}
        </p>
      )}
    </div>
  );
}
