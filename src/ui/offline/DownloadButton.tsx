/**
 * 'Download for offline' for one edition: the button, then a progress bar with the passages and
 * the size stored so far, then what is stored ('Available offline · 3.2 MB') with a link to the Downloads page.
 * A failure says why and offers the button again. The flow is the offlineDownload machine
 * (src/machines/offlineDownload), run here with the download of src/ui/offline/download.ts as its actor.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { Button, Label, ProgressBar } from 'react-aria-components';
import { Link } from 'wouter';
import { DOWNLOAD_LABEL, downloadKey, formatBytes } from '../../domain/offline';
import { paths } from '../../domain/routes';
import type { Edition, Publication } from '../../domain/schemas';
import { CheckIcon } from '../components/Icons';
import { DownloadIcon } from './icons';
import { buttonStyles, linkStyles } from '../components/styles';
import { connectOfflineDownload, offlineDownloadMachine } from '../../machines/offlineDownload';
import { downloadEditionActor } from './download';
import { useDownloads } from './downloads';
import { compactDownloadButton } from './downloadButtonStyles';

export function DownloadButton({
  publication,
  edition,
  label,
  compact = false,
  className = '',
  startAtOnce = false,
}: {
  publication: Publication;
  edition: Edition;
  /** The button's accessible name when several show together (the edition's). */
  label?: string;
  /** The reader's header: a small button, a thin bar, a short 'Offline' when stored. */
  compact?: boolean;
  className?: string;
  /** Start the download as soon as this mounts: its stand-in was pressed while this chunk loaded. */
  startAtOnce?: boolean;
}) {
  const downloads = useDownloads();
  const [logic] = useState(() => offlineDownloadMachine.provide({ actors: { downloadEdition: downloadEditionActor(publication, edition) } }));
  const actor = useActorRef(logic, { input: { passageCount: edition.passageCount } });
  const download = connectOfflineDownload(
    useSelector(actor, (s) => s),
    actor.send,
  );
  const stored = downloads.find((d) => downloadKey(d) === downloadKey({ slug: publication.slug, version: publication.version, editionId: edition.id }));
  // A title already stored is not downloaded again.
  const started = useRef(false);
  const startNow = startAtOnce && !stored;
  useEffect(() => {
    if (!startNow || started.current) return;
    started.current = true;
    download.start();
  }, [startNow, download]);
  const supported = typeof caches !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
  if (!supported) return null;

  if (stored && !download.isDownloading) {
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

  if (download.isDownloading) {
    const { done, total, bytes } = download.progress;
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
      <Button onPress={download.start} aria-label={label} className={compact ? compactDownloadButton : `${buttonStyles.secondary} w-full`}>
        <DownloadIcon size={18} />
        <span className={compact ? 'sr-only sm:not-sr-only' : ''}>{DOWNLOAD_LABEL}</span>
      </Button>
      {download.failureMessage ? (
        <p role="alert" className={`mt-2 text-sm text-danger ${compact ? 'absolute end-4 top-full w-72 rounded-lg border border-line bg-surface p-3 shadow-lg' : ''}`}>
          {download.failureMessage}
        </p>
      ) : null}
    </div>
  );
}
