/** Class strings shared by the reader's controls, so triggers, lists and panels look alike. */

/** A compact dropdown trigger or toggle in the toolbar and the column headers. */
export const controlButton =
  'inline-flex h-10 items-center gap-2 rounded-lg border border-line bg-surface px-3 text-sm font-medium text-primary-900 shadow-[0_1px_1px_rgba(16,58,58,0.04)] outline-none transition-colors data-[hovered]:border-line-strong data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus data-[selected]:border-primary-700 data-[selected]:bg-primary-900 data-[selected]:text-surface';

/** The look of a control that cannot be used now (kept focusable so its tooltip explains why). */
export const controlUnavailable =
  'inline-flex h-10 cursor-not-allowed items-center gap-2 rounded-lg border border-dashed border-line-strong bg-transparent px-3 text-sm font-medium text-ink-muted outline-none data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus';

export const popoverStyles =
  'min-w-[var(--trigger-width)] overflow-auto rounded-xl border border-line bg-surface p-1.5 shadow-xl shadow-primary-950/10 outline-none';

export const listItem =
  'group flex cursor-pointer items-center gap-2.5 rounded-lg px-3 py-2 text-sm text-ink outline-none data-[focused]:bg-primary-50 data-[focused]:text-primary-900 data-[selected]:font-semibold data-[selected]:text-primary-900';

export const sectionHeading = 'px-3 pt-2 pb-1 text-[0.6875rem] font-semibold tracking-wide text-ink-muted';

/**
 * The reader's frame and passage classes live with the first screen's markup (src/render/readerClasses.ts), which
 * the server draws with the same classes; the reader's views take them from here.
 */
export * from '../../../render/readerClasses';

/** The audio player's round icon buttons (close, narration info, unlock). */
export const audioIconButton =
  'grid size-9 shrink-0 place-items-center rounded-full text-primary-900 outline-none data-[hovered]:bg-primary-100 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-focus';
