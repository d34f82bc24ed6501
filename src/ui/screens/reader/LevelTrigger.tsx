/**
 * What the reading-level dropdown (LevelPicker.tsx) shows on its button, shared by its stand-in and by the loaded
 * Select (LevelSelect.tsx), and its props.
 */
import type { ReactNode } from 'react';
import { LEVEL_COLORS, type Level } from '../../../domain/levels';
import { ChevronDownIcon } from '../../components/Icons';
import { LockIcon } from '../../components/ReaderIcons';

export interface LevelPickerProps {
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
}

export function LevelDot({ level }: { level: Level }) {
  return <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />;
}

/** What the dropdown's button shows, around `value` (the Select's value, or its text in the stand-in). */
export function LevelTrigger({ level, isLocked, isPulsing, value }: { level: Level; isLocked: boolean; isPulsing: boolean; value: ReactNode }) {
  return (
    <>
      <LevelDot level={level} />
      {value}
      {isLocked && <LockIcon size={14} className="shrink-0 text-ink-muted" />}
      <ChevronDownIcon size={16} className="shrink-0 text-ink-muted" />
      {isPulsing && (
        <span aria-hidden="true" className="pointer-events-none absolute -top-1 -right-1 flex size-3">
          <span className="absolute inline-flex size-full animate-ping rounded-full opacity-75" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
          <span className="relative inline-flex size-3 rounded-full ring-2 ring-white" style={{ backgroundColor: LEVEL_COLORS[level].dot }} />
        </span>
      )}
    </>
  );
}

