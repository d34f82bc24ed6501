/** Publication detail (SPEC §2): back link, title and author, cover and Read Online, Overview / Reading Levels tabs. */
import { useQuery } from '@tanstack/react-query';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Link, Redirect, useSearch } from 'wouter';
import { ApiError } from '../../../api';
import { NOVEL_NOT_FOUND_MESSAGE } from '../../../domain/constants';
import { ArrowLeftIcon, BookOpenIcon } from '../../components/Icons';
import { NotFoundContent, StatusCard } from '../../components/StatusPage';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { OverviewPanel } from './OverviewPanel';
import { ReadingLevelsPanel } from './ReadingLevelsPanel';
import { readOnlineHref } from './publicationView';

/** A publication fetch failure that means 'no such publication'. */
export function isMissingPublication(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

/** SPEC §8: a publication fetch with the message 'Premium content' goes back to the catalog. */
export const PREMIUM_CONTENT_MESSAGE = 'Premium content';

const tabStyles =
  'relative -mb-px cursor-pointer border-b-2 border-transparent px-1 pb-3 text-base font-medium text-ink-muted transition-colors data-[hovered]:text-primary-900 data-[selected]:border-primary-900 data-[selected]:text-primary-900 data-[focus-visible]:rounded-t-md';

export function PublicationScreen({ slug, version }: { slug: string; version: string }) {
  const query = useQuery(queries.publication(slug, version));
  const search = useSearch();
  const publication = query.data;
  const missing = isMissingPublication(query.error);
  useDocumentTitle(publication?.title ?? (missing ? 'Not found' : null));

  if (query.isPending) return <PublicationSkeleton />;
  if (query.isError) {
    if (missing) return <NotFoundContent message={NOVEL_NOT_FOUND_MESSAGE} showSupport />;
    if (query.error.message === PREMIUM_CONTENT_MESSAGE) return <Redirect to="/catalog" replace />;
    return (
      <StatusCard
        title="This title could not be loaded"
        actions={
          <button type="button" className={buttonStyles.primary} onClick={() => void query.refetch()}>
            Try again
          </button>
        }
      >
        <p>{query.error.message}</p>
      </StatusCard>
    );
  }

  const p = query.data;
  return (
    <article>
      <Link href="/catalog" className="inline-flex items-center gap-2 rounded-lg py-1 text-sm font-medium text-primary-700 hover:text-primary-900 hover:underline">
        <ArrowLeftIcon size={16} />
        Back to Library
      </Link>

      <header className="mt-5 mb-8">
        <h1 className="text-3xl leading-tight font-semibold tracking-tight sm:text-4xl">{p.title}</h1>
        <p className="mt-2 text-lg text-ink-muted">
          by <span className="text-ink">{p.author}</span>
        </p>
      </header>

      <div className="grid gap-8 md:grid-cols-[28fr_72fr] md:gap-10 lg:gap-14">
        <div className="mx-auto w-full max-w-60 md:mx-0 md:max-w-none">
          <div className="md:sticky md:top-6">
            <div className="aspect-[3/4] overflow-hidden rounded-2xl border border-line bg-primary-50 shadow-[0_10px_30px_rgba(16,58,58,0.15)]">
              <img src={p.thumbnailImageUrl} alt={`Cover of ${p.title}`} className="size-full object-cover" />
            </div>
            <Link href={readOnlineHref(p, search)} className={`${buttonStyles.primary} mt-5 w-full py-3 text-base`}>
              <BookOpenIcon size={20} />
              Read Online
            </Link>
          </div>
        </div>

        <Tabs defaultSelectedKey="overview" className="min-w-0">
          <TabList aria-label="About this title" className="flex gap-8 border-b border-line">
            <Tab id="overview" className={tabStyles}>
              Overview
            </Tab>
            <Tab id="reading-levels" className={tabStyles}>
              Reading Levels
            </Tab>
          </TabList>
          <TabPanel id="overview" className="rounded-lg pt-7">
            <OverviewPanel publication={p} />
          </TabPanel>
          <TabPanel id="reading-levels" className="rounded-lg pt-7">
            <ReadingLevelsPanel publication={p} />
          </TabPanel>
        </Tabs>
      </div>
    </article>
  );
}

function PublicationSkeleton() {
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        Loading title…
      </p>
      <div className="animate-pulse" aria-hidden="true">
        <div className="h-4 w-32 rounded bg-primary-100/70" />
        <div className="mt-6 h-9 w-2/3 rounded bg-primary-100/70" />
        <div className="mt-3 h-5 w-1/4 rounded bg-primary-100/50" />
        <div className="mt-8 grid gap-8 md:grid-cols-[28fr_72fr] md:gap-10 lg:gap-14">
          <div className="aspect-[3/4] rounded-2xl bg-primary-100/70" />
          <div className="space-y-4">
            <div className="h-8 w-1/2 rounded bg-primary-100/60" />
            <div className="h-24 rounded bg-primary-100/40" />
            <div className="h-24 rounded bg-primary-100/40" />
          </div>
        </div>
      </div>
    </div>
  );
}
