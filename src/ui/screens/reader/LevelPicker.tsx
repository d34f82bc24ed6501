/**
 * The column's reading-level dropdown (SPEC §2 Reading level dropdown): the current level with its colour dot,
 * and the pulsing indicator of the level-indicator machine, which hides after a hover or 10 seconds. Locked
 * levels (the engine's column locks) carry a lock and 'Upgrade to access additional reading levels': on the
 * trigger as a tooltip when the level shown is locked, and on each locked option as its description. Choosing a
 * locked level is sent like any other; the engine offers 'Unlock Premium Levels' instead of moving (SPEC §5).
 *
 * The dropdown itself (LevelSelect.tsx) is a lazy chunk that mounts on the first sign it is wanted; until then its
 * button stands in for it, drawn and named the same (src/ui/components/DeferredMenu.tsx).
 */
import type { ReactNode } from 'react';
import { LEVEL_COLORS, LEVEL_LABELS, type Level } from '../../../domain/levels';
import { LOCKED_LEVEL_TOOLTIP } from '../../../domain/locks';
import { DeferredMenu, lazyMenu } from '../../components/DeferredMenu';
import { ChevronDownIcon } from '../../components/Icons';
import { LockIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { controlButton } from './readerStyles';

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

const LevelSelect = lazyMenu(() => import('./LevelSelect'));

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

export function LevelPicker(props: LevelPickerProps) {
  const { label, level, lockedLevels = [], isPulsing = false, onHover } = props;
  const isLocked = lockedLevels.includes(level);
  return (
    <DeferredMenu
      menu={LevelSelect}
      props={props}
      button={{
        className: `${controlButton} relative`,
        'aria-label': `${LEVEL_LABELS[level]} ${label}`,
        popup: 'listbox',
        onHoverStart: onHover,
        onFocus: onHover,
        wrap: isLocked ? (button) => <Hint content={LOCKED_LEVEL_TOOLTIP}>{button}</Hint> : undefined,
        children: <LevelTrigger level={level} isLocked={isLocked} isPulsing={isPulsing} value={<span className="truncate">{LEVEL_LABELS[level]}</span>} />,
      }}
    />
  );
}
