/** The reader header's small 'Download for offline' button: the loaded one (DownloadButton.tsx) and its stand-in. */
export const compactDownloadButton =
  'inline-flex size-10 shrink-0 items-center justify-center gap-2 rounded-lg border border-line-strong bg-surface text-sm font-medium text-primary-900 outline-none transition-colors data-[hovered]:bg-primary-50 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus sm:h-10 sm:w-auto sm:px-3';
