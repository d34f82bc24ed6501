/**
 * The publication page's 'Download for offline': a dialog of the title's editions, each with its
 * own download (src/ui/offline/DownloadButton.tsx). Lazy, so the page's chunk carries none of it.
 */
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { isLanguageCode, languageInfo } from '../../domain/languages';
import { LEVEL_LABELS, sortLevels } from '../../domain/levels';
import { DOWNLOAD_LABEL } from '../../domain/offline';
import type { Publication } from '../../domain/schemas';
import { CloseIcon } from '../components/Icons';
import { DownloadIcon } from './icons';
import { buttonStyles, modalStyles } from '../components/styles';
import { DownloadButton } from './DownloadButton';

export function OfflineEditions({ publication }: { publication: Publication }) {
  if (typeof caches === 'undefined') return null;
  const order = sortLevels(publication.levels);
  const editions = [...publication.editions].sort(
    (a, b) => a.language.code.localeCompare(b.language.code) || order.indexOf(a.level) - order.indexOf(b.level),
  );
  return (
    <DialogTrigger>
      <Button className={`${buttonStyles.ghost} mt-2 w-full py-3 text-base`}>
        <DownloadIcon size={20} />
        {DOWNLOAD_LABEL}
      </Button>
      <ModalOverlay isDismissable className={modalStyles.overlay}>
        <Modal className="max-h-[85dvh] w-full max-w-lg overflow-auto rounded-2xl bg-surface p-6 shadow-xl outline-none">
          <Dialog className="outline-none">
            {({ close }) => (
              <>
                <div className="flex items-start justify-between gap-4">
                  <Heading slot="title" className="font-serif text-xl font-semibold text-primary-900">
                    {DOWNLOAD_LABEL}
                  </Heading>
                  <Button onPress={close} aria-label="Close" className={`${buttonStyles.ghost} -me-2 -mt-1 px-2`}>
                    <CloseIcon size={18} />
                  </Button>
                </div>
                <p className="mt-1 text-sm text-ink-muted">
                  Store an edition of {publication.title} on this device: its passages, narration and highlighting work without a network.
                </p>
                <ul className="mt-5 flex flex-col gap-4" aria-label="Editions">
                  {editions.map((edition) => {
                    const language = isLanguageCode(edition.language.code) ? languageInfo(edition.language.code).name : edition.language.name;
                    return (
                      <li key={edition.id} className="flex flex-col gap-2 border-t border-line pt-4 first:border-t-0 first:pt-0">
                        <p className="font-medium text-primary-900">
                          {language} · {LEVEL_LABELS[edition.level]} <span className="text-sm font-normal text-ink-muted">· {edition.passageCount} passages</span>
                        </p>
                        <DownloadButton publication={publication} edition={edition} label={`${DOWNLOAD_LABEL}: ${language}, ${LEVEL_LABELS[edition.level]}`} />
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
