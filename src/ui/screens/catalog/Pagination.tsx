/** Previous / next, numbered pages and a typed page input (SPEC §2 Catalog, §5 Catalog page input). */
import { useRef } from 'react';
import { useTextField } from 'react-aria';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/Icons';
import type { CatalogModel } from './useCatalog';

const stepButton =
  'inline-flex h-10 items-center gap-1.5 rounded-lg border border-line-strong bg-surface px-2.5 text-sm font-medium text-primary-900 transition-colors hover:bg-primary-50 disabled:cursor-not-allowed disabled:border-line disabled:bg-paper disabled:text-ink-muted/50 sm:px-3';

/** Bring the top of the list into view after a page change, unless the user prefers reduced motion. */
function scrollToResults() {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
}

export function Pagination({ model }: { model: CatalogModel }) {
  const go = (action: () => void) => () => {
    action();
    scrollToResults();
  };
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-between gap-3 border-t border-line pt-6">
      <button type="button" className={stepButton} onClick={go(model.goToPrevious)} disabled={!model.hasPrevious} aria-label="Previous page">
        <ChevronLeftIcon size={18} />
        <span aria-hidden="true" className="hidden sm:inline">
          Previous
        </span>
      </button>

      <div className="flex items-center gap-6">
        <ol className="hidden items-center gap-1 md:flex">
          {model.pages.map((item) =>
            item.type === 'ellipsis' ? (
              <li key={item.key} aria-hidden="true" className="px-2 text-ink-muted">
                …
              </li>
            ) : (
              <li key={item.page}>
                <button
                  type="button"
                  onClick={go(() => model.goToPage(item.page))}
                  aria-label={`Page ${item.page}`}
                  aria-current={item.isCurrent ? 'page' : undefined}
                  className="grid size-10 place-items-center rounded-lg text-sm font-medium text-ink-muted transition-colors hover:bg-primary-50 hover:text-primary-900 aria-[current=page]:bg-primary-900 aria-[current=page]:text-white"
                >
                  {item.page}
                </button>
              </li>
            ),
          )}
        </ol>

        <PageField model={model} />
      </div>

      <button type="button" className={stepButton} onClick={go(model.goToNext)} disabled={!model.hasNext} aria-label="Next page">
        <span aria-hidden="true" className="hidden sm:inline">
          Next
        </span>
        <ChevronRightIcon size={18} />
      </button>
    </nav>
  );
}

/**
 * The typed page input, on React Aria's `useTextField` hook rather than its `TextField` component, which would bring
 * React Aria's Autocomplete into the catalog's entry chunk.
 */
function PageField({ model }: { model: CatalogModel }) {
  const ref = useRef<HTMLInputElement>(null);
  const errorMessage = `Enter a page from 1 to ${model.pageCount}`;
  const { labelProps, inputProps, errorMessageProps } = useTextField(
    {
      label: 'Go to page',
      value: model.pageText,
      onChange: model.setPageText,
      onBlur: () => (model.isPageTextInvalid || model.pageText === '' ? model.resetPageText() : undefined),
      isInvalid: model.isPageTextInvalid,
      errorMessage,
      inputMode: 'numeric',
      pattern: '[0-9]*',
      autoComplete: 'off',
      maxLength: 6,
    },
    ref,
  );
  return (
    <div className="relative flex items-center gap-2 text-sm text-ink-muted">
      <label {...labelProps} className="sr-only">
        Go to page
      </label>
      <span aria-hidden="true">Page</span>
      <input
        {...inputProps}
        ref={ref}
        data-invalid={model.isPageTextInvalid || undefined}
        className="h-10 w-14 rounded-lg border border-field bg-surface text-center text-base font-medium text-ink tabular-nums data-[invalid]:border-danger"
      />
      <span>of {model.pageCount}</span>
      {model.isPageTextInvalid && (
        <span {...errorMessageProps} className="absolute top-full left-1/2 mt-1 -translate-x-1/2 text-xs whitespace-nowrap text-danger">
          {errorMessage}
        </span>
      )}
    </div>
  );
}
