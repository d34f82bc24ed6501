/**
 * The record of offline downloads (src/ui/offline/downloads.ts) with browser storage doubles: deleting one keeps what
 * another still holds, and at sign-out or a cleared class code only the gated downloads go.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DOWNLOADS_KEY, OFFLINE_CACHE, type Download } from '../../src/domain/offline';

const store = new Map<string, string>();
const cached = new Set<string>();
const opened: string[] = [];

beforeEach(() => {
  store.clear();
  cached.clear();
  opened.length = 0;
  const localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  Object.assign(globalThis, {
    window: { localStorage, addEventListener() {}, removeEventListener() {} },
    caches: {
      open: async (name: string) => {
        opened.push(name);
        return { delete: async (url: string) => cached.delete(url) };
      },
    },
  });
});
afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
  delete (globalThis as Record<string, unknown>).caches;
});

const download = (editionId: number, gated: boolean, urls: string[]): Download => ({
  slug: 'fixture',
  version: 'v1',
  title: 'Fixture',
  author: 'A. Writer',
  editionId,
  language: 'en',
  level: gated ? 'GOLD' : 'ORIGINAL',
  passageCount: 1,
  bytes: 10,
  audioFiles: 0,
  urls,
  gated,
  downloadedAt: '2026-11-26T19:00:00.000Z',
});

describe('offline downloads record', () => {
  it('deletes the gated downloads and keeps the free ones, with the answers they share', async () => {
    const { recordDownload, readDownloads, deleteGatedDownloads } = await import('../../src/ui/offline/downloads');
    const free = download(1, false, ['/api/v1/publications/fixture', '/api/v1/passages?editionId=1&position=1']);
    const gated = download(2, true, ['/api/v1/publications/fixture', '/api/v1/passages?editionId=2&position=1']);
    for (const u of [...free.urls, ...gated.urls]) cached.add(u);
    recordDownload(free);
    recordDownload(gated);
    expect(readDownloads().map((d) => d.editionId)).toEqual([1, 2]);

    await deleteGatedDownloads();
    expect(readDownloads().map((d) => d.editionId)).toEqual([1]);
    expect(JSON.parse(store.get(DOWNLOADS_KEY)!)).toHaveLength(1);
    // The publication both held stays for the free one; the gated passage is gone.
    expect([...cached].sort()).toEqual(['/api/v1/passages?editionId=1&position=1', '/api/v1/publications/fixture']);
    expect(opened.every((name) => name === OFFLINE_CACHE)).toBe(true);
  });

  it('reads a damaged record as the entries that still validate', async () => {
    const { readDownloads } = await import('../../src/ui/offline/downloads');
    store.set(DOWNLOADS_KEY, JSON.stringify([download(3, false, []), { broken: true }]));
    expect(readDownloads().map((d) => d.editionId)).toEqual([3]);
    store.set(DOWNLOADS_KEY, '{not json');
    expect(readDownloads()).toEqual([]);
  });
});
