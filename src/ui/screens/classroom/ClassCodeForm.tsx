/**
 * Typing a class code (SPEC §5 Validation: class code): the input takes at most 8 characters and shows them
 * upper-cased, and Submit stays disabled until the text is exactly 8 letters or digits (the classCode machine's
 * rules). Submitting sends 'classCode.submit' to the engine, which verifies it through GET /visitors/me and shows
 * 'Class Code Accepted' or 'Invalid Class Code'. On acceptance `onAccepted` runs (the dialog closes and the
 * Classroom Library opens).
 */
import { useEffect, useId, useState } from 'react';
import { Button, Dialog, Form, Input, Label, Modal, ModalOverlay, TextField } from 'react-aria-components';
import { useLocation } from 'wouter';
import { CLASS_CODE_LENGTH } from '../../../domain/constants';
import { isValidClassCode, normalizeClassCode } from '../../../machines/classCode/classCode.rules';
import { DialogTitleBar } from '../../components/DialogTitleBar';
import { buttonStyles, modalStyles } from '../../components/styles';
import { sendToEngineChild, useClassCode } from './classCodeState';

import { ENTER_CLASS_CODE } from './classroom';
import { paths } from '../../../domain/routes';

export { ENTER_CLASS_CODE };

export function ClassCodeForm({ onAccepted, autoFocus }: { onAccepted?: () => void; autoFocus?: boolean }) {
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const classCode = useClassCode();
  const hintId = useId();
  const valid = isValidClassCode(text);
  const busy = submitted !== null && classCode.isVerifying;

  // The engine answered: accepted (the code is now the one we sent) or not (the form stays for another try).
  useEffect(() => {
    if (submitted === null || classCode.isVerifying) return;
    setSubmitted(null);
    if (classCode.code === submitted) onAccepted?.();
  }, [submitted, classCode.isVerifying, classCode.code, onAccepted]);

  const submit = async () => {
    if (!valid || busy) return;
    const code = normalizeClassCode(text);
    await sendToEngineChild('classCode', { type: 'classCode.submit', code, source: 'form' });
    setSubmitted(code);
  };

  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-3"
    >
      <TextField
        value={text}
        onChange={(value) => setText(normalizeClassCode(value))}
        maxLength={CLASS_CODE_LENGTH}
        autoFocus={autoFocus}
        aria-describedby={hintId}
        className="flex flex-col gap-1.5"
      >
        <Label className="text-sm font-medium text-ink">Class Code</Label>
        <Input
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="ABCD1234"
          className="h-12 rounded-xl border border-field bg-surface px-4 font-mono text-lg tracking-[0.3em] text-ink uppercase placeholder:tracking-[0.3em] placeholder:text-ink-muted/50 data-[hovered]:border-primary-400"
        />
      </TextField>
      <p id={hintId} className="text-sm text-ink-muted">
        {CLASS_CODE_LENGTH} letters or digits, from your teacher.
      </p>
      <Button type="submit" isDisabled={!valid || busy} className={`${buttonStyles.primary} py-3`}>
        {busy ? 'Checking…' : 'Submit'}
      </Button>
    </Form>
  );
}

/** The navbar's 'Enter Class Code' dialog (a lazy chunk; the button is in ClassCodeButton.tsx). */
export function ClassCodeDialog({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const [, navigate] = useLocation();
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className={modalStyles.overlay}>
      <Modal className={`max-w-sm ${modalStyles.panel}`}>
        <Dialog className="outline-none">
          {({ close }) => (
            <>
              <DialogTitleBar title={ENTER_CLASS_CODE} onClose={close} className="mb-4" />
              <ClassCodeForm
                autoFocus
                onAccepted={() => {
                  close();
                  navigate(paths.classroomCatalog);
                }}
              />
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
