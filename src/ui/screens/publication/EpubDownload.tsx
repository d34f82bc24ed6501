/**
 * The publication page's 'Download EPUB', beside 'Download for offline': a dialog of the title's editions, as the
 * offline download lists them, each with a link to its EPUB 3 with narration (GET
 * /publications/{slug}/editions/epub, docs/epub.md). An edition the reader may not read shows what it needs
 * instead ('This content requires a School License'), by the rule the server gates with (src/domain/access.ts readLock).
 */
import { LICENSE_REQUIRED_MESSAGE, readLock } from '../../../domain/access';
import type { Publication } from '../../../domain/schemas';
import { editionEpubUrl } from '../../../api/epub';
import { EditionsDialog } from '../../components/EditionsDialog';
import { BookOpenIcon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';
import { useCurrentUser } from '../auth/session';

export const EPUB_DOWNLOAD_LABEL = 'Download EPUB';

export function EpubDownload({ publication }: { publication: Publication }) {
  const { data: user } = useCurrentUser();
  // A link carries the session cookie but not a class code, so a reader without a session gets the free editions.
  const features = user?.features ?? [];
  return (
    <EditionsDialog
      publication={publication}
      label={EPUB_DOWNLOAD_LABEL}
      icon={<BookOpenIcon size={20} />}
      intro={`An e-book of ${publication.title} for any EPUB 3 reading app, with its narration: the app can read it aloud and highlight each sentence as it is spoken. An edition that is not narrated yet takes a minute to prepare.`}
      row={(edition, { language, level }) => (
        <li key={edition.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-3 first:border-t-0 first:pt-0">
          <span className="font-medium text-primary-900">
            {language} · {level}
          </span>
          {readLock(publication, { language: edition.language.code, level: edition.level }, features) ? (
            <span className="text-sm text-ink-muted">{LICENSE_REQUIRED_MESSAGE}</span>
          ) : (
            <a
              href={editionEpubUrl(publication.slug, publication.version, edition.language.code, edition.level)}
              download
              className={`${buttonStyles.ghost} px-3 py-2 text-sm`}
              aria-label={`${EPUB_DOWNLOAD_LABEL}: ${language}, ${level}`}
            >
              {EPUB_DOWNLOAD_LABEL}
            </a>
          )}
        </li>
      )}
    />
  );
}
