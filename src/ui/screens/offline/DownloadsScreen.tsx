/**
 * Downloads (docs/reading-aids.md "Whole titles offline"): the titles stored for reading without a
 * network, each with its edition, passages, size and date, to read, to listen to, or to delete; the storage this
 * browser gives the app; and Safari's seven-day rule. Works offline: the record is in local storage.
 */
import { useEffect, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link } from 'wouter';
import { languageInfo, isLanguageCode } from '../../../domain/languages';
import { LEVEL_LABELS } from '../../../domain/levels';
import { formatBytes, SAFARI_EVICTION_NOTE, downloadKey, type Download } from '../../../domain/offline';
import { formatEditionRef } from '../../../domain/reading';
import { listenPath, paths, readerPath } from '../../../domain/routes';
import { BookOpenIcon } from '../../components/Icons';
import { DownloadIcon, TrashIcon } from '../../offline/icons';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { deleteDownload, useDownloads } from '../../offline/downloads';

const dateFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' });

function useStorageEstimate(deps: unknown): { usage: number; quota: number } | null {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null>(null);
  useEffect(() => {
    let live = true;
    navigator.storage
      ?.estimate?.()
      .then((e) => live && setEstimate({ usage: e.usage ?? 0, quota: e.quota ?? 0 }))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [deps]);
  return estimate;
}

export function DownloadsScreen() {
  useDocumentTitle('Downloads');
  const downloads = useDownloads();
  const estimate = useStorageEstimate(downloads);
  const total = downloads.reduce((sum, d) => sum + d.bytes, 0);
  return (
    <section aria-labelledby="downloads-title" className="mx-auto max-w-3xl">
      <h1 id="downloads-title" className="font-serif text-3xl font-semibold text-primary-900">
        Downloads
      </h1>
      <p className="mt-2 text-ink-muted">
        Titles stored on this device read and play without a network. Download one from its page or from the reader.
      </p>
      {downloads.length === 0 ? (
        <div className={`${cardStyles} mt-8 flex flex-col items-center gap-3 px-6 py-12 text-center`}>
          <DownloadIcon size={28} className="text-primary-600" />
          <p className="font-medium text-primary-900">No titles downloaded yet.</p>
          <Link href={paths.catalog} className={linkStyles}>
            Browse the library
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-6 text-sm text-ink-muted" data-testid="downloads-total">
            {downloads.length} {downloads.length === 1 ? 'title' : 'titles'} · {formatBytes(total)}
            {estimate && estimate.quota > 0 ? ` · ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)} used by Lectern in this browser` : ''}
          </p>
          <ul aria-label="Downloaded titles" className="mt-4 flex flex-col gap-4">
            {downloads.map((d) => (
              <DownloadCard key={downloadKey(d)} download={d} />
            ))}
          </ul>
        </>
      )}
      <p className="mt-8 rounded-xl border border-line bg-primary-50 px-4 py-3 text-sm text-primary-900">{SAFARI_EVICTION_NOTE}</p>
    </section>
  );
}

function DownloadCard({ download: d }: { download: Download }) {
  const [deleting, setDeleting] = useState(false);
  const language = isLanguageCode(d.language) ? languageInfo(d.language).name : d.language;
  const edition = { language: d.language, level: d.level };
  return (
    <li className={`${cardStyles} flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between`} aria-label={`${d.title}, ${language} ${LEVEL_LABELS[d.level]}`}>
      <div className="min-w-0">
        <Heading level={2} className="truncate font-serif text-lg font-semibold text-primary-900">
          {d.title}
        </Heading>
        <p className="text-sm text-ink-muted">
          {d.author} · {language} · {LEVEL_LABELS[d.level]}
        </p>
        <p className="mt-1 text-sm text-ink-muted">
          {d.passageCount} passages · {d.audioFiles > 0 ? `narration for ${d.audioFiles} · ` : ''}
          {formatBytes(d.bytes)} · downloaded {dateFormat.format(new Date(d.downloadedAt))}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Link href={readerPath({ slug: d.slug, version: d.version, primary: edition, position: 1 })} className={`${buttonStyles.primary} text-sm`}>
          <BookOpenIcon size={17} />
          Read
        </Link>
        {d.audioFiles > 0 ? (
          <Link href={listenPath(d.slug, d.version, formatEditionRef({ language: d.language, level: d.level }))} className={`${buttonStyles.secondary} text-sm`}>
            Listen
          </Link>
        ) : null}
        <Button
          onPress={() => {
            setDeleting(true);
            void deleteDownload(d).finally(() => setDeleting(false));
          }}
          isDisabled={deleting}
          aria-label={`Delete ${d.title} (${language}, ${LEVEL_LABELS[d.level]})`}
          className={`${buttonStyles.ghost} text-sm`}
        >
          <TrashIcon size={17} />
          Delete
        </Button>
      </div>
    </li>
  );
}
