/**
 * The record of titles downloaded for offline: a list in local storage under DOWNLOADS_KEY,
 * validated on read (src/domain/offline.ts), and the stored answers each holds in OFFLINE_CACHE. Views subscribe
 * to it with `useDownloads`. Deleting a download removes its answers, but not those another download still holds.
 */
import { useSyncExternalStore } from 'react';
import { DOWNLOADS_KEY, DownloadsSchema, downloadKey, OFFLINE_CACHE, withDownload, type Download } from '../../domain/offline';

const listeners = new Set<() => void>();
let cached: { raw: string | null; list: Download[] } = { raw: null, list: [] };

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(DOWNLOADS_KEY);
  } catch {
    return null;
  }
}

/** The downloads, in the order they were made. */
export function readDownloads(): Download[] {
  if (typeof window === 'undefined') return [];
  const raw = readRaw();
  if (raw === cached.raw) return cached.list;
  let list: Download[] = [];
  try {
    const parsed = DownloadsSchema.safeParse(raw === null ? [] : JSON.parse(raw));
    list = parsed.success ? parsed.data : [];
  } catch {
    list = [];
  }
  cached = { raw, list };
  return list;
}

function writeDownloads(list: Download[]): void {
  try {
    window.localStorage.setItem(DOWNLOADS_KEY, JSON.stringify(list));
  } catch (error) {
    console.warn('Could not save the downloads record', error);
  }
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === DOWNLOADS_KEY && listener();
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useDownloads(): Download[] {
  return useSyncExternalStore(subscribe, readDownloads, () => []);
}

/** Every address the recorded downloads hold (optionally leaving one out). */
export function urlsHeldByDownloads(except?: Download): Set<string> {
  return new Set(readDownloads().flatMap((d) => (except && downloadKey(d) === downloadKey(except) ? [] : d.urls)));
}

/** Remove stored answers, keeping those in `keep`. */
export async function removeStored(urls: readonly string[], keep: ReadonlySet<string> = new Set()): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(OFFLINE_CACHE);
  await Promise.all(urls.filter((u) => !keep.has(u)).map((u) => cache.delete(u)));
}

export function recordDownload(download: Download): void {
  writeDownloads(withDownload(readDownloads(), download));
}

export async function deleteDownload(download: Download): Promise<void> {
  await removeStored(download.urls, urlsHeldByDownloads(download));
  writeDownloads(readDownloads().filter((d) => downloadKey(d) !== downloadKey(download)));
}

/** At sign-out and when a class code is cleared: the downloads a visitor could not read go (src/domain/offline.ts isGatedEdition). */
export async function deleteGatedDownloads(): Promise<void> {
  for (const download of readDownloads().filter((d) => d.gated)) await deleteDownload(download);
}
