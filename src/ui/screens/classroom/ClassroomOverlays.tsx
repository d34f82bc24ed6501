/**
 * The engine-bound pieces of the main layout and the classroom screens, in one lazy chunk (the catalog's entry JS
 * does not carry the engine): the engine's toasts and 'Unlock Premium …' dialog outside the reader, the class-code
 * banner with Copy Magic Link, and the 'Share with Students' dialog (with its Google Classroom and Teams links). The
 * copy-link machine owns the clipboard write, 'Copied!' (2 s), the toasts and the 'Copied Magic Link' event; these
 * views only render it and send it 'copy.request'.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { createMutations } from '../../../api';
import { connectCopyLink } from '../../../machines/copyLink';
import { DialogTitleBar } from '../../components/DialogTitleBar';
import { CheckIcon, CopyIcon, KeyIcon } from '../../components/Icons';
import { buttonStyles, modalStyles, pageContainer } from '../../components/styles';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { EngineToasts, PremiumDialog } from '../reader/ReaderOverlays';
import { api } from '../../platform/api';
import { sendToEngineChild } from './classCodeState';
import { magicLink } from './classroom';
import { ShareToClassLinks } from './ShareToClassLinks';
import { queryKeys } from '../../../api/queryKeys';

/**
 * The title page takes its share links from this chunk: a teacher with a class code has it already (the banner),
 * and the links need no chunk of their own.
 */
export { ShareToClassLinks };

const mutations = createMutations(api);

/** Toasts and the premium dialog for pages in the main layout. */
export function EngineOverlays() {
  return (
    <>
      <EngineToasts />
      <PremiumDialog />
    </>
  );
}

function useCopyLink() {
  const snapshot = useEngine((s) => s.copyLink, Object.is);
  return connectCopyLink(snapshot, useChildSend('copyLink'));
}

function origin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}

/** SPEC §2 Class code banner: 'Your Class Code is {code}.' with Copy Magic Link. */
export function ClassCodeBanner({ code }: { code: string }) {
  const { isCopied, copy } = useCopyLink();
  return (
    <section aria-label="Class code" className="border-b border-primary-200 bg-primary-50">
      <div className={`${pageContainer} flex flex-wrap items-center gap-x-4 gap-y-2 py-2.5 text-sm text-primary-950`}>
        <KeyIcon size={18} className="text-primary-700" />
        <p>
          Your Class Code is <strong className="font-mono text-base tracking-wider">{code}</strong>.
        </p>
        <Button
          onPress={() => copy(magicLink(origin(), code))}
          className={`${buttonStyles.secondary} ms-auto px-3 py-1.5 text-sm`}
        >
          {isCopied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
          {isCopied ? 'Copied!' : 'Copy Magic Link'}
        </Button>
        <NewClassCodeButton />
      </div>
    </section>
  );
}

/** Messages of class-code rotation (a class code can be rotated). Not in the spec. */
export const NEW_CODE_CONFIRMATION = 'Students who use the old code or an old magic link will need the new one.';
export const NEW_CODE_DONE = 'New class code ready';
export const NEW_CODE_FAILED = 'Failed to make a new class code';

/**
 * 'New Code': POST /users/me/group-code after a confirmation, because the old code stops working at once. The
 * banner shows the new code when the current user is refetched; the outcome is a toast on the engine's queue.
 */
function NewClassCodeButton() {
  const [isOpen, setOpen] = useState(false);
  const client = useQueryClient();
  const rotate = useMutation({
    ...mutations.rotateGroupCode(),
    onSuccess: async () => {
      setOpen(false);
      await client.invalidateQueries({ queryKey: queryKeys.currentUser() });
      void sendToEngineChild('toasts', { type: 'toast.show', kind: 'success', message: NEW_CODE_DONE });
    },
    onError: () => {
      setOpen(false);
      void sendToEngineChild('toasts', { type: 'toast.show', kind: 'error', message: NEW_CODE_FAILED });
    },
  });
  return (
    <>
      <Button onPress={() => setOpen(true)} className={`${buttonStyles.ghost} px-3 py-1.5 text-sm`}>
        New Code
      </Button>
      <ModalOverlay isOpen={isOpen} onOpenChange={setOpen} isDismissable className={modalStyles.overlay}>
        <Modal className={`max-w-md ${modalStyles.panel}`}>
          <Dialog role="alertdialog" className="outline-none">
            <Heading slot="title" className="text-2xl font-semibold">
              Make a new class code?
            </Heading>
            <p className="mt-3 text-ink-muted">{NEW_CODE_CONFIRMATION}</p>
            <div className="mt-8 flex flex-wrap justify-end gap-3">
              <Button onPress={() => setOpen(false)} className={buttonStyles.ghost}>
                Keep This Code
              </Button>
              <Button onPress={() => rotate.mutate()} isDisabled={rotate.isPending} className={buttonStyles.primary}>
                Make New Code
              </Button>
            </div>
          </Dialog>
        </Modal>
      </ModalOverlay>
    </>
  );
}

/**
 * SPEC §2 Dialogs: 'Share with Students', the magic link with Copy Link ('Copied!' for 2 s), and links that post it
 * to Google Classroom or Microsoft Teams.
 */
export function ShareWithStudentsDialog({ code, isOpen, onOpenChange }: { code: string; isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { buttonLabel, isCopied, copy } = useCopyLink();
  const link = magicLink(origin(), code);
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className={modalStyles.overlay}>
      <Modal className={`max-w-lg ${modalStyles.panel}`}>
        <Dialog className="outline-none">
          {({ close }) => (
            <>
              <DialogTitleBar title="Share with Students" onClose={close} />
              <p className="mt-3 text-ink-muted">
                Students who open this magic link see the titles you made visible, without an account. Your class code is{' '}
                <strong className="font-mono text-ink">{code}</strong>.
              </p>
              <div className="mt-5 flex flex-col gap-3 sm:flex-row">
                {/* The whole link, broken anywhere on a narrow screen: a teacher reads it before copying it. */}
                <output aria-label="Magic link" className="min-w-0 flex-1 rounded-lg break-all border border-line bg-paper px-3 py-2.5 font-mono text-sm">
                  {link}
                </output>
                <Button onPress={() => copy(link)} className={`${buttonStyles.primary} shrink-0`}>
                  {isCopied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
                  {buttonLabel}
                </Button>
              </div>
              <ShareToClassLinks link={link} className="mt-3" />
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
