/**
 * Whole titles offline (docs/reading-aids.md "Whole titles offline"): what a download of one
 * edition holds, the record of downloads kept in local storage (versioned, validated on read), and the rules of
 * when a download is gated. Pure: the downloader (src/ui/offline/download.ts) and the service worker (src/sw.ts)
 * use it.
 */
import { z } from 'zod';
import { columnLocks } from './locks';
import type { Publication } from './schemas';

export { FONT_CACHE, OFFLINE_CACHE } from './offlineCaches';
/** The local-storage key of the downloads record (the app's versioned prefix, src/domain/settings.ts). */
export const DOWNLOADS_KEY = 'lectern.v1.downloads';

/** What the Downloads page says of Safari's storage policy. */
export const SAFARI_EVICTION_NOTE =
  'Safari may remove downloaded titles after 7 days without a visit to Lectern. Open Lectern now and then to keep them.';
/** The button that stores an edition for reading without a network. */
export const DOWNLOAD_LABEL = 'Download for offline';
/** Said when a download cannot finish. */
export const DOWNLOAD_FAILED_MESSAGE = 'The download could not finish. Check your connection and try again.';
/** Said when the reader may not read the edition it asked to download. */
export const DOWNLOAD_NOT_ALLOWED_MESSAGE = 'This edition is not available to you for download.';

export const DownloadSchema = z.object({
  slug: z.string().check(z.minLength(1), z.maxLength(200)),
  version: z.string().check(z.regex(/^v\d+$/)),
  title: z.string().check(z.maxLength(500)),
  author: z.string().check(z.maxLength(500)),
  editionId: z.int(),
  language: z.string().check(z.minLength(1), z.maxLength(8)),
  level: z.enum(['GOLD', 'SILVER', 'ORIGINAL']),
  passageCount: z.int().check(z.gte(0)),
  /** Bytes stored, and how many narration files. */
  bytes: z.int().check(z.gte(0)),
  audioFiles: z.int().check(z.gte(0)),
  /** Every URL stored for it (the responses in OFFLINE_CACHE), so it can be deleted alone. */
  urls: z.array(z.string().check(z.maxLength(2000))).check(z.maxLength(5000)),
  /** Stored while signed in or with a class code, for content a visitor may not read: deleted at sign-out and when the code is cleared. */
  gated: z.boolean(),
  downloadedAt: z.string().check(z.maxLength(40)),
});
export type Download = z.infer<typeof DownloadSchema>;

/** The downloads record: entries that do not validate are dropped one by one. */
export const DownloadsSchema = z.pipe(
  z.array(z.unknown()),
  z.transform((list: unknown[]) =>
    list.flatMap((item) => {
      const parsed = DownloadSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    }),
  ),
);

/** The key of one download: one edition of one version of a title. */
export const downloadKey = (d: Pick<Download, 'slug' | 'version' | 'editionId'>) => `${d.slug}/${d.version}/${d.editionId}`;

/** The record with `download` added or replacing the same edition's. */
export function withDownload(list: readonly Download[], download: Download): Download[] {
  return [...list.filter((d) => downloadKey(d) !== downloadKey(download)), download];
}

/**
 * Whether an edition is gated: a visitor without account or class code (no features) could not read all of it (a
 * premium title, a level or language locked on the free tier, or narration locked). Such a download belongs to
 * the reader who made it and goes at sign-out and when a class code is cleared.
 */
export function isGatedEdition(publication: Publication, language: string, level: 'GOLD' | 'SILVER' | 'ORIGINAL'): boolean {
  const locks = columnLocks(publication, language, []);
  return locks.titleLocked || locks.lockedLevels.includes(level) || locks.lockedLanguages.includes(language) || locks.audioLocked;
}

/** A byte count for people: '840 KB', '12.4 MB'. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
