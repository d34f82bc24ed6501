/**
 * Free Library (SPEC §2 Catalog): search, Filter / Sort, cards, page controls. Renders what useCatalog returns.
 * Teachers also get the all/assigned/unassigned filter, the dismissible eye-icon tip and an eye toggle per card;
 * premium cards open 'Unlock Premium Novels' for a reader without LEVELS on that title (useTitleLocked). The
 * Classroom Library reuses the parts.
 */
import type { ReactNode } from 'react';
import { sortLabel } from '../../../domain/catalog';
import { CatalogSearchField } from './CatalogSearchField';
import type { PublicationSummary } from '../../../domain/schemas';
import { buttonStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { useMinWidth } from '../../platform/media';
import { useCurrentUser } from '../auth/session';
import { sendToEngineChild, useClassCode } from '../classroom/classCodeState';
import { isTeacher } from '../classroom/classroom';
import { EyeTipBanner } from '../classroom/TeacherBanners';
import { Pagination } from './Pagination';
import { PublicationCard, PublicationCardSkeleton, useTitleLocked } from './PublicationCard';
import { SortMenu } from './SortMenu';
import { useCatalog, type CatalogModel } from './useCatalog';

export const SEARCH_PLACEHOLDER = 'Search by title or author';
export const SEARCH_PLACEHOLDER_NARROW = 'Search';
export const EMPTY_MESSAGE = 'No titles found';

const grid = 'grid grid-cols-1 gap-x-5 gap-y-3 sm:gap-y-8 sm:grid-cols-2 md:grid-cols-3 lg:grid-cols-4';

/** The features that apply to this reader: the signed-in user's, else the class code's (SPEC §4 Class code). */
export function useReaderFeatures(): readonly string[] {
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  return user ? user.features : classCode.features;
}

/** What each card needs: the eye toggle for teachers, and the premium lock. */
export interface CardOptions {
  showEye: boolean;
  features: readonly string[];
}

export function openPremiumNovels() {
  void sendToEngineChild('premiumDialog', { type: 'premiumDialog.open', feature: 'Novels' });
}

export function CatalogScreen() {
  useDocumentTitle('Free Library');
  const { data: user } = useCurrentUser();
  const teacher = isTeacher(user);
  const model = useCatalog({ teacherId: teacher ? user.id : null });
  const features = useReaderFeatures();

  return (
    <div>
      <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">Free Library</h1>
          <p className="mt-2 max-w-prose text-ink-muted">
            Graded readers in several languages and reading levels, free to read online.
          </p>
        </div>
        <CatalogToolbar model={model} />
      </div>

      {teacher && <EyeTipBanner />}
      <CatalogSummary model={model} />
      <CatalogResults model={model} cards={{ showEye: teacher, features }} />
      {model.status === 'ready' && <Pagination model={model} />}
    </div>
  );
}

/** Search and the Filter / Sort menu (with the filter section for teachers). */
export function CatalogToolbar({ model }: { model: CatalogModel }) {
  const wide = useMinWidth('sm');
  return (
        <div className="flex w-full gap-3 lg:max-w-xl" role="search">
          <CatalogSearchField
            label={SEARCH_PLACEHOLDER}
            placeholder={wide ? SEARCH_PLACEHOLDER : SEARCH_PLACEHOLDER_NARROW}
            value={model.searchText}
            onChange={model.setSearchText}
            onSubmit={model.submitSearch}
            onClear={model.clearSearch}
          />
          <SortMenu
            sort={model.sort}
            onSortChange={model.setSort}
            filter={model.hasFilter ? model.filter : undefined}
            onFilterChange={model.setFilter}
            languages={model.languages}
            onLanguagesChange={model.setLanguages}
            levels={model.levels}
            onLevelsChange={model.setLevels}
          />
        </div>
  );
}

export function CatalogSummary({ model, countText }: { model: CatalogModel; countText?: (n: number) => string }) {
  const known = model.status === 'ready' || model.status === 'empty';
  const count = known ? (countText ? countText(model.total) : `${model.total} ${model.total === 1 ? 'title' : 'titles'}`) : null;
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

export function CatalogResults({ model, cards, empty }: { model: CatalogModel; cards: CardOptions; empty?: ReactNode }) {
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
    if (empty && !model.activeSearch && !model.hasActiveFilters) return <>{empty}</>;
    return (
      <div className="rounded-2xl border border-dashed border-line-strong px-6 py-16 text-center">
        <h2 className="text-xl font-semibold">{EMPTY_MESSAGE}</h2>
        <p className="mt-2 text-ink-muted">
          {model.activeSearch || !model.hasActiveFilters
            ? 'Try another word, or check the spelling of the title or author.'
            : 'No title has an edition in the chosen languages and levels.'}
        </p>
        {model.activeSearch && (
          <button type="button" onClick={model.clearSearch} className={`${buttonStyles.secondary} mt-6`}>
            Clear search
          </button>
        )}
        {model.hasActiveFilters && (
          <button type="button" onClick={model.clearFilters} className={`${buttonStyles.secondary} mt-6 ms-3`}>
            Clear filters
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
          <Card publication={publication} cards={cards} />
        </li>
      ))}
    </ul>
  );
}

function Card({ publication, cards }: { publication: PublicationSummary; cards: CardOptions }) {
  const locked = useTitleLocked(publication, cards.features);
  return (
    <PublicationCard
      publication={publication}
      showEye={cards.showEye}
      isLocked={locked}
      onLockedPress={openPremiumNovels}
    />
  );
}
