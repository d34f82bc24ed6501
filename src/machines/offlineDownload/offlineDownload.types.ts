/** Passages stored so far, of the edition's total, and the bytes they take. */
export interface DownloadProgress {
  done: number;
  total: number;
  bytes: number;
}

/** Why a download stopped: the reader may not read a passage (a gate), or anything else (network, storage). */
export type DownloadFailure = 'notAllowed' | 'failed';

export interface OfflineDownloadInput {
  /** The edition's passages: the progress bar's total before the first passage is stored. */
  passageCount: number;
}

export interface OfflineDownloadContext {
  passageCount: number;
  progress: DownloadProgress;
  failure: DownloadFailure | null;
}

/** What the view sends. */
export type OfflineDownloadEvent = { type: 'download.start' };

/** What the download actor reports while it runs (sendBack). */
export type OfflineDownloadReport =
  | { type: 'download.progress'; progress: DownloadProgress }
  /** Every answer is stored and the download is recorded. */
  | { type: 'download.finished' }
  | { type: 'download.failed'; failure: DownloadFailure };

export type OfflineDownloadState = 'idle' | 'downloading' | 'done' | 'failed';
