import { assign, fromCallback, setup, spawnChild, stopChild } from 'xstate';
import type { StateMetaWithTimers } from '../shared/timers';
import type { OfflineDownloadContext, OfflineDownloadEvent, OfflineDownloadInput, OfflineDownloadReport } from './offlineDownload.types';

/** The id the download actor runs under while the machine is in `downloading`. */
export const DOWNLOAD_ACTOR_ID = 'download';

/**
 * One edition's 'Download for offline' (docs/reading-aids.md "Whole titles offline"): the button, then the download
 * with its progress, then done (the record of downloads says what is stored) or failed with the reason. The work
 * is an actor the view provides (`downloadEdition`, src/ui/offline/download.ts): it reports progress, the end and
 * a failure as events, and aborts when it is stopped, which is when the machine leaves `downloading` or stops. It
 * is spawned and stopped by name, not invoked, so the machine stays walkable by createTestModel.
 */
export const offlineDownloadMachine = setup({
  types: {} as {
    context: OfflineDownloadContext;
    events: OfflineDownloadEvent | OfflineDownloadReport;
    input: OfflineDownloadInput;
    meta: StateMetaWithTimers;
  },
  actors: {
    /** Provided by the view: stores the edition and reports as it goes. */
    downloadEdition: fromCallback<{ type: 'download.noop' }, void>(() => () => {}),
  },
  actions: {
    startDownload: spawnChild('downloadEdition', { id: DOWNLOAD_ACTOR_ID }),
    stopDownload: stopChild(DOWNLOAD_ACTOR_ID),
    resetProgress: assign(({ context }) => ({ progress: { done: 0, total: context.passageCount, bytes: 0 }, failure: null })),
    takeProgress: assign(({ event }) => (event.type === 'download.progress' ? { progress: event.progress } : {})),
    takeFailure: assign(({ event }) => (event.type === 'download.failed' ? { failure: event.failure } : {})),
  },
}).createMachine({
  id: 'offlineDownload',
  initial: 'idle',
  context: ({ input }) => ({ passageCount: input.passageCount, progress: { done: 0, total: input.passageCount, bytes: 0 }, failure: null }),
  states: {
    idle: {
      meta: { description: "Not stored by this button: 'Download for offline' shows (or what is stored, from the record)." },
      on: { 'download.start': { target: 'downloading' } },
    },
    downloading: {
      meta: { description: 'The edition is being stored: a progress bar with the passages and the size so far.' },
      entry: ['resetProgress', 'startDownload'],
      exit: 'stopDownload',
      on: {
        'download.progress': { target: 'downloading', actions: 'takeProgress' },
        'download.finished': { target: 'done' },
        'download.failed': { target: 'failed', actions: 'takeFailure' },
      },
    },
    done: {
      meta: { description: "Stored and recorded: 'Available offline' with its size shows while the record holds it." },
      on: { 'download.start': { target: 'downloading' } },
    },
    failed: {
      meta: { description: 'Nothing of it stayed: the reason shows under the button, which may be pressed again.' },
      on: { 'download.start': { target: 'downloading' } },
    },
  },
});
