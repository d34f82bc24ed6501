/**
 * The column's reading-level dropdown itself (see LevelPicker.tsx): React Aria's Select, a lazy chunk that mounts
 * on the first sign it is wanted (src/ui/components/DeferredMenu.tsx).
 */
import type { ReactElement } from 'react';
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue, Text } from 'react-aria-components';
import { LEVEL_LABELS, type Level } from '../../../domain/levels';
import { LOCKED_LEVEL_TOOLTIP } from '../../../domain/locks';
import { useDeferredSelect, type DeferredMenuProps } from '../../components/DeferredMenu';
import { CheckIcon } from '../../components/Icons';
import { LockIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { LevelDot, LevelTrigger, type LevelPickerProps } from './LevelTrigger';
import { listItem, popoverStyles } from './readerStyles';

export default function LevelSelect({
  label,
  level,
  levels,
  lockedLevels = [],
  isPulsing = false,
  onHover,
  onChange,
  onOpenChange,
  button,
  defaultOpen,
  autoFocus,
}: LevelPickerProps & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  const currentLocked = lockedLevels.includes(level);
  const trigger: ReactElement = (
    <Button className={button.className} {...deferred.trigger} onHoverStart={onHover} onFocus={onHover}>
      <LevelTrigger
        level={level}
        isLocked={currentLocked}
        isPulsing={isPulsing}
        value={<SelectValue className="truncate">{({ selectedText, defaultChildren, isPlaceholder }) => (isPlaceholder ? defaultChildren : selectedText)}</SelectValue>}
      />
    </Button>
  );
  return (
    <Select
      aria-label={label}
      selectedKey={level}
      onSelectionChange={(key) => {
        if (key !== null && key !== level) onChange(key as Level);
      }}
      {...deferred.select}
    >
      {currentLocked ? <Hint content={LOCKED_LEVEL_TOOLTIP}>{trigger}</Hint> : trigger}
      <Popover placement="bottom start" offset={6} className={`${popoverStyles} ${lockedLevels.length > 0 ? 'w-64' : 'w-48'}`}>
        <ListBox aria-label="Reading levels" className="outline-none">
          {levels.map((l) => {
            const locked = lockedLevels.includes(l);
            return (
              <ListBoxItem key={l} id={l} textValue={LEVEL_LABELS[l]} className={`${listItem} ${locked ? 'items-start' : ''}`}>
                <span className={locked ? 'mt-1.5' : undefined}>
                  <LevelDot level={l} />
                </span>
                <span className="flex min-w-0 flex-1 flex-col">
                  {/* The option is named by all of its visible text (axe: label-content-name-mismatch), so no label slot. */}
                  <span className={locked ? 'text-ink-muted' : undefined}>{LEVEL_LABELS[l]}</span>
                  {locked && (
                    <Text slot="description" className="text-xs font-normal text-ink-muted">
                      {LOCKED_LEVEL_TOOLTIP}
                    </Text>
                  )}
                </span>
                <span className="grid w-4 place-items-center text-primary-700">
                  {l === level ? <CheckIcon size={16} /> : locked ? <LockIcon size={14} className="text-ink-muted" /> : null}
                </span>
              </ListBoxItem>
            );
          })}
        </ListBox>
      </Popover>
    </Select>
  );
}
