/**
 * The publication page's 'Download for offline': a dialog of the title's editions, each with its
 * own download (src/ui/offline/DownloadButton.tsx). Lazy, so the page's chunk carries none of it.
 */
import { DOWNLOAD_LABEL } from '../../domain/offline';
import type { Publication } from '../../domain/schemas';
import { EditionsDialog } from '../components/EditionsDialog';
import { DownloadIcon } from './icons';
import { DownloadButton } from './DownloadButton';

export function OfflineEditions({ publication }: { publication: Publication }) {
  if (typeof caches === 'undefined') return null;
  return (
    <EditionsDialog
      publication={publication}
      label={DOWNLOAD_LABEL}
      icon={<DownloadIcon size={20} />}
      intro={`Store an edition of ${publication.title} on this device: its passages, narration and highlighting work without a network.`}
      row={(edition, { language, level }) => (
        <li key={edition.id} className="flex flex-col gap-2 border-t border-line pt-4 first:border-t-0 first:pt-0">
          <p className="font-medium text-primary-900">
            {language} · {level} <span className="text-sm font-normal text-ink-muted">· {edition.passageCount} passages</span>
          </p>
          <DownloadButton publication={publication} edition={edition} label={`${DOWNLOAD_LABEL}: ${language}, ${level}`} />
        </li>
      )}
    />
  );
}
