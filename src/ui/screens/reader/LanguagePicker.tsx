/**
 * The column's searchable language dropdown (SPEC §2 Reader screen): placeholder 'Search languages...', the
 * groups 'recently used' and 'all languages', upper-case names, a tick on the current language, and a
 * case-insensitive match on name or code (src/domain/languageSearch). Languages outside the reader's free list
 * (the engine's column locks) are greyed, with a lock and the description 'Premium'; they stay focusable and can
 * be chosen, and the engine answers with 'Unlock Premium Languages' instead of moving (SPEC §6 Languages).
 *
 * The dropdown itself (LanguageSelect.tsx) is a lazy chunk that mounts on the first sign it is wanted; until then
 * its button stands in for it, drawn and named the same (src/ui/components/DeferredMenu.tsx).
 */
import type { ReactNode } from 'react';
import type { Language } from '../../../domain/schemas';
import { DeferredMenu, lazyMenu } from '../../components/DeferredMenu';
import { ChevronDownIcon, GlobeIcon } from '../../components/Icons';
import { controlButton } from './readerStyles';

export interface LanguagePickerProps {
  /** The accessible name, e.g. 'Language'. */
  label: string;
  current: { code: string; name: string };
  /** The languages this title offers. */
  languages: readonly Language[];
  recentCodes: readonly string[];
  /** Language codes shown greyed (from the engine's column locks). @default [] */
  lockedCodes?: readonly string[];
  onChange: (code: string) => void;
  onOpenChange?: (open: boolean) => void;
}

const LanguageSelect = lazyMenu(() => import('./LanguageSelect'));

export const LANGUAGE_VALUE_CLASS = 'truncate tracking-wide uppercase';

/** What the dropdown's button shows, around `value` (the Select's value, or its text in the stand-in). */
export function LanguageTrigger({ value }: { value: ReactNode }) {
  return (
    <>
      <GlobeIcon size={17} className="shrink-0 text-primary-600" />
      {value}
      <ChevronDownIcon size={16} className="shrink-0 text-ink-muted" />
    </>
  );
}

export function LanguagePicker(props: LanguagePickerProps) {
  return (
    <DeferredMenu
      menu={LanguageSelect}
      props={props}
      button={{
        className: `${controlButton} min-w-0`,
        'aria-label': `${props.current.name} ${props.label}`,
        popup: 'listbox',
        children: <LanguageTrigger value={<span className={LANGUAGE_VALUE_CLASS}>{props.current.name}</span>} />,
      }}
    />
  );
}
