/**
 * The route table (SPEC §2). Order matters: fixed paths first, then the listen and teaser shapes, then the
 * publication and reader shapes, then the catch-all, which goes to /not-found. The reader, listen, select and
 * teaser screens are lazy chunks, so the catalog's entry JS carries neither them nor the reader engine; the
 * catalog's screen is one as well, so the reader's start-up carries none of it.
 */
import { lazy, memo, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { buildReaderPath, isVersionSegment, parseReaderPath } from '../domain/readerUrl';
import { LEGACY_EDITION_PARAM, paths, patterns, publicationPath, withQuery } from '../domain/routes';
import { lazyPart } from './components/lazyPart';
import { Spinner } from './components/Spinner';
import { MainLayout } from './layout/MainLayout';
import { ClassCodeSync, RootRedirect } from './screens/classroom/ClassCodeSync';
import { NotFoundScreen } from './screens/misc/NotFoundScreen';
import { loadEngine } from './engine/store';
import { nextTask } from './platform/tasks';

// The screens that run on the engine fetch their views and the engine at once, but the engine is evaluated and
// started in tasks of its own (`loadEngine`), before their first render rather than inside it.
const withEngine =
  <T,>(load: () => Promise<T>) =>
  () =>
    Promise.all([load(), loadEngine().then(nextTask)]).then(([screen]) => screen);
const ReaderRoute = lazy(withEngine(() => import('./screens/reader/ReaderRoute')));

/**
 * The Free Library is a chunk of its own too, so a reader address carries none of it. A catalog address loads it
 * before the app's first render (`loadCatalogScreen`, src/main.tsx; the server preloads it beside the entry), and a
 * loaded part renders without suspending (`lazyPart`), so the catalog shows without a fallback; an address reached
 * later loads it as any lazy screen.
 */
const CatalogScreen = lazyPart(() => import('./screens/catalog/CatalogScreen').then((m) => m.CatalogScreen));
export const loadCatalogScreen = CatalogScreen.preload;
const SelectPassageScreen = lazy(() => import('./screens/listen/SelectPassageScreen'));
const ListenScreen = lazy(withEngine(() => import('./screens/listen/ListenScreen')));
const TeaserScreen = lazy(withEngine(() => import('./screens/teaser/TeaserScreen')));
// The account pages are lazy too: the catalog's entry chunk carries none of their forms.
const AuthScreen = lazy(() => import('./screens/auth/AuthScreen'));
const ForgotPasswordScreen = lazy(() => import('./screens/auth/PasswordResetScreens').then((m) => ({ default: m.ForgotPasswordScreen })));
const ResetPasswordScreen = lazy(() => import('./screens/auth/PasswordResetScreens').then((m) => ({ default: m.ResetPasswordScreen })));
const ManageAccountScreen = lazy(() => import('./screens/auth/ManageAccountScreen').then((m) => ({ default: m.ManageAccountScreen })));
const ManageOrganizationScreen = lazy(() =>
  import('./screens/auth/ManageOrganizationScreen').then((m) => ({ default: m.ManageOrganizationScreen })),
);
const AcceptInvitationScreen = lazy(() => import('./screens/auth/AcceptInvitationScreen'));
const UploadsScreen = lazy(() => import('./screens/uploads/UploadsScreen'));
// The publication page (tabs, disclosures, the HTML sanitizer) and the debug page are lazy as well, so the catalog's
// entry JS stays within its budget (bench/browser.ts).
const PublicationScreen = lazy(() => import('./screens/publication/PublicationScreen').then((m) => ({ default: m.PublicationScreen })));
const DebugScreen = lazy(() => import('./screens/debug/DebugScreen').then((m) => ({ default: m.DebugScreen })));
// Pages the catalog never shows are lazy too: the QR landing, a publication's redirect, the legal pages.
const QrScreen = lazy(() => import('./screens/qr/QrScreen').then((m) => ({ default: m.QrScreen })));
const PublicationRedirect = lazy(() => import('./screens/publication/PublicationRedirect').then((m) => ({ default: m.PublicationRedirect })));
const LegalScreen = lazy(() => import('./screens/misc/LegalScreen'));
const LegacyEditionRedirect = lazy(() => import('./screens/misc/LegacyEditionRedirect'));
const DownloadsScreen = lazy(() => import('./screens/offline/DownloadsScreen').then((m) => ({ default: m.DownloadsScreen })));
const ClassroomScreen = lazy(() => import('./screens/classroom/ClassroomScreen').then((m) => ({ default: m.ClassroomScreen })));

/** Shown while a lazy screen's chunk loads. */
function ScreenFallback() {
  return (
    <main id="main" className="grid min-h-screen place-items-center bg-paper">
      <Spinner label="Loading…" />
    </main>
  );
}

/**
 * The reader entry and reader addresses share this one element type, so moving from /{slug}/read to the reader
 * address the engine writes keeps the same reader mounted.
 */
function ReaderSwitch({ entry }: { entry?: { slug: string; version?: string } }) {
  const [path] = useLocation();
  const search = useSearch();
  if (entry) return <ReaderRoute mode="entry" slug={entry.slug.toLowerCase()} version={entry.version?.toLowerCase()} />;
  // '/{slug}/{version}/' with a trailing slash is the publication page.
  const bare = /^\/([^/]+)\/([^/]+)\/+$/.exec(path);
  if (bare && isVersionSegment(bare[2])) return <Redirect to={withQuery(publicationPath(bare[1], bare[2]), search)} replace />;
  const parsed = parseReaderPath(path);
  if (!parsed || !parsed.primary) return <Redirect to={paths.notFound} replace />;
  if (parsed.needsRedirect && parsed.version !== null) {
    const canonical = buildReaderPath({ ...parsed, version: parsed.version, primary: parsed.primary });
    return <Redirect to={withQuery(canonical, search)} replace />;
  }
  return <ReaderRoute mode="read" address={parsed} />;
}

function PublicationDetailRoute({ slug, version }: { slug: string; version: string }) {
  const search = useSearch();
  // An older reader address without a version, /{slug}/{editionRef} (SPEC §2 Reader URL shape).
  if (!isVersionSegment(version)) return <ReaderSwitch />;
  const lower = publicationPath(slug, version);
  if (lower !== lower.toLowerCase()) return <Redirect to={withQuery(lower.toLowerCase(), search)} replace />;
  return (
    <MainLayout>
      <PublicationScreen key={`${slug}/${version}`} slug={slug} version={version} />
    </MainLayout>
  );
}

/** The fixed pages inside the main layout (SPEC §2 route table). */
const LAYOUT_PAGES: readonly (readonly [path: string, screen: () => ReactNode])[] = [
  [paths.catalog, () => <CatalogScreen />],
  [paths.classroomCatalog, () => <ClassroomScreen />],
  [paths.debug, () => <DebugScreen />],
  // A teacher's own texts (lazy).
  [paths.uploads, () => <UploadsScreen />],
  // Titles stored for offline (lazy).
  [paths.downloads, () => <DownloadsScreen />],
  [paths.notFound, () => <NotFoundScreen />],
  [paths.account, () => <ManageAccountScreen />],
  [paths.organization, () => <ManageOrganizationScreen />],
  [paths.terms, () => <LegalScreen kind="terms" />],
  [paths.privacy, () => <LegalScreen kind="privacy" />],
];

/** A screen inside the main layout group. */
function inMainLayout(screen: ReactNode) {
  return <MainLayout>{screen}</MainLayout>;
}

/** '/{slug}' and '/{slug}/overview': the publication's current version. */
function publicationRedirect(params: { slug: string }) {
  return inMainLayout(<PublicationRedirect key={params.slug} slug={params.slug} />);
}

/**
 * An older link to a publication with `?legacyEditionSlug=es-GOLD` (SPEC §2) goes to the reader address of that
 * edition (the lazy LegacyEditionRedirect); every other address renders the route table.
 */
function LegacyEditionGate({ children }: { children: ReactNode }) {
  const search = useSearch();
  return search.includes(LEGACY_EDITION_PARAM) ? <LegacyEditionRedirect>{children}</LegacyEditionRedirect> : <>{children}</>;
}

/** Memoized: the routes follow the address themselves (wouter's Switch), so the shell's re-render adds nothing. */
export const AppRoutes = memo(function AppRoutes() {
  return (
    <Suspense fallback={<ScreenFallback />}>
      {/* A magic link's ?groupCode= and the visitor check of a stored class code, on every route. */}
      <ClassCodeSync />
      <LegacyEditionGate>
        <Switch>
          {/* Root: the Classroom Library when a class code is set, else the Free Library. */}
          <Route path={paths.root}>
            <RootRedirect />
          </Route>
          {/* No key: every Route here is the same element to React, so moving between these pages keeps MainLayout. */}
          {LAYOUT_PAGES.map(([path, screen]) => (
            <Route path={path}>{inMainLayout(screen())}</Route>
          ))}
          <Route path={patterns.acceptInvitation}>
            {(params) => inMainLayout(<AcceptInvitationScreen key={params.id} invitationId={params.id} />)}
          </Route>

          {/* Outside the main layout group. */}
          <Route path={paths.signIn}>
            <AuthScreen mode="sign-in" />
          </Route>
          <Route path={paths.signUp}>
            <AuthScreen mode="sign-up" />
          </Route>
          {/* Forgot password (lazy): asking for a link, and the link's page. */}
          <Route path={paths.forgotPassword}>
            <ForgotPasswordScreen />
          </Route>
          <Route path={paths.resetPassword}>
            <ResetPasswordScreen />
          </Route>

          {/* QR: a missing code goes to the catalog (SPEC §5 Route params). */}
          <Route path={patterns.qr}>{(params) => inMainLayout(<QrScreen key={params.code} code={params.code} />)}</Route>
          <Route path={paths.qr}>
            <Redirect to={paths.catalog} replace />
          </Route>

          {/* Listening: the select-passage page and the listen page (lazy). */}
          <Route path={patterns.listen}>
            {(params) => (
              <ListenScreen key={`${params.slug}/${params.version}/${params.editionSlug}`} slug={params.slug} version={params.version} editionSlug={params.editionSlug} position={params.position} />
            )}
          </Route>
          <Route path={patterns.selectPassage}>
            {(params) => (
              <SelectPassageScreen key={`${params.slug}/${params.version}/${params.editionSlug}`} slug={params.slug} version={params.version} editionSlug={params.editionSlug} />
            )}
          </Route>
          <Route path={patterns.listenOther}>
            <Redirect to={paths.notFound} replace />
          </Route>

          {/* The public teaser page (lazy). */}
          <Route path={patterns.teaser}>
            {(params) => <TeaserScreen slug={params.slug} version={params.version} edition={params.edition} position={params.position} />}
          </Route>

          {/* Publication and reader shapes. */}
          <Route path={patterns.publicationOverview}>{publicationRedirect}</Route>
          <Route path={patterns.readLatest}>{(params) => <ReaderSwitch entry={{ slug: params.slug }} />}</Route>
          <Route path={patterns.read}>
            {(params) => (isVersionSegment(params.version) ? <ReaderSwitch entry={{ slug: params.slug, version: params.version }} /> : <ReaderSwitch />)}
          </Route>
          <Route path={patterns.reader}>
            <ReaderSwitch />
          </Route>
          <Route path={patterns.publication}>{(params) => <PublicationDetailRoute {...params} />}</Route>
          <Route path={patterns.publicationLatest}>{publicationRedirect}</Route>

          <Route>
            <Redirect to={paths.notFound} replace />
          </Route>
        </Switch>
      </LegacyEditionGate>
    </Suspense>
  );
});
