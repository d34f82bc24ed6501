/**
 * The route table (SPEC §2). Order matters: fixed paths first, then the publication and reader shapes, then
 * the catch-all, which goes to /not-found.
 */
import { Redirect, Route, Switch, useSearch } from 'wouter';
import { MainLayout } from './layout/MainLayout';
import { AuthScreen } from './screens/auth/AuthScreen';
import { CatalogScreen } from './screens/catalog/CatalogScreen';
import { DebugScreen } from './screens/debug/DebugScreen';
import { ClassroomCatalogScreen, LegalScreen, ListenScreen } from './screens/misc/ComingSoonScreens';
import { NotFoundScreen } from './screens/misc/NotFoundScreen';
import { PublicationRedirect } from './screens/publication/PublicationRedirect';
import { PublicationScreen } from './screens/publication/PublicationScreen';
import { QrScreen } from './screens/qr/QrScreen';
import { InterimReaderRoute } from './screens/reader/InterimReaderScreen';
import { ReaderEntry } from './screens/reader/ReaderEntry';
import { isVersion, parseLegacyEditionRef } from './screens/reader/readerPath';

function PublicationDetailRoute({ slug, version }: { slug: string; version: string }) {
  const search = useSearch();
  if (!isVersion(version)) {
    // An older reader address without a version: /{slug}/{editionRef} (SPEC §2 Reader URL shape).
    const legacy = parseLegacyEditionRef(version);
    if (legacy) return <ReaderEntry slug={slug} preferred={legacy} />;
    return <Redirect to="/not-found" replace />;
  }
  const lower = `/${slug}/${version}`;
  if (lower !== lower.toLowerCase()) return <Redirect to={`${lower.toLowerCase()}${search ? `?${search}` : ''}`} replace />;
  return (
    <MainLayout>
      <PublicationScreen key={`${slug}/${version}`} slug={slug} version={version} />
    </MainLayout>
  );
}

function VersionedReaderEntryRoute({ slug, version }: { slug: string; version: string }) {
  if (!isVersion(version)) return <Redirect to="/not-found" replace />;
  return <ReaderEntry slug={slug} version={version} />;
}

export function AppRoutes() {
  return (
    <Switch>
      {/* Root: no class codes yet, so always the Free Library. */}
      <Route path="/">
        <Redirect to="/catalog" replace />
      </Route>
      <Route path="/catalog">
        <MainLayout>
          <CatalogScreen />
        </MainLayout>
      </Route>
      <Route path="/classroom-catalog">
        <MainLayout>
          <ClassroomCatalogScreen />
        </MainLayout>
      </Route>
      <Route path="/debug">
        <MainLayout>
          <DebugScreen />
        </MainLayout>
      </Route>
      <Route path="/not-found">
        <MainLayout>
          <NotFoundScreen />
        </MainLayout>
      </Route>
      <Route path="/terms">
        <MainLayout>
          <LegalScreen kind="terms" />
        </MainLayout>
      </Route>
      <Route path="/privacy">
        <MainLayout>
          <LegalScreen kind="privacy" />
        </MainLayout>
      </Route>

      {/* Outside the main layout group. */}
      <Route path="/sign-in">
        <AuthScreen mode="sign-in" />
      </Route>
      <Route path="/sign-up">
        <AuthScreen mode="sign-up" />
      </Route>

      {/* QR: a missing code goes to the catalog (SPEC §5 Route params). */}
      <Route path="/qr/:code">
        {(params) => (
          <MainLayout>
            <QrScreen key={params.code} code={params.code} />
          </MainLayout>
        )}
      </Route>
      <Route path="/qr">
        <Redirect to="/catalog" replace />
      </Route>

      <Route path="/listen/:slug/:version/:editionSlug/:position">
        {(params) => (
          <MainLayout>
            <ListenScreen {...params} />
          </MainLayout>
        )}
      </Route>
      <Route path="/listen/:slug/:version/:editionSlug">
        {(params) => (
          <MainLayout>
            <ListenScreen {...params} />
          </MainLayout>
        )}
      </Route>
      <Route path="/listen/*">
        <Redirect to="/not-found" replace />
      </Route>

      {/* Publication and reader shapes. */}
      <Route path="/:slug/overview">{(params) => <MainLayout><PublicationRedirect key={params.slug} slug={params.slug} /></MainLayout>}</Route>
      <Route path="/:slug/read">{(params) => <ReaderEntry key={params.slug} slug={params.slug} />}</Route>
      <Route path="/:slug/:version/read">{(params) => <VersionedReaderEntryRoute key={`${params.slug}/${params.version}`} {...params} />}</Route>
      <Route path="/:slug/:version/*">
        {(params) => <InterimReaderRoute slug={params.slug} version={params.version} rest={params['*'] ?? ''} />}
      </Route>
      <Route path="/:slug/:version">{(params) => <PublicationDetailRoute {...params} />}</Route>
      <Route path="/:slug">{(params) => <MainLayout><PublicationRedirect key={params.slug} slug={params.slug} /></MainLayout>}</Route>

      <Route>
        <Redirect to="/not-found" replace />
      </Route>
    </Switch>
  );
}
