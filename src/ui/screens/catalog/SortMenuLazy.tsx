/**
 * The Filter / Sort menu itself (see SortMenu.tsx): a lazy chunk, so the catalog's entry JS does not carry React
 * Aria's menu code (src/ui/components/DeferredMenu.tsx). For everyone, the Language and Level filters (several
 * choices each, SPEC §2 `languages` and `levels`); for teachers the 'Show' filter; then the sort.
 */
import { Header, Menu, MenuItem, MenuSection, type Selection } from 'react-aria-components';
import { isSortKey, parseLanguagesParam, parseLevelsParam, SORT_OPTIONS } from '../../../domain/catalog';
import { LANGUAGES, type LanguageCode } from '../../../domain/languages';
import { LEVEL_LABELS, LEVEL_ORDER, type Level } from '../../../domain/levels';
import type { CatalogFilter, SortKey } from '../../../domain/wireValues';
import type { DeferredMenuProps } from '../../components/DeferredMenu';
import { ChoiceLabel } from '../../components/ChoiceLabel';
import { MenuFrame } from '../../components/MenuFrame';

/** The teacher-only filter's choices, in menu order (SPEC §3 Catalog filter values). */
export const FILTER_OPTIONS: readonly { key: CatalogFilter; label: string }[] = [
  { key: 'all', label: 'All' },
  { key: 'assigned', label: 'Assigned' },
  { key: 'unassigned', label: 'Unassigned' },
];

const itemClass =
  'flex cursor-pointer items-center justify-between gap-6 rounded-lg px-3 py-2.5 text-sm text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[selected]:font-semibold data-[selected]:text-primary-900';
/** The filters' items are shorter: eleven languages and three levels come before the sort. */
const compactItemClass = itemClass.replace('py-2.5', 'py-1.5');

export interface SortMenuProps {
  sort: SortKey;
  onSortChange: (sort: SortKey) => void;
  /** Given for teachers only: the filter section shows. */
  filter?: CatalogFilter;
  onFilterChange?: (filter: CatalogFilter) => void;
  /** The chosen languages; with `onLanguagesChange` the Language section shows. */
  languages?: readonly LanguageCode[];
  onLanguagesChange?: (languages: LanguageCode[]) => void;
  /** The chosen levels; with `onLevelsChange` the Level section shows. */
  levels?: readonly Level[];
  onLevelsChange?: (levels: Level[]) => void;
}

/** A section's heading, then its items, each ticked while chosen. */
function HeadedChoices({ heading, choices, itemClassName }: { heading: string; choices: readonly { id: string; label: string }[]; itemClassName: string }) {
  return (
    <>
      <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-ink-muted uppercase">{heading}</Header>
      {choices.map((choice) => (
        <MenuItem key={choice.id} id={choice.id} textValue={choice.label} className={itemClassName}>
          {({ isSelected }) => <ChoiceLabel label={choice.label} isSelected={isSelected} />}
        </MenuItem>
      ))}
    </>
  );
}

/**
 * A filter of several choices, with ids unique across the menu's sections ('language-es', 'level-GOLD'): its
 * choices, the ids of chosen values, and the values of chosen ids (read back as the address reads them).
 */
interface MultiFilter<T extends string> {
  choices: readonly { id: string; label: string }[];
  idsOf: (values: readonly T[]) => string[];
  valuesOf: (ids: readonly string[]) => T[];
}

function multiFilter<T extends string>(prefix: string, options: readonly { value: T; label: string }[], parse: (values: readonly string[]) => T[]): MultiFilter<T> {
  return {
    choices: options.map(({ value, label }) => ({ id: prefix + value, label })),
    idsOf: (values) => values.map((value) => prefix + value),
    valuesOf: (ids) => parse(ids.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length))),
  };
}

const LANGUAGE_FILTER = multiFilter('language-', LANGUAGES.map((language) => ({ value: language.code, label: language.name })), parseLanguagesParam);
const LEVEL_FILTER = multiFilter('level-', LEVEL_ORDER.map((level) => ({ value: level, label: LEVEL_LABELS[level] })), parseLevelsParam);

/**
 * A titled section of a filter's choices: each chosen one ticked, and `onChange` with the values chosen after a
 * press. The menu stays open, so more than one can be picked.
 */
function MultiChoiceSection<T extends string>({
  heading,
  filter,
  selected = [],
  onChange,
}: {
  heading: string;
  filter: MultiFilter<T>;
  selected?: readonly T[];
  onChange: (values: T[]) => void;
}) {
  const onSelectionChange = (keys: Selection) => onChange(filter.valuesOf(keys === 'all' ? filter.choices.map((c) => c.id) : [...keys].map(String)));
  return (
    <MenuSection selectionMode="multiple" selectedKeys={filter.idsOf(selected)} onSelectionChange={onSelectionChange}>
      <HeadedChoices heading={heading} choices={filter.choices} itemClassName={compactItemClass} />
    </MenuSection>
  );
}

/** A titled single-choice section: its items, the chosen one ticked, and `onSelect` with the id of a new choice. */
function ChoiceSection({
  heading,
  choices,
  selected,
  onSelect,
}: {
  heading: string;
  choices: readonly { id: string; label: string }[];
  selected: string;
  onSelect: (id: string) => void;
}) {
  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (key !== undefined) onSelect(String(key));
  };
  return (
    <MenuSection selectionMode="single" disallowEmptySelection selectedKeys={[selected]} onSelectionChange={onSelectionChange}>
      <HeadedChoices heading={heading} choices={choices} itemClassName={itemClass} />
    </MenuSection>
  );
}

const filterId = (filter: CatalogFilter) => `filter-${filter}`;
const FILTER_CHOICES = FILTER_OPTIONS.map((option) => ({ id: filterId(option.key), label: option.label }));
const SORT_CHOICES = SORT_OPTIONS.map((option) => ({ id: option.key, label: option.label }));

export default function SortMenuLazy({
  sort,
  onSortChange,
  filter,
  onFilterChange,
  languages,
  onLanguagesChange,
  levels,
  onLevelsChange,
  ...frame
}: SortMenuProps & DeferredMenuProps) {
  const onSort = (id: string) => {
    if (isSortKey(id)) onSortChange(id);
  };
  const onFilter = (id: string) => {
    const option = FILTER_OPTIONS.find((o) => filterId(o.key) === id);
    if (option) onFilterChange?.(option.key);
  };
  return (
    <MenuFrame {...frame} width="min-w-56">
      {/* max-h-[inherit]: the popover's room on screen; the list scrolls within it. */}
      <Menu aria-label={onLanguagesChange || filter ? 'Filter and sort titles' : 'Sort titles'} className="max-h-[inherit] overflow-auto outline-none">
        {onLanguagesChange && <MultiChoiceSection heading="Language" filter={LANGUAGE_FILTER} selected={languages} onChange={onLanguagesChange} />}
        {onLevelsChange && <MultiChoiceSection heading="Level" filter={LEVEL_FILTER} selected={levels} onChange={onLevelsChange} />}
        {filter && <ChoiceSection heading="Show" choices={FILTER_CHOICES} selected={filterId(filter)} onSelect={onFilter} />}
        <ChoiceSection heading="Sort by" choices={SORT_CHOICES} selected={sort} onSelect={onSort} />
      </Menu>
    </MenuFrame>
  );
}
