/** The Filter / Sort menu: a single-selection list of sort orders (SPEC §2 Catalog). */
import { Button, Header, Menu, MenuItem, MenuSection, MenuTrigger, Popover, type Selection } from 'react-aria-components';
import { isSortKey, SORT_OPTIONS } from '../../../domain/catalog';
import type { SortKey } from '../../../domain/schemas';
import { CheckIcon, SlidersIcon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';

export function SortMenu({ sort, onSortChange }: { sort: SortKey; onSortChange: (sort: SortKey) => void }) {
  const onSelectionChange = (keys: Selection) => {
    if (keys === 'all') return;
    const [key] = [...keys];
    if (isSortKey(key)) onSortChange(key);
  };
  return (
    <MenuTrigger>
      <Button className={`${buttonStyles.secondary} h-12 shrink-0 rounded-xl`}>
        <SlidersIcon size={18} />
        Filter / Sort
      </Button>
      <Popover placement="bottom end" offset={8} className="min-w-56 rounded-xl border border-line bg-surface p-1.5 shadow-lg shadow-primary-950/10 outline-none">
        <Menu
          aria-label="Sort titles"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[sort]}
          onSelectionChange={onSelectionChange}
          className="outline-none"
        >
          <MenuSection>
            <Header className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-ink-muted uppercase">Sort by</Header>
            {SORT_OPTIONS.map((option) => (
              <MenuItem
                key={option.key}
                id={option.key}
                textValue={option.label}
                className="flex cursor-pointer items-center justify-between gap-6 rounded-lg px-3 py-2.5 text-sm text-ink outline-offset-[-2px] data-[focused]:bg-primary-100 data-[selected]:font-semibold data-[selected]:text-primary-900"
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
