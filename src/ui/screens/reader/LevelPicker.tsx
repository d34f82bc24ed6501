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
import { LEVEL_LABELS } from '../../../domain/levels';
import { LOCKED_LEVEL_TOOLTIP } from '../../../domain/locks';
import { DeferredMenu, lazyMenu } from '../../components/DeferredMenu';
import { Hint } from '../../components/Tooltip';
import { LevelTrigger, type LevelPickerProps } from './LevelTrigger';
import { controlButton } from './readerStyles';

const LevelSelect = lazyMenu(() => import('./LevelSelect'));

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
