/**
 * The main layout group: skip link, navbar, the class-code banner for a teacher with a class code, page content
 * (max width 1440 px) and footer, plus the role-selection modal for a signed-in user (`UserRoleModal`, which the
 * reader's layout shows too) and the engine's toasts and premium dialog. Those run on the engine, a lazy chunk the
 * catalog does not carry until it is needed: at once for a signed-in user or a stored class code (the role modal,
 * the class code's check), otherwise when a view first sends it an event (`sendToEngine` loads it), such as a press
 * on a premium title's card.
 */
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { pageContainer } from '../components/styles';
import { useCurrentUser } from '../screens/auth/session';
import { loadEngine, useClassCode } from '../screens/classroom/classCodeState';
import { bannerCode } from '../screens/classroom/classroom';
import { Footer } from './Footer';
import { Navbar } from './Navbar';
import { ReleaseFirstScreen } from '../platform/firstScreen';

const RoleModal = lazy(() => import('../screens/auth/RoleModal'));
const EngineOverlays = lazy(() => import('../screens/classroom/ClassroomOverlays').then((m) => ({ default: m.EngineOverlays })));
const ClassCodeBanner = lazy(() => import('../screens/classroom/ClassroomOverlays').then((m) => ({ default: m.ClassCodeBanner })));

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

/** A lazy part of the layout: nothing shows until its chunk has loaded. */
function LazyPart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

/**
 * The role-selection modal (SPEC §4 Role) for a signed-in user, in each layout an account can land in: the main
 * layout, and the reader's, where a sign-up from the class-code panel returns (its `redirectUrl`).
 */
export function UserRoleModal() {
  const { data: user } = useCurrentUser();
  return user ? <LazyPart><RoleModal user={user} /></LazyPart> : null;
}

export function MainLayout({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  const code = bannerCode(user);
  // A visitor without an account or a class code has nothing the engine must show until they act.
  const needsEngine = Boolean(user) || classCode.code !== null;
  useEffect(() => {
    if (needsEngine) void loadEngine();
  }, [needsEngine]);
  return (
    <div className="flex min-h-screen flex-col">
      <ReleaseFirstScreen />
      <SkipLink />
      <Navbar />
      {code ? <LazyPart><ClassCodeBanner code={code} /></LazyPart> : null}
      <main id="main" tabIndex={-1} className={`${pageContainer} flex-1 pt-6 pb-16 outline-none sm:pt-10`}>
        {children}
      </main>
      <Footer />
      <UserRoleModal />
      {classCode.isReady ? <LazyPart><EngineOverlays /></LazyPart> : null}
    </div>
  );
}
