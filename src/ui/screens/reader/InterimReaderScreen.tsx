/**
 * An honest interim reader for /{slug}/{version}/{language}:{level}/{position}: the publication's edition from
 * the address (or the default left reader), the section header, the sanitized passage text, its image, and
 * previous / next. The full reader (audio, decode, two columns, toolbar) is a later issue.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { ApiError, queryKeys, CONTENT_STALE_TIME_MS } from '../../../api';
import { NOVEL_NOT_FOUND_MESSAGE, PASSAGE_NOT_FOUND, SUPPORT_EMAIL } from '../../../domain/constants';
import type { Edition, Passage, Publication } from '../../../domain/schemas';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/Icons';
import { LevelChip } from '../../components/LevelChip';
import { SafeHtml } from '../../components/SafeHtml';
import { Spinner } from '../../components/Spinner';
import { NotFoundContent, StatusCard } from '../../components/StatusPage';
import { buttonStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { MainLayout } from '../../layout/MainLayout';
import { api, queries } from '../../platform/api';
import { withRedirect } from '../../platform/navigation';
import { isMissingPublication } from '../publication/PublicationScreen';
import { publicationHref } from '../publication/publicationView';
import { ReaderEntry } from './ReaderEntry';
import { ReaderLayout } from './ReaderLayout';
import {
  isVersion,
  parseLegacyEditionRef,
  parsePosition,
  parseReaderRest,
  readerHref,
  sectionHeader,
  type EditionRef,
} from './readerPath';

export function InterimReaderRoute({ slug, version, rest }: { slug: string; version: string; rest: string }) {
  const search = useSearch();
  if (!isVersion(version)) {
    // Older addresses without a version: /{slug}/{editionRef}/{position} (SPEC §2 Reader URL shape).
    const legacy = parseLegacyEditionRef(version);
    if (legacy) return <ReaderEntry slug={slug} preferred={legacy} position={parsePosition(rest.split('/')[0])} />;
    return <Redirect to="/not-found" replace />;
  }
  // '/{slug}/{version}/' with a trailing slash is the publication page.
  if (rest.replace(/\/+$/, '') === '') return <Redirect to={`/${slug}/${version}${search ? `?${search}` : ''}`} replace />;
  const path = `/${slug}/${version}/${rest}`;
  if (path !== path.toLowerCase()) return <Redirect to={`${path.toLowerCase()}${search ? `?${search}` : ''}`} replace />;
  const parsed = parseReaderRest(rest);
  if (!parsed) return <Redirect to="/not-found" replace />;
  return <InterimReader slug={slug} version={version} primary={parsed.primary} position={parsed.position} />;
}

function findEdition(publication: Publication, ref: EditionRef): Edition | undefined {
  return publication.editions.find((e) => e.language.code === ref.language && e.level === ref.level);
}

function InterimReader({ slug, version, primary, position }: { slug: string; version: string; primary: EditionRef | null; position: number }) {
  const query = useQuery(queries.publication(slug, version));
  const search = useSearch();
  useDocumentTitle(query.data?.title ?? (isMissingPublication(query.error) ? 'Not found' : null));

  if (query.isPending) {
    return (
      <main id="main" className="grid min-h-screen place-items-center">
        <Spinner label="Opening reader…" />
      </main>
    );
  }
  if (query.isError) {
    return (
      <MainLayout>
        {isMissingPublication(query.error) ? (
          <NotFoundContent message={NOVEL_NOT_FOUND_MESSAGE} showSupport />
        ) : (
          <StatusCard title="This title could not be opened">
            <p>{query.error.message}</p>
          </StatusCard>
        )}
      </MainLayout>
    );
  }

  const p = query.data;
  if (!primary) return <Redirect to={readerHref(p.slug, p.version, p.defaultReader.left, position, { query: search })} replace />;
  const edition = findEdition(p, primary);
  if (edition && edition.passageCount > 0 && position > edition.passageCount) {
    return <Redirect to={readerHref(p.slug, p.version, primary, edition.passageCount, { query: search })} replace />;
  }

  return (
    <ReaderLayout title={p.title} author={p.author} publicationHref={publicationHref(p)}>
      {edition && position >= 1 ? (
        <PassageView publication={p} edition={edition} position={position} query={search} />
      ) : (
        <div className="mx-auto max-w-3xl px-4 py-10">
          <PassageError status={404} />
        </div>
      )}
    </ReaderLayout>
  );
}

function usePrefetchNeighbours(editionId: number, position: number, passageCount: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    for (const p of [position + 1, position - 1]) {
      if (p < 1 || p > passageCount) continue;
      void queryClient.prefetchQuery({
        queryKey: queryKeys.passage(editionId, p),
        queryFn: ({ signal }) => api.getPassage(editionId, p, { signal, background: true }),
        staleTime: CONTENT_STALE_TIME_MS,
        retry: false,
      });
    }
  }, [queryClient, editionId, position, passageCount]);
}

function useArrowKeys(previous: string | null, next: string | null) {
  const [, navigate] = useLocation();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="menu"], [role="tablist"]')) return;
      const to = event.key === 'ArrowLeft' ? previous : event.key === 'ArrowRight' ? next : null;
      if (!to) return;
      event.preventDefault();
      navigate(to);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, previous, next]);
}

function PassageView({ publication, edition, position, query }: { publication: Publication; edition: Edition; position: number; query: string }) {
  const passage = useQuery(queries.passage(edition.id, position));
  const ref: EditionRef = { language: edition.language.code, level: edition.level };
  const previous = position > 1 ? readerHref(publication.slug, publication.version, ref, position - 1, { query }) : null;
  const next = position < edition.passageCount ? readerHref(publication.slug, publication.version, ref, position + 1, { query }) : null;
  usePrefetchNeighbours(edition.id, position, edition.passageCount);
  useArrowKeys(previous, next);

  const illustrated = publication.renderingMode === 'ILLUSTRATED';
  return (
    <div className={`mx-auto px-4 py-8 sm:px-6 ${illustrated ? 'max-w-5xl' : 'max-w-3xl'}`}>
      <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-ink-muted">
        <span className="inline-flex items-center gap-2">
          <LevelChip level={edition.level} size="sm" />
          <span>{edition.language.name}</span>
        </span>
        <span>
          Passage {position} of {edition.passageCount}
        </span>
      </div>

      <div className="mt-6 min-h-64">
        {passage.isPending && <PassageSkeleton />}
        {passage.isError && <PassageError status={passage.error instanceof ApiError ? passage.error.status : 0} />}
        {passage.isSuccess && <PassageBody passage={passage.data} edition={edition} illustrated={illustrated} />}
      </div>

      <nav aria-label="Passages" className="mt-12 flex items-center justify-between gap-4 border-t border-line pt-6">
        <StepLink href={previous} label="Previous" direction="previous" />
        <StepLink href={next} label="Next" direction="next" />
      </nav>
    </div>
  );
}

function StepLink({ href, label, direction }: { href: string | null; label: string; direction: 'previous' | 'next' }) {
  const icon = direction === 'previous' ? <ChevronLeftIcon size={18} /> : <ChevronRightIcon size={18} />;
  const content = direction === 'previous' ? <>{icon}{label}</> : <>{label}{icon}</>;
  const accessibleName = `${label} passage`;
  if (!href) {
    return (
      <span role="link" aria-disabled="true" aria-label={accessibleName} className={`${buttonStyles.secondary} cursor-not-allowed opacity-50`}>
        {content}
      </span>
    );
  }
  return (
    <Link href={href} aria-label={accessibleName} className={buttonStyles.secondary}>
      {content}
    </Link>
  );
}

function PassageBody({ passage, edition, illustrated }: { passage: Passage; edition: Edition; illustrated: boolean }) {
  const [path] = useLocation();
  const search = useSearch();
  const here = search ? `${path}?${search}` : path;
  const header = sectionHeader(passage.partName, passage.sectionName);
  const dir = edition.language.rightToLeft ? 'rtl' : 'ltr';

  if (passage.licenseRequired) {
    return (
      <StatusCard title="This content requires a School License" headingLevel={2}>
        <p>Ask your school about a license, or choose a free edition from the title’s Reading Levels.</p>
      </StatusCard>
    );
  }
  if (passage.groupCodeRequired) {
    return (
      <StatusCard
        title="Enter Class Code or Sign In"
        headingLevel={2}
        actions={
          <Link href={withRedirect('/sign-in', here)} className={buttonStyles.primary}>
            Sign In
          </Link>
        }
      >
        <p>Class codes arrive in a later version of Lectern.</p>
      </StatusCard>
    );
  }

  const text = (
    <div className="relative">
      {!illustrated && (
        <span aria-hidden="true" className="absolute top-1.5 -start-10 hidden text-sm text-ink-muted tabular-nums lg:block">
          {passage.position}
        </span>
      )}
      <SafeHtml
        html={passage.text}
        className={`prose-lectern font-serif leading-relaxed text-ink ${illustrated ? 'text-2xl md:text-center' : 'text-xl sm:text-[1.3rem]'}`}
      />
    </div>
  );
  const image = passage.imageUrl ? (
    <figure className={illustrated ? 'flex justify-center' : 'mt-8 flex justify-center'}>
      <img src={passage.imageUrl} alt={passage.imageAlt ?? ''} className="max-h-[400px] w-full max-w-[400px] rounded-xl object-contain" />
    </figure>
  ) : null;

  return (
    <section aria-label={`Passage ${passage.position}`} lang={edition.language.code} dir={dir}>
      {header && <h2 className="mb-5 font-sans text-sm font-semibold tracking-wide text-primary-700">{header}</h2>}
      {illustrated && image ? (
        <div className="grid items-center gap-8 md:grid-cols-2">
          {image}
          {text}
        </div>
      ) : (
        <>
          {text}
          {image}
        </>
      )}
    </section>
  );
}

function PassageSkeleton() {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        Loading passage…
      </p>
      <div className="animate-pulse space-y-4" aria-hidden="true">
        <div className="h-4 w-1/3 rounded bg-primary-100/70" />
        {[92, 100, 96, 88, 98, 70].map((w, i) => (
          <div key={i} className="h-5 rounded bg-primary-100/50" style={{ width: `${w}%` }} />
        ))}
      </div>
    </div>
  );
}

/** SPEC §8 reader error panel: 404 'Not found', otherwise 'Unavailable', then the support line. */
function PassageError({ status }: { status: number }) {
  return (
    <div role="alert" className="rounded-2xl border border-line bg-surface px-6 py-10 text-center">
      <h2 className="text-2xl font-semibold">{status === 404 ? 'Not found' : 'Unavailable'}</h2>
      {status === 404 && <p className="mt-1 text-sm text-ink-muted">{PASSAGE_NOT_FOUND}</p>}
      <p className="mt-3 text-ink-muted">
        Please choose another passage or{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={linkStyles}>
          Contact Support
        </a>
      </p>
    </div>
  );
}
