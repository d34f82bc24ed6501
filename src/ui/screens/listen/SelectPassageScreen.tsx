/**
 * Select-passage page (SPEC §2), /listen/{slug}/{version}/{editionSlug}: the thumbnail, a numeric input
 * 'Enter passage number' and 'Start Listening', disabled until the number is valid (SPEC §5 "Passage number
 * (select page)"). Enter submits too. It opens the listen flow at that position with autoPlay on, carried in the
 * history state ({ autoPlay: true }).
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, FieldError, Form, Input, Label, TextField } from 'react-aria-components';
import { Link, useLocation } from 'wouter';
import { LEVEL_LABELS } from '../../../domain/levels';
import { validatePassageNumber } from '../../../domain/passageNumber';
import { parseLegacyEditionRef, type ReaderEdition } from '../../../domain/readerUrl';
import { listenPath, publicationPath } from '../../../domain/routes';
import type { Edition, Publication } from '../../../domain/schemas';
import { ArrowLeftIcon } from '../../components/Icons';
import { LevelChip } from '../../components/LevelChip';
import { TitleByline } from '../../components/TitleByline';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { MainLayout } from '../../layout/MainLayout';
import { queries } from '../../platform/api';
import { LoadingTitle, PlaceholderBars, PublicationError } from '../publication/PublicationStates';
import { isMissingPublication } from '../publication/publicationView';

/** History state carried to the listen page: start playing at once (SPEC §2 route table: optional autoPlay state). */
export interface ListenHistoryState {
  autoPlay?: boolean;
}

/** The publication and the edition an editionSlug ('language-LEVEL', a bare level meaning English) names. */
export function useListenEdition(slug: string, version: string, editionSlug: string) {
  const query = useQuery(queries.publication(slug, version));
  const ref: ReaderEdition | null = parseLegacyEditionRef(editionSlug);
  const edition: Edition | undefined =
    ref && query.data ? query.data.editions.find((e) => e.language.code === ref.language && e.level === ref.level) : undefined;
  return { query, ref, publication: query.data, edition };
}

/** The cover, decorative beside the title that names it. */
export function Thumbnail({ publication, className = '' }: { publication: Publication; className?: string }) {
  return (
    <div className={`aspect-[3/4] overflow-hidden rounded-2xl border border-line bg-primary-50 shadow-[0_10px_30px_rgba(16,58,58,0.15)] ${className}`}>
      <img src={publication.thumbnailImageUrl} alt={`Cover of ${publication.title}`} className="size-full object-cover" />
    </div>
  );
}

/** Title, author and the edition (language and level) above a listen screen. */
export function ListenHeading({ publication, edition, requested }: { publication: Publication; edition?: Edition; requested: ReaderEdition | null }) {
  return (
    <header>
      <TitleByline title={publication.title} author={publication.author} />
      {edition ? (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-ink-muted">
          <LevelChip level={edition.level} size="sm" />
          <span>{edition.language.name}</span>
        </p>
      ) : requested ? (
        <p className="mt-3 text-sm text-ink-muted">
          {requested.language.toUpperCase()} · {LEVEL_LABELS[requested.level]}
        </p>
      ) : null}
    </header>
  );
}

/** Loading, a missing publication and other failures, shared by the listen screens; null once loaded. */
export function ListenQueryState({ query }: { query: ReturnType<typeof useListenEdition>['query'] }) {
  if (query.isPending) {
    return (
      <LoadingTitle className="mx-auto grid max-w-3xl gap-8 sm:grid-cols-[minmax(0,14rem)_1fr]">
        <div aria-hidden="true" className="mx-auto aspect-[3/4] w-40 animate-pulse rounded-2xl bg-primary-100/70 sm:w-full" />
        <div aria-hidden="true" className="animate-pulse">
          <PlaceholderBars bars={['h-8 w-2/3 bg-primary-100/70', 'h-5 w-1/3 bg-primary-100/50', 'h-24 bg-primary-100/40']} />
        </div>
      </LoadingTitle>
    );
  }
  if (query.isError) return <PublicationError error={query.error} onRetry={() => void query.refetch()} />;
  return null;
}

function SelectPassageContent({ slug, version, editionSlug }: { slug: string; version: string; editionSlug: string }) {
  const { query, ref, publication, edition } = useListenEdition(slug, version, editionSlug);
  useDocumentTitle(publication ? `Listen: ${publication.title}` : isMissingPublication(query.error) ? 'Not found' : 'Listen');
  if (!publication) return <ListenQueryState query={query} />;

  return (
    <div className="mx-auto grid max-w-3xl gap-8 sm:grid-cols-[minmax(0,14rem)_1fr] sm:gap-10">
      <div className="mx-auto w-40 sm:w-full">
        <Thumbnail publication={publication} />
      </div>
      <div className="min-w-0">
        <Link
          href={publicationPath(publication.slug, publication.version)}
          className="inline-flex items-center gap-2 rounded-lg py-1 text-sm font-medium text-primary-700 hover:text-primary-900 hover:underline"
        >
          <ArrowLeftIcon size={16} />
          About this book
        </Link>
        <div className="mt-4">
          <ListenHeading publication={publication} edition={edition} requested={ref} />
        </div>
        <PassageNumberForm
          passageCount={edition?.passageCount ?? null}
          hrefFor={(position) => listenPath(slug, version, editionSlug, position)}
        />
      </div>
    </div>
  );
}

/** The number form. Messages show once the field has been edited or a submit was tried. */
function PassageNumberForm({ passageCount, hrefFor }: { passageCount: number | null; hrefFor: (position: number) => string }) {
  const [, navigate] = useLocation();
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const result = validatePassageNumber(text, passageCount);
  const showError = touched && !result.ok;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!result.ok) return;
    const state: ListenHistoryState = { autoPlay: true };
    navigate(hrefFor(result.position), { state });
  };

  return (
    <Form onSubmit={submit} validationBehavior="aria" className="mt-8 max-w-sm">
      <TextField
        value={text}
        onChange={(value) => {
          setText(value);
          setTouched(true);
        }}
        isInvalid={showError}
        className="flex flex-col gap-2"
      >
        <Label className="font-medium text-ink">Enter passage number</Label>
        <Input
          inputMode="numeric"
          autoComplete="off"
          onKeyDown={(event) => {
            // A disabled submit button blocks the browser's implicit submission; still say what is wrong.
            if (event.key === 'Enter' && !result.ok) setTouched(true);
          }}
          placeholder={passageCount ? `1 to ${passageCount}` : undefined}
          className="h-12 w-full rounded-xl border border-field bg-surface px-4 text-lg text-ink tabular-nums placeholder:text-ink-muted data-[invalid]:border-danger"
        />
        <FieldError className="text-sm font-medium text-danger">{result.ok ? null : result.message}</FieldError>
      </TextField>
      <Button type="submit" isDisabled={!result.ok} className={`${buttonStyles.primary} mt-5 w-full py-3 text-base sm:w-auto`}>
        Start Listening
      </Button>
    </Form>
  );
}

/** The screen in the shared layout (navbar, footer): the route renders it bare. */
export function SelectPassageScreen(props: { slug: string; version: string; editionSlug: string }) {
  return (
    <MainLayout>
      <SelectPassageContent {...props} />
    </MainLayout>
  );
}

export default SelectPassageScreen;
