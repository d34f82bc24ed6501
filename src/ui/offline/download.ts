/**
 * Download one edition for reading without a network (docs/reading-aids.md "Whole titles
 * offline"). It asks for everything the reader would, with a client that asks exactly as the app's does
 * (`createApiClientWithFetch`), and stores each answer in OFFLINE_CACHE under the address it was asked at, so the
 * service worker (src/sw.ts) answers the reader from it offline: the publication, who reads (the session, a class
 * code's check), every passage, its narration and speech marks, its decoded text where this reader may decode, the
 * narration MP3s whole, and the listen flow's answers. The record of downloads is in local storage
 * (src/ui/offline/downloads.ts). A passage this reader may not read stops the download, and nothing of it stays.
 * A narration still being made is waited for through the one narration wait (src/domain/narrationPoll.ts).
 * `downloadEditionActor` is this work as the offlineDownload machine's actor (src/machines/offlineDownload).
 */
import { fromCallback } from 'xstate';
import { systemClock } from '../../adapters/common';
import { DOWNLOAD_NOT_ALLOWED_MESSAGE, OFFLINE_CACHE, isGatedEdition, type Download } from '../../domain/offline';
import { waitForNarration, type PollClock } from '../../domain/narrationPoll';
import type { Edition, Publication } from '../../domain/schemas';
import type { DownloadProgress, OfflineDownloadReport } from '../../machines/offlineDownload';
import { createApiClientWithFetch } from '../platform/api';
import { readStoredClassCode } from '../platform/storedClassCode';
import { recordDownload, removeStored, urlsHeldByDownloads } from './downloads';

/** How many times a narration still being made is asked for, a second apart, before the title is stored without it. @default 30 */
export const NARRATION_WAIT_POLLS = 30;
/** The wait between two asks for a narration being made. @default 1000 */
export const NARRATION_WAIT_MS = 1000;

export class DownloadNotAllowed extends Error {
  constructor() {
    super(DOWNLOAD_NOT_ALLOWED_MESSAGE);
  }
}

export async function downloadEdition(options: {
  publication: Publication;
  edition: Edition;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** What the narration wait runs on. @default systemClock */
  clock?: PollClock;
}): Promise<Download> {
  const { publication, edition, signal, clock = systemClock } = options;
  const cache = await caches.open(OFFLINE_CACHE);
  const urls = new Set<string>();
  let bytes = 0;

  /** Store a successful answer whole under its address (an MP3 too: the service worker cuts ranges from it). */
  const keep = async (url: string, response: Response) => {
    const body = await response.clone().blob();
    await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
    if (!urls.has(url)) bytes += body.size;
    urls.add(url);
  };
  const storingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    if (response.ok && request.method === 'GET') await keep(request.url, response);
    return response;
  };
  const client = createApiClientWithFetch(storingFetch);
  const optional = async <T>(call: () => Promise<T>): Promise<T | null> => {
    try {
      return await call();
    } catch {
      return null;
    }
  };

  try {
    await navigator.storage?.persist?.();
    const fresh = await client.getPublication(publication.slug, publication.version);
    // Who reads: the app asks on every start, and offline it must hear the same.
    const session = await optional(() => client.getSession({ signal }));
    if (session) await optional(() => client.getCurrentUser({ signal }));
    if (readStoredClassCode()) await optional(() => client.getVisitor({}, { signal }));

    /** A picture of this site (the cover, a passage's illustration), stored whole. */
    const keepPicture = async (src: string | null | undefined) => {
      if (!src) return;
      const url = new URL(src, location.origin);
      if (url.origin !== location.origin) return;
      const response = await fetch(url.href, { signal });
      if (response.ok) await keep(url.href, response);
    };
    await optional(() => keepPicture(fresh.thumbnailImageUrl));

    const total = edition.passageCount;
    const english = edition.language.code === 'en';
    for (let position = 1; position <= total; position++) {
      signal?.throwIfAborted();
      const passage = await client.getPassage(edition.id, position, { signal });
      if (passage.licenseRequired || passage.groupCodeRequired) throw new DownloadNotAllowed();
      await optional(() => keepPicture(passage.imageUrl));
      if (edition.audioEnabled) {
        const audio = await optional(() =>
          waitForNarration(() => client.getPassageAudio(passage.id, edition.id, { signal }), {
            clock,
            signal,
            intervalMs: NARRATION_WAIT_MS,
            maxAsks: NARRATION_WAIT_POLLS + 1,
          }),
        );
        if (audio?.status === 'ready') {
          const mp3 = new URL(audio.audio.url, location.origin).href;
          const response = await fetch(mp3, { signal });
          if (response.ok) await keep(mp3, response);
          await optional(() => client.getSpeechMarks(passage.id, { signal }));
          await optional(() => client.getAudioOnly(edition.id, position, { signal }));
        }
      }
      if (edition.decodeEnabled && english) await optional(() => client.getDecodedText(passage.id, edition.id, position, { signal }));
      options.onProgress?.({ done: position, total, bytes });
    }
    const audioFiles = [...urls].filter((u) => /\.mp3(\?|$)/.test(u)).length;
    return {
      slug: fresh.slug,
      version: fresh.version,
      title: fresh.title,
      author: fresh.author,
      editionId: edition.id,
      language: edition.language.code,
      level: edition.level,
      passageCount: total,
      bytes,
      audioFiles,
      urls: [...urls],
      gated: isGatedEdition(fresh, edition.language.code, edition.level),
      downloadedAt: new Date().toISOString(),
    };
  } catch (error) {
    // Nothing of a download that did not finish stays (answers another download holds are kept).
    await removeStored([...urls], urlsHeldByDownloads());
    throw error;
  }
}

/**
 * The offlineDownload machine's `downloadEdition` actor for one edition: runs the download, records it, and reports
 * progress, the end and a failure as events; stopping it aborts the download (nothing of it stays).
 */
export function downloadEditionActor(publication: Publication, edition: Edition) {
  return fromCallback<{ type: 'download.noop' }, void>(({ sendBack }) => {
    const controller = new AbortController();
    const report = (event: OfflineDownloadReport) => {
      if (!controller.signal.aborted) sendBack(event);
    };
    downloadEdition({ publication, edition, signal: controller.signal, onProgress: (progress) => report({ type: 'download.progress', progress }) }).then(
      (download) => {
        if (controller.signal.aborted) return;
        recordDownload(download);
        report({ type: 'download.finished' });
      },
      (error: unknown) => report({ type: 'download.failed', failure: error instanceof DownloadNotAllowed ? 'notAllowed' : 'failed' }),
    );
    return () => controller.abort();
  });
}
