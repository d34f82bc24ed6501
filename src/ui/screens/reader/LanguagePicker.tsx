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
import { DeferredMenu, lazyMenu } from '../../components/DeferredMenu';
import { LANGUAGE_VALUE_CLASS, LanguageTrigger, type LanguagePickerProps } from './LanguageTrigger';
import { controlButton } from './readerStyles';

const LanguageSelect = lazyMenu(() => import('./LanguageSelect'));

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
