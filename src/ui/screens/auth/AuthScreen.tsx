/**
 * /sign-in and /sign-up (SPEC §2), outside the main layout. Accounts do not exist yet, so this says so plainly,
 * links the two pages to each other and offers the way back (redirectUrl, same-origin only).
 */
import { Link, useSearch } from 'wouter';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../domain/constants';
import { LogoMark } from '../../components/Logo';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { sameOriginPath, withRedirect } from '../../platform/navigation';

export function AuthScreen({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const search = useSearch();
  const redirectUrl = new URLSearchParams(search).get('redirectUrl') ?? '';
  const back = (redirectUrl && sameOriginPath(redirectUrl, window.location.origin)) || '/';
  const title = mode === 'sign-in' ? 'Sign In' : 'Sign Up';
  useDocumentTitle(title);

  return (
    <main id="main" className="grid min-h-screen place-items-center bg-paper px-4 py-12">
      <div className={`${cardStyles} w-full max-w-md px-6 py-10 sm:px-10`}>
        <Link href="/" className="mx-auto flex w-fit items-center gap-2.5 rounded-lg">
          <LogoMark size={40} />
          <span className="font-serif text-2xl font-semibold text-primary-900">{PRODUCT_NAME}</span>
        </Link>
        <h1 className="mt-8 text-center text-2xl font-semibold">{title}</h1>
        <p className="mt-4 text-center text-ink-muted">
          Accounts are not available yet. Everything in the Free Library can be read without one.
        </p>
        <div className="mt-8 grid gap-3">
          <Link href={back} className={buttonStyles.primary}>
            {back === '/' ? `Go to ${PRODUCT_NAME}` : 'Continue without an account'}
          </Link>
          {mode === 'sign-in' ? (
            <p className="text-center text-sm text-ink-muted">
              New here?{' '}
              <Link href={withRedirect('/sign-up', redirectUrl || '/')} className={linkStyles}>
                Sign Up
              </Link>
            </p>
          ) : (
            <p className="text-center text-sm text-ink-muted">
              Already have an account?{' '}
              <Link href={withRedirect('/sign-in', redirectUrl || '/')} className={linkStyles}>
                Sign In
              </Link>
            </p>
          )}
        </div>
        <p className="mt-8 border-t border-line pt-6 text-center text-sm text-ink-muted">
          Questions?{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className={linkStyles}>
            Contact Support
          </a>
        </p>
      </div>
    </main>
  );
}
