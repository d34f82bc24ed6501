/**
 * The column's reading-level dropdown (SPEC §2 Reading level dropdown): the current level with its colour dot,
 * and the pulsing indicator of the level-indicator machine, which hides after a hover or 10 seconds.
 */
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { LEVEL_COLORS, LEVEL_LABELS, type Level } from '../../../domain/levels';
import { CheckIcon, ChevronDownIcon } from '../../components/Icons';
import { controlButton, listItem, popoverStyles } from './readerStyles';

function Dot({ level }: { level: Level }) {
  return <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />;
}

export function LevelPicker({
  label,
  level,
  levels,
  isPulsing = false,
  onHover,
  onChange,
  onOpenChange,
}: {
  label: string;
  level: Level;
  /** The levels offered in this column's language, easiest first. */
  levels: readonly Level[];
  isPulsing?: boolean;
  onHover?: () => void;
  onChange: (level: Level) => void;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <Select
      aria-label={label}
      selectedKey={level}
      onSelectionChange={(key) => {
        if (key !== null && key !== level) onChange(key as Level);
      }}
      onOpenChange={onOpenChange}
    >
      <Button className={`${controlButton} relative`} onHoverStart={onHover} onFocus={onHover}>
        <Dot level={level} />
        <SelectValue className="truncate">{({ selectedText, defaultChildren, isPlaceholder }) => (isPlaceholder ? defaultChildren : selectedText)}</SelectValue>
        <ChevronDownIcon size={16} className="shrink-0 text-ink-muted" />
        {isPulsing && (
          <span aria-hidden="true" className="pointer-events-none absolute -top-1 -right-1 flex size-3">
            <span className="absolute inline-flex size-full animate-ping rounded-full opacity-75" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
            <span className="relative inline-flex size-3 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
          </span>
        )}
      </Button>
      <Popover placement="bottom start" offset={6} className={`${popoverStyles} w-48`}>
        <ListBox aria-label="Reading levels" className="outline-none">
          {levels.map((l) => (
            <ListBoxItem key={l} id={l} textValue={LEVEL_LABELS[l]} className={listItem}>
              <Dot level={l} />
              <span className="flex-1">{LEVEL_LABELS[l]}</span>
              <span className="grid w-4 place-items-center text-primary-700">{l === level && <CheckIcon size={16} />}</span>
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
