/** The reader's own frame (SPEC §2 Reader screen): title and author, a link back to the publication, no footer. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeftIcon } from '../../components/Icons';
import { SkipLink } from '../../layout/MainLayout';

export function ReaderLayout({
  title,
  author,
  publicationHref,
  children,
}: {
  title: string;
  author: string;
  publicationHref: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-screen flex-col bg-paper">
      <SkipLink />
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex w-full max-w-page items-center justify-between gap-4 px-4 py-3 sm:px-6 lg:px-10">
          <div className="min-w-0" title={`${title} by ${author}`}>
            <h1 className="truncate font-serif text-lg leading-tight font-semibold text-primary-900">{title}</h1>
            <p className="truncate text-sm text-ink-muted">{author}</p>
          </div>
          <Link
            href={publicationHref}
            className="inline-flex shrink-0 items-center gap-2 rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm font-medium text-primary-900 hover:bg-primary-50"
          >
            <ArrowLeftIcon size={16} />
            <span>
              About this book
            </span>
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {children}
      </main>
    </div>
  );
}
