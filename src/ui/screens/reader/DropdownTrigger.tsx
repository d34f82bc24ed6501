/**
 * What a reader dropdown's button shows: its icon, its value (the Select's value, or its text in the stand-in of
 * src/ui/components/DeferredMenu.tsx), and the chevron. Shared by the language, section and setting dropdowns.
 */
import type { ReactNode } from 'react';
import { ChevronDownIcon } from '../../components/Icons';

export function DropdownTrigger({ icon, value }: { icon: ReactNode; value: ReactNode }) {
  return (
    <>
      {icon}
      {value}
      <ChevronDownIcon size={16} className="shrink-0 text-ink-muted" />
    </>
  );
}
