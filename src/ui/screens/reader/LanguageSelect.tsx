/**
 * The column's language dropdown itself (see LanguagePicker.tsx): React Aria's Select with its search, a lazy chunk
 * that mounts on the first sign it is wanted (src/ui/components/DeferredMenu.tsx).
 */
import type { Key } from 'react-aria-components';
import {
  Autocomplete,
  Button,
  Header,
  Input,
  ListBox,
  ListBoxItem,
  ListBoxSection,
  Popover,
  SearchField,
  Select,
  SelectValue,
  Text,
} from 'react-aria-components';
import { groupLanguages, matchesLanguageSearch } from '../../../domain/languageSearch';
import type { Language } from '../../../domain/schemas';
import { LOCKED_LANGUAGE_HINT } from '../../../domain/locks';
import { useDeferredSelect, type DeferredMenuProps } from '../../components/DeferredMenu';
import { CheckIcon, SearchIcon } from '../../components/Icons';
import { LockIcon } from '../../components/ReaderIcons';
import { LANGUAGE_VALUE_CLASS, LanguageTrigger, type LanguagePickerProps } from './LanguageTrigger';
import { listItem, popoverStyles, sectionHeading } from './readerStyles';

const RECENT = 'recent:';
const ALL = 'all:';

function codeOf(key: Key): string {
  const k = String(key);
  return k.startsWith(RECENT) ? k.slice(RECENT.length) : k.slice(ALL.length);
}

export default function LanguageSelect({
  label,
  current,
  languages,
  recentCodes,
  lockedCodes = [],
  onChange,
  onOpenChange,
  button,
  defaultOpen,
  autoFocus,
}: LanguagePickerProps & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  const { recent, all } = groupLanguages(languages, recentCodes);
  const item = (prefix: string, language: Language) => {
    const locked = lockedCodes.includes(language.code);
    return (
      <ListBoxItem
        key={prefix + language.code}
        id={prefix + language.code}
        textValue={language.name}
        data-locked={locked ? '' : undefined}
        className={`${listItem} ${locked ? 'text-ink-muted' : ''}`}
      >
        {/* Named by all of its visible text (axe: label-content-name-mismatch), so no label slot. */}
        <span className="flex-1 tracking-wide uppercase">{language.name}</span>
        {locked && (
          <Text slot="description" className="inline-flex items-center gap-1 rounded-full bg-primary-50 px-2 py-0.5 text-[0.6875rem] font-semibold text-primary-800">
            <LockIcon size={12} />
            {LOCKED_LANGUAGE_HINT}
          </Text>
        )}
        <span className="text-xs text-ink-muted">{language.code}</span>
        <span className="grid w-4 place-items-center text-primary-700">
          {language.code === current.code && <CheckIcon size={16} aria-hidden="true" />}
        </span>
      </ListBoxItem>
    );
  };
  return (
    <Select
      aria-label={label}
      selectedKey={ALL + current.code}
      onSelectionChange={(key) => {
        if (key === null) return;
        const code = codeOf(key);
        if (code !== current.code) onChange(code);
      }}
      {...deferred.select}
    >
      <Button className={button.className} {...deferred.trigger}>
        <LanguageTrigger value={<SelectValue className={LANGUAGE_VALUE_CLASS}>{() => current.name}</SelectValue>} />
      </Button>
      <Popover placement="bottom start" offset={6} maxHeight={420} className={`${popoverStyles} w-72 p-0`}>
        <Autocomplete filter={(textValue, inputValue, node) => matchesLanguageSearch({ code: codeOf(node.key), name: textValue }, inputValue)}>
          <SearchField aria-label="Search languages" autoFocus className="group relative border-b border-line p-2">
            <SearchIcon size={16} className="pointer-events-none absolute top-1/2 left-5 -translate-y-1/2 text-ink-muted" />
            <Input
              placeholder="Search languages..."
              className="h-10 w-full rounded-lg border border-field bg-paper ps-9 pe-3 text-sm text-ink placeholder:text-ink-muted outline-none data-[focused]:border-primary-600 [&::-webkit-search-cancel-button]:hidden"
            />
          </SearchField>
          <ListBox
            aria-label="Languages"
            className="max-h-80 overflow-auto p-1.5 outline-none"
            renderEmptyState={() => <p className="px-3 py-4 text-sm text-ink-muted">No languages found</p>}
          >
            {recent.length > 0 && (
              <ListBoxSection id="recent" className="mb-1">
                <Header className={sectionHeading}>recently used</Header>
                {recent.map((l) => item(RECENT, l))}
              </ListBoxSection>
            )}
            <ListBoxSection id="all">
              <Header className={sectionHeading}>all languages</Header>
              {all.map((l) => item(ALL, l))}
            </ListBoxSection>
          </ListBox>
        </Autocomplete>
      </Popover>
    </Select>
  );
}
