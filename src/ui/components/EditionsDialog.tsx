/**
 * A button on the title page that opens a dialog listing the title's editions (by language, then level), each
 * with what the caller puts beside it: the offline download, the EPUB download.
 */
import type { ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { isLanguageCode, languageInfo } from '../../domain/languages';
import { LEVEL_LABELS, sortLevels } from '../../domain/levels';
import type { Edition, Publication } from '../../domain/schemas';
import { CloseIcon } from './Icons';
import { buttonStyles, modalStyles } from './styles';

export interface EditionsDialogProps {
  publication: Publication;
  /** The button's label, which is also the dialog's title. */
  label: string;
  icon: ReactNode;
  /** What the dialog says above the list. */
  intro: ReactNode;
  /** One edition's row (an `<li>`), given the names of its language and level. */
  row: (edition: Edition, names: { language: string; level: string }) => ReactNode;
}

/** The editions in the order the dialog lists them: by language code, then by level, easiest first. */
function editionsInOrder(publication: Publication): Edition[] {
  const order = sortLevels(publication.levels);
  return [...publication.editions].sort((a, b) => a.language.code.localeCompare(b.language.code) || order.indexOf(a.level) - order.indexOf(b.level));
}

export function EditionsDialog({ publication, label, icon, intro, row }: EditionsDialogProps) {
  return (
    <DialogTrigger>
      <Button className={`${buttonStyles.ghost} mt-2 w-full py-3 text-base`}>
        {icon}
        {label}
      </Button>
      <ModalOverlay isDismissable className={modalStyles.overlay}>
        <Modal className="max-h-[85dvh] w-full max-w-lg overflow-auto rounded-2xl bg-surface p-6 shadow-xl outline-none">
          <Dialog className="outline-none">
            {({ close }) => (
              <>
                <div className="flex items-start justify-between gap-4">
                  <Heading slot="title" className="font-serif text-xl font-semibold text-primary-900">
                    {label}
                  </Heading>
                  <Button onPress={close} aria-label="Close" className={`${buttonStyles.ghost} -me-2 -mt-1 px-2`}>
                    <CloseIcon size={18} />
                  </Button>
                </div>
                <p className="mt-1 text-sm text-ink-muted">{intro}</p>
                <ul className="mt-5 flex flex-col gap-3" aria-label="Editions">
                  {editionsInOrder(publication).map((edition) => {
                    const language = isLanguageCode(edition.language.code) ? languageInfo(edition.language.code).name : edition.language.name;
                    return row(edition, { language, level: LEVEL_LABELS[edition.level] });
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
