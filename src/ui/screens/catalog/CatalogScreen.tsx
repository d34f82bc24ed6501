/** Free Library (SPEC §2 Catalog): search, Filter / Sort, cards, page controls. Renders what useCatalog returns. */
import { Button, Input, SearchField } from 'react-aria-components';
import { sortLabel } from '../../../domain/catalog';
import { CloseIcon, SearchIcon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { useMinWidth } from '../../platform/media';
import { Pagination } from './Pagination';
import { PublicationCard, PublicationCardSkeleton } from './PublicationCard';
import { SortMenu } from './SortMenu';
import { useCatalog, type CatalogModel } from './useCatalog';

export const SEARCH_PLACEHOLDER = 'Search by title or author';
export const SEARCH_PLACEHOLDER_NARROW = 'Search';
export const EMPTY_MESSAGE = 'No titles found';

const grid = 'grid grid-cols-1 gap-x-5 gap-y-3 sm:gap-y-8 sm:grid-cols-2 md:grid-cols-3 lg:grid-cols-4';

export function CatalogScreen() {
  useDocumentTitle('Free Library');
  const model = useCatalog();
  const wide = useMinWidth('sm');

  return (
    <div>
      <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Free Library</h1>
          <p className="mt-2 max-w-prose text-ink-muted">
            Graded readers in several languages and reading levels, free to read online.
          </p>
        </div>
        <div className="flex w-full gap-3 lg:max-w-xl" role="search">
          <SearchField
            aria-label={SEARCH_PLACEHOLDER}
            value={model.searchText}
            onChange={model.setSearchText}
            onSubmit={model.submitSearch}
            onClear={model.clearSearch}
            className="group relative flex-1"
          >
            <SearchIcon size={20} className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-ink-muted" />
            <Input
              placeholder={wide ? SEARCH_PLACEHOLDER : SEARCH_PLACEHOLDER_NARROW}
              className="h-12 w-full rounded-xl border border-line-strong bg-surface ps-11 pe-11 text-base text-ink shadow-[0_1px_2px_rgba(16,58,58,0.05)] placeholder:text-ink-muted/80 data-[hovered]:border-primary-400 [&::-webkit-search-cancel-button]:hidden"
            />
            <Button className="absolute top-1/2 right-2 grid size-8 -translate-y-1/2 place-items-center rounded-lg text-ink-muted data-[hovered]:bg-primary-50 data-[hovered]:text-primary-900 group-data-[empty]:hidden">
              <CloseIcon size={18} />
            </Button>
          </SearchField>
          <SortMenu sort={model.sort} onSortChange={model.setSort} />
        </div>
      </div>

      <CatalogSummary model={model} />
      <CatalogResults model={model} />
      {model.status === 'ready' && <Pagination model={model} />}
    </div>
  );
}

function CatalogSummary({ model }: { model: CatalogModel }) {
  const count =
    model.status === 'ready' || model.status === 'empty' ? `${model.total} ${model.total === 1 ? 'title' : 'titles'}` : null;
  return (
    <p className="mt-8 mb-5 flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line pb-4 text-sm text-ink-muted" aria-live="polite">
      {count && <span className="font-medium text-ink">{count}</span>}
      {model.activeSearch && (
        <span>
          matching “<span className="font-medium text-ink">{model.activeSearch}</span>”
        </span>
      )}
      <span className="ms-auto">Sorted by {sortLabel(model.sort)}</span>
    </p>
  );
}

function CatalogResults({ model }: { model: CatalogModel }) {
  if (model.status === 'loading') {
    return (
      <div>
        <p role="status" className="sr-only">
          Loading titles…
        </p>
        <ul className={grid} aria-hidden="true">
          {Array.from({ length: model.skeletonCount }, (_, i) => (
            <li key={i}>
              <PublicationCardSkeleton />
            </li>
          ))}
        </ul>
      </div>
    );
  }

  if (model.status === 'error') {
    return (
      <div role="alert" className="rounded-2xl border border-line bg-surface px-6 py-12 text-center">
        <h2 className="text-xl font-semibold">The library could not be loaded</h2>
        <p className="mt-2 text-ink-muted">{model.errorMessage}</p>
        <button type="button" onClick={model.retry} className={`${buttonStyles.primary} mt-6`}>
          Try again
        </button>
      </div>
    );
  }

  if (model.status === 'empty') {
    return (
      <div className="rounded-2xl border border-dashed border-line-strong px-6 py-16 text-center">
        <h2 className="text-xl font-semibold">{EMPTY_MESSAGE}</h2>
        <p className="mt-2 text-ink-muted">Try another word, or check the spelling of the title or author.</p>
        {model.activeSearch && (
          <button type="button" onClick={model.clearSearch} className={`${buttonStyles.secondary} mt-6`}>
            Clear search
          </button>
        )}
      </div>
    );
  }

  return (
    <ul
      aria-label="Titles"
      aria-busy={model.isRefreshing}
      className={`${grid} transition-opacity ${model.isRefreshing ? 'opacity-60' : ''}`}
    >
      {model.items.map((publication) => (
        <li key={`${publication.slug}/${publication.version}`}>
          <PublicationCard publication={publication} />
        </li>
      ))}
    </ul>
  );
}
