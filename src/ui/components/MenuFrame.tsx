/**
 * The trigger and popover of a deferred menu (src/ui/components/DeferredMenu.tsx): the stand-in's button, now with
 * React Aria's MenuTrigger, and the popover under it. Only the lazy menu chunks import this module, so the
 * catalog's entry JS does not carry React Aria's menu code.
 */
import type { ReactNode } from 'react';
import { Button, MenuTrigger, Popover } from 'react-aria-components';
import type { DeferredMenuProps } from './DeferredMenu';

const popoverStyles = 'rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none';

/** The trigger (the stand-in's props from DeferredMenu) and the popover, `width` wide, that holds the menu. */
export function MenuFrame({ button, defaultOpen, autoFocus, width, children }: DeferredMenuProps & { width: string; children: ReactNode }) {
  return (
    <MenuTrigger defaultOpen={defaultOpen}>
      <Button {...button} autoFocus={autoFocus} />
      <Popover placement="bottom end" offset={8} className={`${width} ${popoverStyles}`}>
        {children}
      </Popover>
    </MenuTrigger>
  );
}
