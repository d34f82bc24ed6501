/**
 * The reader header's 'Download for offline' (DownloadButton.tsx, compact), with its machine, the download itself
 * and the record of stored titles in a chunk of its own: fetched when the browser is idle after the reader has
 * started, or at once when the button is pointed at, focused or pressed. Until it is there the same button stands
 * in for it; a press on the stand-in starts the download as soon as the chunk arrives.
 */
import { Suspense, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { DOWNLOAD_LABEL } from '../../domain/offline';
import type { Edition, Publication } from '../../domain/schemas';
import { lazyPart } from '../components/lazyPart';
import { afterStartup } from '../platform/idle';
import { compactDownloadButton } from './downloadButtonStyles';
import { DownloadIcon } from './icons';

export const DownloadButtonPart = lazyPart(() => import('./DownloadButton').then((m) => m.DownloadButton));

export function DeferredDownloadButton({ publication, edition }: { publication: Publication; edition: Edition }) {
  // 'idle': the stand-in; 'loaded': the chunk is there; 'start': the stand-in was pressed. A pointer over the
  // stand-in or focus on it only fetches the chunk: the stand-in stays until the idle callback or a press.
  const [state, setState] = useState<'idle' | 'loaded' | 'start'>('idle');
  const load = () => void DownloadButtonPart.preload();
  useEffect(() => afterStartup(() => void DownloadButtonPart.preload().then(() => setState((s) => (s === 'idle' ? 'loaded' : s)))), []);
  // The same test the loaded button makes: without a service worker and the Cache API there is no offline copy.
  const supported = typeof caches !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
  if (!supported) return null;
  const standIn = (
    <div className="relative">
      <Button
        onHoverStart={load}
        onFocus={load}
        onPress={() => {
          void DownloadButtonPart.preload();
          setState('start');
        }}
        className={compactDownloadButton}
      >
        <DownloadIcon size={18} />
        <span className="sr-only sm:not-sr-only">{DOWNLOAD_LABEL}</span>
      </Button>
    </div>
  );
  if (state === 'idle') return standIn;
  return (
    <Suspense fallback={standIn}>
      <DownloadButtonPart publication={publication} edition={edition} compact startAtOnce={state === 'start'} />
    </Suspense>
  );
}
