/**
 * The publication page's 'Download EPUB', beside 'Download for offline': a dialog of the title's editions, as the
 * offline download lists them, each with a link to its EPUB 3 with narration (GET
 * /publications/{slug}/editions/epub, docs/epub.md). An edition the reader may not read shows what it needs
 * instead ('This content requires a School License'), by the rule the server gates with (src/domain/access.ts readLock).
 */
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { LICENSE_REQUIRED_MESSAGE, readLock } from '../../../domain/access';
import { isLanguageCode, languageInfo } from '../../../domain/languages';
import { LEVEL_LABELS, sortLevels } from '../../../domain/levels';
import type { Publication } from '../../../domain/schemas';
import { editionEpubUrl } from '../../../api/epub';
import { BookOpenIcon, CloseIcon } from '../../components/Icons';
import { buttonStyles, modalStyles } from '../../components/styles';
import { useCurrentUser } from '../auth/session';

export const EPUB_DOWNLOAD_LABEL = 'Download EPUB';

export function EpubDownload({ publication }: { publication: Publication }) {
  const { data: user } = useCurrentUser();
  // A link carries the session cookie but not a class code, so a reader without a session gets the free editions.
  const features = user?.features ?? [];
  const order = sortLevels(publication.levels);
  const editions = [...publication.editions].sort(
    (a, b) => a.language.code.localeCompare(b.language.code) || order.indexOf(a.level) - order.indexOf(b.level),
  );
  return (
    <DialogTrigger>
      <Button className={`${buttonStyles.ghost} mt-2 w-full py-3 text-base`}>
        <BookOpenIcon size={20} />
        {EPUB_DOWNLOAD_LABEL}
      </Button>
      <ModalOverlay isDismissable className={modalStyles.overlay}>
        <Modal className="max-h-[85dvh] w-full max-w-lg overflow-auto rounded-2xl bg-surface p-6 shadow-xl outline-none">
          <Dialog className="outline-none">
            {({ close }) => (
              <>
                <div className="flex items-start justify-between gap-4">
                  <Heading slot="title" className="font-serif text-xl font-semibold text-primary-900">
                    {EPUB_DOWNLOAD_LABEL}
                  </Heading>
                  <Button onPress={close} aria-label="Close" className={`${buttonStyles.ghost} -me-2 -mt-1 px-2`}>
                    <CloseIcon size={18} />
                  </Button>
                </div>
                <p className="mt-1 text-sm text-ink-muted">
                  An e-book of {publication.title} for any EPUB 3 reading app, with its narration: the app can read it aloud and highlight each
                  sentence as it is spoken. An edition that is not narrated yet takes a minute to prepare.
                </p>
                <ul className="mt-5 flex flex-col gap-3" aria-label="Editions">
                  {editions.map((edition) => {
                    const language = isLanguageCode(edition.language.code) ? languageInfo(edition.language.code).name : edition.language.name;
                    const locked = readLock(publication, { language: edition.language.code, level: edition.level }, features);
                    return (
                      <li key={edition.id} className="flex flex-wrap items-center justify-between gap-2 border-t border-line pt-3 first:border-t-0 first:pt-0">
                        <span className="font-medium text-primary-900">
                          {language} · {LEVEL_LABELS[edition.level]}
                        </span>
                        {locked ? (
                          <span className="text-sm text-ink-muted">{LICENSE_REQUIRED_MESSAGE}</span>
                        ) : (
                          <a
                            href={editionEpubUrl(publication.slug, publication.version, edition.language.code, edition.level)}
                            download
                            className={`${buttonStyles.ghost} px-3 py-2 text-sm`}
                            aria-label={`${EPUB_DOWNLOAD_LABEL}: ${language}, ${LEVEL_LABELS[edition.level]}`}
                          >
                            {EPUB_DOWNLOAD_LABEL}
                          </a>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
