/**
 * The main layout group: skip link, navbar, page content (max width 1440 px) and footer, plus the role-selection
 * modal for a signed-in user (a lazy chunk: it runs on the engine, which the catalog's entry chunk does not carry).
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { pageContainer } from '../components/styles';
import { useCurrentUser } from '../screens/auth/session';
import { Footer } from './Footer';
import { Navbar } from './Navbar';

const RoleModal = lazy(() => import('../screens/auth/RoleModal'));

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-primary-900 px-4 py-2 font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}

export function MainLayout({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Navbar />
      <main id="main" tabIndex={-1} className={`${pageContainer} flex-1 pt-6 pb-16 outline-none sm:pt-10`}>
        {children}
      </main>
      <Footer />
      {user ? (
        <Suspense fallback={null}>
          <RoleModal user={user} />
        </Suspense>
      ) : null}
    </div>
  );
}
