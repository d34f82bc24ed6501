/**
 * The navbar's title on a page about one title (SPEC §2 Shared layout: "a title (tooltip: title by author)"):
 * rendered by the page into the navbar's row (the parent of its 'Main' navigation; appended last, and placed after
 * the logo by its flex order), so the catalog's entry carries none of it. The tooltip is a `title` attribute, as in
 * the reader's header; the author is also in the text, for screen readers.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { titleByAuthor } from '../../domain/navbarTitle';

/** The navbar's 'Main' navigation (src/ui/layout/Navbar.tsx), whose parent is the navbar's row. */
const MAIN_NAV = 'nav[aria-label="Main"]';

export function NavbarTitle({ title, author }: { title: string; author: string }) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  // The navbar is committed with or before the page's content; its row is found once it is in the document.
  useEffect(() => setSlot(document.querySelector(MAIN_NAV)?.parentElement ?? null), []);
  const tooltip = titleByAuthor({ title, author });
  if (!slot || !tooltip) return null;
  return createPortal(
    <p title={tooltip} className="order-1 hidden max-w-[18rem] min-w-0 truncate border-s border-line ps-4 font-serif text-lg text-ink md:block">
      {title.trim()}
      {author.trim() ? <span className="sr-only"> by {author.trim()}</span> : null}
    </p>,
    slot,
  );
}
