/**
 * Publication detail (SPEC §2): back link, title and author with the 'Visible to Students' badge, cover and Read
 * Online, 'Download for offline' and 'Download EPUB' (./EpubDownload.tsx), and for teachers 'Hide from Students' /
 * 'Show to Students', and for a teacher with a class code 'Share with Students' and the links that post the title's
 * reader address to Google Classroom or Microsoft Teams;
 * Overview / Reading Levels tabs, and Classroom Settings for teachers (its visibility switch). A failed fetch shows
 * PublicationError ('Premium content' goes back to the reader's library with 'Unlock Premium Novels', SPEC §8).
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Button, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Link, useSearch } from 'wouter';
import { publicationReadPath } from '../../../domain/routes';
import { ArrowLeftIcon, BookOpenIcon, ShareIcon } from '../../components/Icons';
import { TitleByline } from '../../components/TitleByline';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { OverviewPanel } from './OverviewPanel';
import { ReadingLevelsPanel } from './ReadingLevelsPanel';
import { LoadingTitle, PlaceholderBars, PublicationError } from './PublicationStates';
import { isMissingPublication, libraryPath, titleReaderLink } from './publicationView';
import { useCurrentUser } from '../auth/session';
import { useClassCode } from '../classroom/classCodeState';
import { isTeacher, sharingClassCode } from '../../../domain/roles';
import {
  LazyClassroomSettingsPanel as ClassroomSettingsPanel,
  LazyVisibilityButton as VisibilityButton,
  LazyVisibleToStudentsBadge as VisibleToStudentsBadge,
} from '../classroom/lazyClassroom';

const OfflineEditions = lazy(() => import('../../offline/OfflineEditions').then((m) => ({ default: m.OfflineEditions })));
const EpubDownload = lazy(() => import('./EpubDownload').then((m) => ({ default: m.EpubDownload })));
const ShareWithStudentsDialog = lazy(() =>
  import('../classroom/ClassroomOverlays').then((m) => ({ default: m.ShareWithStudentsDialog })),
);
const ShareToClassLinks = lazy(() => import('../classroom/ClassroomOverlays').then((m) => ({ default: m.ShareToClassLinks })));

/** The detail tabs (SPEC §4 Detail tabs); `?tab=` picks the first one shown. */
export const DETAIL_TABS = ['overview', 'reading-levels', 'classroom-settings'] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

function initialTab(search: string): DetailTab {
  const tab = new URLSearchParams(search).get('tab');
  return (DETAIL_TABS as readonly string[]).includes(tab ?? '') ? (tab as DetailTab) : 'overview';
}

const tabStyles =
  'relative -mb-px cursor-pointer border-b-2 border-transparent px-1 pb-3 text-base font-medium text-ink-muted transition-colors data-[hovered]:text-primary-900 data-[selected]:border-primary-900 data-[selected]:text-primary-900 data-[focus-visible]:rounded-t-md';

export function PublicationScreen({ slug, version }: { slug: string; version: string }) {
  const query = useQuery(queries.publication(slug, version));
  const search = useSearch();
  const { data: user } = useCurrentUser();
  const studentCode = useClassCode().code;
  const [shareOpen, setShareOpen] = useState(false);
  const [firstTab] = useState(() => initialTab(search));
  const publication = query.data;
  const missing = isMissingPublication(query.error);
  useDocumentTitle(publication?.title ?? (missing ? 'Not found' : null));

  if (query.isPending) return <PublicationSkeleton />;
  if (query.isError) return <PublicationError error={query.error} onRetry={() => void query.refetch()} />;

  const p = query.data;
  const teacher = isTeacher(user);
  const classCode = sharingClassCode(user);
  // Classroom Settings is a teacher's tab; anyone sent to it by address sees why it is empty for them.
  const showSettings = teacher || firstTab === 'classroom-settings';
  // A student (class code) goes back to their Classroom Library: they never see the Free Library.
  const backHref = libraryPath(Boolean(user), studentCode);
  return (
    <article>
      <Link href={backHref} className="inline-flex items-center gap-2 rounded-lg py-1 text-sm font-medium text-primary-700 hover:text-primary-900 hover:underline">
        <ArrowLeftIcon size={16} />
        Back to Library
      </Link>

      <header className="mt-5 mb-8">
        <TitleByline title={p.title} author={p.author} size="large" />
        <div className="mt-3 empty:hidden">
          <VisibleToStudentsBadge titleId={p.id} />
        </div>
      </header>

      <div className="grid gap-8 md:grid-cols-[28fr_72fr] md:gap-10 lg:gap-14">
        <div className="mx-auto w-full max-w-60 md:mx-0 md:max-w-none">
          <div className="md:sticky md:top-6">
            <div className="aspect-[3/4] overflow-hidden rounded-2xl border border-line bg-primary-50 shadow-[0_10px_30px_rgba(16,58,58,0.15)]">
              <img src={p.thumbnailImageUrl} alt={`Cover of ${p.title}`} className="size-full object-cover" />
            </div>
            <Link href={publicationReadPath(p.slug, p.version, search)} className={`${buttonStyles.primary} mt-5 w-full py-3 text-base`}>
              <BookOpenIcon size={20} />
              Read Online
            </Link>
            <Suspense fallback={null}>
              <OfflineEditions publication={p} />
            </Suspense>
            <Suspense fallback={null}>
              <EpubDownload publication={p} />
            </Suspense>
            <VisibilityButton titleId={p.id} />
            {classCode ? (
              <>
                <Button onPress={() => setShareOpen(true)} className={`${buttonStyles.ghost} mt-2 w-full py-3 text-base`}>
                  <ShareIcon size={20} />
                  Share with Students
                </Button>
                <Suspense fallback={null}>
                  <ShareToClassLinks link={titleReaderLink(window.location.origin, p.slug, p.version)} text={p.title} className="mt-1 flex-col" />
                </Suspense>
                {shareOpen ? (
                  <Suspense fallback={null}>
                    <ShareWithStudentsDialog code={classCode} isOpen={shareOpen} onOpenChange={setShareOpen} />
                  </Suspense>
                ) : null}
              </>
            ) : null}
          </div>
        </div>

        <Tabs defaultSelectedKey={firstTab} className="min-w-0">
          <TabList aria-label="About this title" className="flex gap-4 border-b border-line sm:gap-8">
            <Tab id="overview" className={tabStyles}>
              Overview
            </Tab>
            <Tab id="reading-levels" className={tabStyles}>
              Reading Levels
            </Tab>
            {showSettings ? (
              <Tab id="classroom-settings" className={tabStyles}>
                Classroom Settings
              </Tab>
            ) : null}
          </TabList>
          <TabPanel id="overview" className="rounded-lg pt-7">
            <OverviewPanel publication={p} />
          </TabPanel>
          <TabPanel id="reading-levels" className="rounded-lg pt-7">
            <ReadingLevelsPanel publication={p} />
          </TabPanel>
          {showSettings ? (
            <TabPanel id="classroom-settings" className="rounded-lg pt-7">
              <ClassroomSettingsPanel titleId={p.id} />
            </TabPanel>
          ) : null}
        </Tabs>
      </div>
    </article>
  );
}

function PublicationSkeleton() {
  return (
    <LoadingTitle>
      <div className="animate-pulse" aria-hidden="true">
        <div className="h-4 w-32 rounded bg-primary-100/70" />
        <div className="mt-6 h-9 w-2/3 rounded bg-primary-100/70" />
        <div className="mt-3 h-5 w-1/4 rounded bg-primary-100/50" />
        <div className="mt-8 grid gap-8 md:grid-cols-[28fr_72fr] md:gap-10 lg:gap-14">
          <div className="aspect-[3/4] rounded-2xl bg-primary-100/70" />
          <PlaceholderBars bars={['h-8 w-1/2 bg-primary-100/60', 'h-24 bg-primary-100/40', 'h-24 bg-primary-100/40']} />
        </div>
      </div>
    </LoadingTitle>
  );
}
