/** The navbar's 'Enter Class Code' for a visitor without one; the dialog with the form is a lazy chunk. */
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { ENTER_CLASS_CODE } from './classroom';
import { LazyClassCodeDialog } from './lazyClassroom';

export { ENTER_CLASS_CODE };

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
