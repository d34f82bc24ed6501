/**
 * The column's reading-level dropdown (SPEC §2 Reading level dropdown): the current level with its colour dot,
 * and the pulsing indicator of the level-indicator machine, which hides after a hover or 10 seconds. Locked
 * levels (the engine's column locks) carry a lock and 'Upgrade to access additional reading levels': on the
 * trigger as a tooltip when the level shown is locked, and on each locked option as its description. Choosing a
 * locked level is sent like any other; the engine offers 'Unlock Premium Levels' instead of moving (SPEC §5).
 */
import type { ReactElement } from 'react';
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue, Text } from 'react-aria-components';
import { LEVEL_COLORS, LEVEL_LABELS, type Level } from '../../../domain/levels';
import { LOCKED_LEVEL_TOOLTIP } from '../../../domain/locks';
import { CheckIcon, ChevronDownIcon } from '../../components/Icons';
import { LockIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { controlButton, listItem, popoverStyles } from './readerStyles';

function Dot({ level }: { level: Level }) {
  return <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />;
}

export function LevelPicker({
  label,
  level,
  levels,
  lockedLevels = [],
  isPulsing = false,
  onHover,
  onChange,
  onOpenChange,
}: {
  label: string;
  level: Level;
  /** The levels offered in this column's language, easiest first. */
  levels: readonly Level[];
  /** The levels this reader may not open (from the engine's column locks). @default [] */
  lockedLevels?: readonly Level[];
  isPulsing?: boolean;
  onHover?: () => void;
  onChange: (level: Level) => void;
  onOpenChange?: (open: boolean) => void;
}) {
  const currentLocked = lockedLevels.includes(level);
  const trigger: ReactElement = (
    <Button className={`${controlButton} relative`} onHoverStart={onHover} onFocus={onHover}>
      <Dot level={level} />
      <SelectValue className="truncate">{({ selectedText, defaultChildren, isPlaceholder }) => (isPlaceholder ? defaultChildren : selectedText)}</SelectValue>
      {currentLocked && <LockIcon size={14} className="shrink-0 text-ink-muted" />}
      <ChevronDownIcon size={16} className="shrink-0 text-ink-muted" />
      {isPulsing && (
        <span aria-hidden="true" className="pointer-events-none absolute -top-1 -right-1 flex size-3">
          <span className="absolute inline-flex size-full animate-ping rounded-full opacity-75" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
          <span className="relative inline-flex size-3 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
        </span>
      )}
    </Button>
  );
  return (
    <Select
      aria-label={label}
      selectedKey={level}
      onSelectionChange={(key) => {
        if (key !== null && key !== level) onChange(key as Level);
      }}
      onOpenChange={onOpenChange}
    >
      {currentLocked ? <Hint content={LOCKED_LEVEL_TOOLTIP}>{trigger}</Hint> : trigger}
      <Popover placement="bottom start" offset={6} className={`${popoverStyles} ${lockedLevels.length > 0 ? 'w-64' : 'w-48'}`}>
        <ListBox aria-label="Reading levels" className="outline-none">
          {levels.map((l) => {
            const locked = lockedLevels.includes(l);
            return (
              <ListBoxItem key={l} id={l} textValue={LEVEL_LABELS[l]} className={`${listItem} ${locked ? 'items-start' : ''}`}>
                <span className={locked ? 'mt-1.5' : undefined}>
                  <Dot level={l} />
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
