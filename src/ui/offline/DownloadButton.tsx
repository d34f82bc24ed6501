/**
 * 'Download for offline' for one edition (issue 14 item 6): the button, then a progress bar with the passages and
 * the size stored so far, then what is stored ('Available offline · 3.2 MB') with a link to the Downloads page.
 * A failure says why and offers the button again. The work is src/ui/offline/download.ts.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Label, ProgressBar } from 'react-aria-components';
import { Link } from 'wouter';
import { DOWNLOAD_FAILED_MESSAGE, DOWNLOAD_LABEL, downloadKey, formatBytes } from '../../domain/offline';
import { paths } from '../../domain/routes';
import type { Edition, Publication } from '../../domain/schemas';
import { CheckIcon } from '../components/Icons';
import { DownloadIcon } from './icons';
import { buttonStyles, linkStyles } from '../components/styles';
import { DownloadNotAllowed, downloadEdition, type DownloadProgress } from './download';
import { recordDownload, useDownloads } from './downloads';

const compactButton =
  'inline-flex size-10 shrink-0 items-center justify-center gap-2 rounded-lg border border-line-strong bg-surface text-sm font-medium text-primary-900 outline-none transition-colors data-[hovered]:bg-primary-50 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus sm:h-10 sm:w-auto sm:px-3';

type Phase = { name: 'idle' } | { name: 'downloading'; progress: DownloadProgress } | { name: 'failed'; message: string };

export function DownloadButton({
  publication,
  edition,
  label,
  compact = false,
  className = '',
}: {
  publication: Publication;
  edition: Edition;
  /** The button's accessible name when several show together (the edition's). */
  label?: string;
  /** The reader's header: a small button, a thin bar, a short 'Offline' when stored. */
  compact?: boolean;
  className?: string;
}) {
  const downloads = useDownloads();
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const stored = downloads.find((d) => downloadKey(d) === downloadKey({ slug: publication.slug, version: publication.version, editionId: edition.id }));
  const supported = typeof caches !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
  if (!supported) return null;

  if (stored && phase.name !== 'downloading') {
    if (compact) {
      return (
        <Link href={paths.downloads} className={`inline-flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm font-medium text-primary-700 hover:underline ${className}`} data-offline-state="stored">
          <CheckIcon size={16} />
          <span>
            Offline<span className="sr-only"> · {formatBytes(stored.bytes)}, see Downloads</span>
          </span>
        </Link>
      );
    }
    return (
      <p className={`flex items-center gap-2 text-sm text-ink-muted ${className}`} data-offline-state="stored">
        <CheckIcon size={16} className="shrink-0 text-primary-700" />
        <span>
          Available offline · {formatBytes(stored.bytes)} ·{' '}
          <Link href={paths.downloads} className={linkStyles}>
            Downloads
          </Link>
        </span>
      </p>
    );
  }

  const start = () => {
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ name: 'downloading', progress: { done: 0, total: edition.passageCount, bytes: 0 } });
    downloadEdition({ publication, edition, signal: controller.signal, onProgress: (progress) => setPhase({ name: 'downloading', progress }) })
      .then((download) => {
        recordDownload(download);
        setPhase({ name: 'idle' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setPhase({ name: 'failed', message: error instanceof DownloadNotAllowed ? error.message : DOWNLOAD_FAILED_MESSAGE });
      });
  };

  if (phase.name === 'downloading') {
    const { done, total, bytes } = phase.progress;
    return (
      <ProgressBar
        value={done}
        maxValue={Math.max(1, total)}
        valueLabel={`${done} of ${total} passages · ${formatBytes(bytes)}`}
        className={`flex flex-col gap-1.5 ${compact ? 'w-44' : ''} ${className}`}
      >
        {({ percentage, valueText }) => (
          <>
            <div className="flex justify-between gap-3 text-sm">
              <Label className={`font-medium text-primary-900 ${compact ? 'sr-only' : ''}`}>Downloading for offline</Label>
              <span className="text-ink-muted tabular-nums">{valueText}</span>
            </div>
            <div className="h-2 overflow-hidden rounded-full bg-primary-100">
              <div className="h-full rounded-full bg-primary-700 transition-[width]" style={{ width: `${percentage ?? 0}%` }} />
            </div>
          </>
        )}
      </ProgressBar>
    );
  }

  return (
    <div className={`${compact ? 'relative' : ''} ${className}`}>
      <Button onPress={start} aria-label={label} className={compact ? compactButton : `${buttonStyles.secondary} w-full`}>
        <DownloadIcon size={18} />
        <span className={compact ? 'sr-only sm:not-sr-only' : ''}>{DOWNLOAD_LABEL}</span>
      </Button>
      {phase.name === 'failed' ? (
        <p role="alert" className={`mt-2 text-sm text-danger ${compact ? 'absolute end-4 top-full w-72 rounded-lg border border-line bg-surface p-3 shadow-lg' : ''}`}>
          {phase.message}
        </p>
      ) : null}
    </div>
  );
}
