/**
 * Word mode's menu (WordMode.tsx): 'Say this word' and 'Play from here' in a popover under the word, opened by a
 * right click, a long press, the ContextMenu key or Shift+F10. A chunk of its own, fetched when word mode turns on.
 */
import type { RefObject } from 'react';
import { Menu, MenuItem, Popover } from 'react-aria-components';
import { popoverStyles } from './readerStyles';

const MENU_ITEM_CLASS =
  'flex cursor-pointer items-center rounded-lg px-3 py-2 text-sm text-ink outline-none data-[focused]:bg-primary-50 data-[focused]:text-primary-900';

export function WordMenu({
  anchorRef,
  word,
  onAction,
  onClose,
}: {
  /** The element over the word the menu opens under. */
  anchorRef: RefObject<HTMLSpanElement | null>;
  /** The word's text, in the menu's name. */
  word: string;
  /** Say the word (false) or play from it (true). */
  onAction: (playFrom: boolean) => void;
  onClose: () => void;
}) {
  return (
    <Popover
      triggerRef={anchorRef}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      placement="bottom start"
      offset={4}
      aria-label="Word menu"
      className={`${popoverStyles} w-48`}
    >
      <Menu
        aria-label={`Word: ${word}`}
        autoFocus="first"
        className="outline-none"
        onAction={(key) => {
          onAction(key === 'play');
          onClose();
        }}
      >
        <MenuItem id="say" className={MENU_ITEM_CLASS}>
          Say this word
        </MenuItem>
        <MenuItem id="play" className={MENU_ITEM_CLASS}>
          Play from here
        </MenuItem>
      </Menu>
    </Popover>
  );
}
