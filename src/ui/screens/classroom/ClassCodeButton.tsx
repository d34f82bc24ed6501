/** The navbar's 'Enter Class Code' for a visitor without one; the dialog with the form is a lazy chunk. */
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { LazyClassCodeDialog } from './lazyClassroom';

export const ENTER_CLASS_CODE = 'Enter Class Code';

export function ClassCodeDialogTrigger({ className }: { className: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <Button onPress={() => setOpen(true)} className={className}>
        {ENTER_CLASS_CODE}
      </Button>
      {isOpen ? <LazyClassCodeDialog isOpen={isOpen} onOpenChange={setOpen} /> : null}
    </>
  );
}
