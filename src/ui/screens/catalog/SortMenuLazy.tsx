/**
 * The Filter / Sort menu itself (see SortMenu.tsx): a lazy chunk, so the catalog's entry JS does not carry React
 * Aria's menu code (src/ui/components/DeferredMenu.tsx).
 */
import { Button, Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, type Selection } from 'react-aria-components';
import { isSortKey, SORT_OPTIONS } from '../../../domain/catalog';
import type { CatalogFilter, SortKey } from '../../../domain/wireValues';
import type { DeferredMenuProps } from '../../components/DeferredMenu';
import { CheckIcon } from '../../components/Icons';

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

export default function SortMenuLazy({ sort, onSortChange, filter, onFilterChange, button, defaultOpen, autoFocus }: SortMenuProps & DeferredMenuProps) {
  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (isSortKey(key)) onSortChange(key);
  };
  const onFilterSelection = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    const option = FILTER_OPTIONS.find((o) => `filter-${o.key}` === key);
    if (option) onFilterChange?.(option.key);
  };
  return (
    <MenuTrigger defaultOpen={defaultOpen}>
      <Button {...button} autoFocus={autoFocus} />
      <Popover placement="bottom end" offset={8} className="min-w-56 rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none">
        <Menu aria-label={filter ? 'Filter and sort titles' : 'Sort titles'} className="outline-none">
          {filter && (
            <MenuSection selectionMode="single" disallowEmptySelection selectedKeys={[`filter-${filter}`]} onSelectionChange={onFilterSelection}>
              <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-ink-muted uppercase">Show</Header>
              {FILTER_OPTIONS.map((option) => (
                <MenuItem key={option.key} id={`filter-${option.key}`} textValue={option.label} className={itemClass}>
                  {({ isSelected }) => (
                    <>
                      <span>{option.label}</span>
                      {isSelected && <CheckIcon size={16} />}
                    </>
                  )}
                </MenuItem>
              ))}
            </MenuSection>
          )}
          <MenuSection selectionMode="single" disallowEmptySelection selectedKeys={[sort]} onSelectionChange={onSelectionChange}>
            <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-ink-muted uppercase">Sort by</Header>
            {SORT_OPTIONS.map((option) => (
              <MenuItem
                key={option.key}
                id={option.key}
                textValue={option.label}
                className={itemClass}
              >
                {({ isSelected }) => (
                  <>
                    <span>{option.label}</span>
                    {isSelected && <CheckIcon size={16} />}
                  </>
                )}
              </MenuItem>
            ))}
          </MenuSection>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
