import { describe, expect, it } from 'vitest';
import { DownloadsSchema, downloadKey, formatBytes, isGatedEdition, withDownload, type Download } from '../../src/domain/offline';
import { fixturePublication } from '../fixtures/publication';

const download = (over: Partial<Download> = {}): Download => ({
  slug: 'fixture',
  version: 'v1',
  title: 'Fixture',
  author: 'A. Writer',
  editionId: 4,
  language: 'en',
  level: 'ORIGINAL',
  passageCount: 3,
  bytes: 120_000,
  audioFiles: 3,
  urls: ['http://x/api/v1/passages?editionId=4&position=1'],
  gated: false,
  downloadedAt: '2026-11-26T19:00:00.000Z',
  ...over,
});

describe('offline downloads', () => {
  it('reads the record entry by entry: a broken entry is dropped, the others kept', () => {
    const good = download();
    expect(DownloadsSchema.parse([good, { slug: 'x' }, 42, download({ editionId: 5 })])).toEqual([good, download({ editionId: 5 })]);
    expect(DownloadsSchema.safeParse({ not: 'a list' }).success).toBe(false);
  });

  it('keeps one download per edition of a version of a title', () => {
    const first = download({ bytes: 1 });
    const again = download({ bytes: 2 });
    expect(withDownload([first, download({ editionId: 9 })], again)).toEqual([download({ editionId: 9 }), again]);
    expect(downloadKey(first)).toBe('fixture/v1/4');
  });

  it('an edition a visitor could read whole is not gated; a premium title or a licensed level is', () => {
    const publication = fixturePublication();
    expect(isGatedEdition(publication, 'en', 'ORIGINAL')).toBe(false);
    expect(isGatedEdition({ ...publication, badges: ['premium'] }, 'en', 'ORIGINAL')).toBe(true);
    // GOLD is a licensed level on the free tier (src/domain/access.ts).
    expect(isGatedEdition(publication, 'en', 'GOLD')).toBe(true);
  });

  it('sizes read as people say them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(84_000)).toBe('84 KB');
    expect(formatBytes(12_400_000)).toBe('12.4 MB');
  });
});
