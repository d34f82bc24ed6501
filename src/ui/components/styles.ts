/** Shared class strings so buttons and links look the same everywhere. */

const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors select-none disabled:cursor-not-allowed data-[disabled]:cursor-not-allowed';

export const buttonStyles = {
  primary: `${base} bg-primary-900 px-4 py-2.5 text-white shadow-sm hover:bg-primary-800 data-[hovered]:bg-primary-800 data-[pressed]:bg-primary-950 disabled:bg-primary-300 data-[disabled]:bg-primary-300`,
  secondary: `${base} border border-line-strong bg-surface px-4 py-2.5 text-primary-900 hover:bg-primary-50 data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100 disabled:text-ink-muted/60 data-[disabled]:border-line data-[disabled]:bg-paper data-[disabled]:text-ink-muted/60`,
  ghost: `${base} px-3 py-2 text-primary-900 hover:bg-primary-50 data-[hovered]:bg-primary-50 data-[pressed]:bg-primary-100`,
};

export const linkStyles =
  'font-medium text-primary-700 underline decoration-primary-300 underline-offset-4 hover:text-primary-900 hover:decoration-primary-700';

export const cardStyles = 'rounded-2xl border border-line bg-surface shadow-[0_1px_2px_rgba(16,58,58,0.06)]';

export const pageContainer = 'mx-auto w-full max-w-page px-4 sm:px-6 lg:px-10';

/**
 * A modal dialog: the dimmed overlay, and the panel (its width, `max-w-*`, is the caller's). The overlay's one column
 * may shrink below its content's widest line (grid-cols-1 is minmax(0, 1fr)), so a long unbroken line inside a
 * panel (a magic link) cannot widen the panel past the viewport (WCAG 1.4.10 Reflow).
 */
export const modalStyles = {
  overlay: 'fixed inset-0 z-50 grid grid-cols-1 place-items-center bg-primary-950/40 p-4 backdrop-blur-sm',
  panel: 'w-full rounded-2xl border border-line bg-surface p-6 shadow-2xl outline-none sm:p-8',
};
