/**
 * What a column shows while its passage loads or when it cannot show it (SPEC §2 Reader screen: passage states; §8
 * reader error panel): the loading skeleton, 'Retrieving passage...' with 'Refresh', the error panel (and 'Passage
 * not found' in it) and the edition being prepared. The reader's start-up carries these; the panels of a locked
 * passage (PassageStates.tsx) load when one shows.
 */
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'wouter';
import { PASSAGE_NOT_FOUND, SUPPORT_EMAIL } from '../../../domain/constants';
import { publicationPath } from '../../../domain/routes';
import type { Publication } from '../../../domain/schemas';
import { PASSAGE_LOADING_TEXT } from '../../../machines/readerColumn';
import { Spinner } from '../../components/Spinner';
import { buttonStyles, linkStyles } from '../../components/styles';

/** The look of a column's panels (errors, the class-code and license panels). */
export const panel = 'mx-auto max-w-xl rounded-2xl border border-line bg-surface px-6 py-10 text-center shadow-[0_1px_2px_rgba(16,58,58,0.06)] sm:px-10';

export function PassageSkeleton({ showSpinner, showRefresh, onRefresh }: { showSpinner: boolean; showRefresh: boolean; onRefresh: () => void }) {
  return (
    <div aria-busy="true" className="relative">
      <div className="animate-pulse space-y-4" aria-hidden="true">
        <div className="h-3.5 w-2/5 rounded-full bg-primary-100" />
        <div className="h-2" />
        {[97, 100, 94, 99, 88, 96, 100, 62].map((w, i) => (
          <div key={i} className="h-[1.1rem] rounded-full bg-primary-100/60" style={{ width: `${w}%` }} />
        ))}
      </div>
      {showRefresh ? (
        <div role="status" className="mt-10 flex flex-col items-center gap-4 text-center">
          <p className="text-ink-muted">{PASSAGE_LOADING_TEXT.retrieving}</p>
          <Button onPress={onRefresh} className={buttonStyles.secondary}>
            {PASSAGE_LOADING_TEXT.refresh}
          </Button>
        </div>
      ) : showSpinner ? (
        <div className="mt-10 flex justify-center">
          <Spinner label="Loading passage…" />
        </div>
      ) : (
        <p role="status" className="sr-only">
          Loading passage…
        </p>
      )}
    </div>
  );
}

/** 'Not found' (404) or 'Unavailable', an optional detail, then the support line with its mailto link; `children` (a way back) under it. */
export function ErrorPanel({ title, detail, children }: { title: string; detail?: string | null; children?: ReactNode }) {
  return (
    <div role="alert" className={panel}>
      <h2 className="text-2xl font-semibold">{title}</h2>
      {detail && <p className="mt-2 text-ink-muted">{detail}</p>}
      <p className="mt-4 text-ink-muted">
        Please choose another passage or{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={linkStyles}>
          Contact Support
        </a>
      </p>
      {children && <div className="mt-6 flex justify-center">{children}</div>}
    </div>
  );
}

/**
 * 'Passage not found' (SPEC §5 Passage position, §8): a position of 0 or below, or an edition or position the title
 * does not have, in the error panel ('Not found', Contact Support). With `publication` it links back to the title's
 * page (the listen and teaser pages); the reader's header has that link already.
 */
export function PassageNotFound({ publication }: { publication?: Pick<Publication, 'slug' | 'version'> }) {
  return (
    <ErrorPanel title={PASSAGE_LOADING_TEXT.notFound} detail={PASSAGE_NOT_FOUND}>
      {publication && (
        <Link href={publicationPath(publication.slug, publication.version)} className={buttonStyles.primary}>
          About this book
        </Link>
      )}
    </ErrorPanel>
  );
}

export function CreatingEdition() {
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Preparing this edition…" />
    </div>
  );
}
