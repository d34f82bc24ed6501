/**
 * The 'Unlock Premium {feature}' dialog's modal (SPEC §2 Dialogs), a chunk of its own: React Aria's modal, focus
 * containment and scroll locking are fetched when the dialog first opens or when the browser is idle
 * (ReaderOverlays.tsx PremiumDialog).
 */
import { Button, Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Link } from 'wouter';
import { buttonStyles, modalStyles } from '../../components/styles';
import { LICENSING_INFO_HREF } from './PassageStates';

export interface PremiumDialogPanelProps {
  title: string;
  message: string;
  /** Sign In, back to this address. */
  signInHref: string;
  close: () => void;
}

export default function PremiumDialogPanel({ title, message, signInHref, close }: PremiumDialogPanelProps) {
  return (
    <ModalOverlay isOpen onOpenChange={(open) => !open && close()} isDismissable className={modalStyles.overlay}>
      <Modal className={`max-w-md ${modalStyles.panel}`}>
        <Dialog className="outline-none">
          <Heading slot="title" className="text-2xl font-semibold">
            {title}
          </Heading>
          <p className="mt-3 text-ink-muted">{message}</p>
          <div className="mt-8 flex flex-wrap justify-end gap-3">
            <Button onPress={close} className={buttonStyles.ghost}>
              Close
            </Button>
            <Link href={signInHref} onClick={close} className={buttonStyles.secondary}>
              Sign In
            </Link>
            <a href={LICENSING_INFO_HREF} onClick={close} className={buttonStyles.primary}>
              Learn More
            </a>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
