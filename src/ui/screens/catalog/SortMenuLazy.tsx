/**
 * The Filter / Sort menu itself (see SortMenu.tsx): a lazy chunk, so the catalog's entry JS does not carry React
 * Aria's menu code (src/ui/components/DeferredMenu.tsx).
 */
import { Header, Menu, MenuItem, MenuSection, type Selection } from 'react-aria-components';
import { isSortKey, SORT_OPTIONS } from '../../../domain/catalog';
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

export interface SortMenuProps {
  sort: SortKey;
  onSortChange: (sort: SortKey) => void;
  /** Given for teachers only: the filter section shows. */
  filter?: CatalogFilter;
  onFilterChange?: (filter: CatalogFilter) => void;
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
      <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-ink-muted uppercase">{heading}</Header>
      {choices.map((choice) => (
        <MenuItem key={choice.id} id={choice.id} textValue={choice.label} className={itemClass}>
          {({ isSelected }) => <ChoiceLabel label={choice.label} isSelected={isSelected} />}
        </MenuItem>
      ))}
    </MenuSection>
  );
}

const filterId = (filter: CatalogFilter) => `filter-${filter}`;
const FILTER_CHOICES = FILTER_OPTIONS.map((option) => ({ id: filterId(option.key), label: option.label }));
const SORT_CHOICES = SORT_OPTIONS.map((option) => ({ id: option.key, label: option.label }));

export default function SortMenuLazy({ sort, onSortChange, filter, onFilterChange, ...frame }: SortMenuProps & DeferredMenuProps) {
  const onSort = (id: string) => {
    if (isSortKey(id)) onSortChange(id);
  };
  const onFilter = (id: string) => {
    const option = FILTER_OPTIONS.find((o) => filterId(o.key) === id);
    if (option) onFilterChange?.(option.key);
  };
  return (
    <MenuFrame {...frame} width="min-w-56">
      <Menu aria-label={filter ? 'Filter and sort titles' : 'Sort titles'} className="outline-none">
        {filter && <ChoiceSection heading="Show" choices={FILTER_CHOICES} selected={filterId(filter)} onSelect={onFilter} />}
        <ChoiceSection heading="Sort by" choices={SORT_CHOICES} selected={sort} onSelect={onSort} />
      </Menu>
    </MenuFrame>
  );
}
