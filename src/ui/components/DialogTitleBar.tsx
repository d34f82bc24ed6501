/** A dialog's title with its Close button beside it (SPEC §2 Dialogs). Inside a React Aria Dialog. */
import type { ReactNode } from 'react';
import { Button, Heading } from 'react-aria-components';
import { CloseIcon } from './Icons';

export function DialogTitleBar({ title, onClose, className = '' }: { title: ReactNode; onClose: () => void; className?: string }) {
  return (
    <div className={`flex items-start justify-between gap-4 ${className}`.trim()}>
      <Heading slot="title" className="text-2xl font-semibold">
        {title}
      </Heading>
      <Button aria-label="Close" onPress={onClose} className="rounded-md p-1 text-ink-muted data-[hovered]:text-ink">
        <CloseIcon size={20} />
      </Button>
    </div>
  );
}
