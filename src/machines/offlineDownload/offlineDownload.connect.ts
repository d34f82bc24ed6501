import type { SnapshotFrom } from 'xstate';
import { DOWNLOAD_FAILED_MESSAGE, DOWNLOAD_NOT_ALLOWED_MESSAGE } from '../../domain/offline';
import type { offlineDownloadMachine } from './offlineDownload.machine';
import type { DownloadProgress, OfflineDownloadEvent } from './offlineDownload.types';

export interface OfflineDownloadApi {
  isDownloading: boolean;
  /** The passages and bytes stored so far; meaningful while downloading. */
  progress: DownloadProgress;
  /** Why the last download stopped, as the reader is told; null unless it failed. */
  failureMessage: string | null;
  start(): void;
}

export function connectOfflineDownload(snapshot: SnapshotFrom<typeof offlineDownloadMachine>, send: (event: OfflineDownloadEvent) => void): OfflineDownloadApi {
  const failure = snapshot.matches('failed') ? snapshot.context.failure : null;
  return {
    isDownloading: snapshot.matches('downloading'),
    progress: snapshot.context.progress,
    failureMessage: failure === 'notAllowed' ? DOWNLOAD_NOT_ALLOWED_MESSAGE : failure === 'failed' ? DOWNLOAD_FAILED_MESSAGE : null,
    start: () => send({ type: 'download.start' }),
  };
}
