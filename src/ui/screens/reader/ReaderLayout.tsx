/**
 * The reader's own frame (SPEC §2 Reader screen): the title and author, no brand link, no footer, and a
 * right-hand control back to the publication page. The toolbar sits under it; the bottom bar is fixed. A signed-in
 * user without a role gets the role modal here as in the main layout (SPEC §4 Role): the class-code panel's 'Sign In'
 * and 'free account' links come back to the reader.
 */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { readingPageStyle, type ReadingTypeSettings } from '../../../domain/readingType';
import { ArrowLeftIcon } from '../../components/Icons';
import { SkipLink, UserRoleModal } from '../../layout/MainLayout';
import { READER_AUTHOR_CLASS, READER_HEADER_CLASS, READER_HEADER_ROW_CLASS, READER_TITLE_CLASS } from './readerStyles';

export function ReaderLayout({
  title,
  author,
  publicationHref,
  toolbar,
  bottomBar,
  headerActions,
  page,
  children,
}: {
  /** Null while the publication loads. */
  title: string | null;
  author: string | null;
  publicationHref: string;
  toolbar?: ReactNode;
  bottomBar?: ReactNode;
  /** Beside 'About this book': the reader's 'Download for offline' (src/ui/offline/DownloadButton.tsx). */
  headerActions?: ReactNode;
  /** The reader's type, spacing and tint for the reading page (src/domain/readingType.ts); none while it loads. */
  page?: ReadingTypeSettings;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-paper">
      <SkipLink />
      <header className={READER_HEADER_CLASS}>
        <div className={READER_HEADER_ROW_CLASS}>
          {title ? (
            <div className="min-w-0" title={`${title} by ${author}`}>
              <h1 className={READER_TITLE_CLASS}>{title}</h1>
              <p className={READER_AUTHOR_CLASS}>{author}</p>
            </div>
          ) : (
            <div className="min-w-0 flex-1 animate-pulse space-y-2" aria-hidden="true">
              <div className="h-5 w-56 max-w-full rounded-full bg-primary-100" />
              <div className="h-3.5 w-32 rounded-full bg-primary-100/70" />
            </div>
          )}
          <div className="flex shrink-0 items-center gap-2">
            {headerActions}
            <Link
              href={publicationHref}
              className="inline-flex size-10 shrink-0 items-center justify-center gap-2 rounded-lg border border-line-strong bg-surface text-sm font-medium text-primary-900 transition-colors hover:bg-primary-50 sm:h-10 sm:w-auto sm:px-3"
            >
              <ArrowLeftIcon size={16} />
              <span className="sr-only sm:not-sr-only">About this book</span>
            </Link>
          </div>
        </div>
      </header>
      {toolbar}
      <main
        id="main"
        tabIndex={-1}
        data-page-tint={page && page.pageTint !== 'white' ? page.pageTint : undefined}
        data-reading-font={page && page.readingFont !== 'default' ? page.readingFont : undefined}
        data-text-spacing={page && page.textSpacing !== 'default' ? page.textSpacing : undefined}
        style={page && readingPageStyle(page)}
        className={`flex-1 bg-paper text-ink outline-none ${bottomBar ? 'pb-28' : 'pb-12'}`}
      >
        {children}
      </main>
      {bottomBar}
      <UserRoleModal />
    </div>
  );
}
