import type { SnapshotFrom } from 'xstate';
import type { levelIndicatorMachine } from './levelIndicator.machine';
import type { LevelIndicatorEvent } from './levelIndicator.types';

export function connectLevelIndicator(snapshot: SnapshotFrom<typeof levelIndicatorMachine>, send: (event: LevelIndicatorEvent) => void) {
  const isPulsing = snapshot.matches('pulsing');
  return {
    isPulsing,
    /** Safe to call on every hover: the machine ignores it once seen. */
    hover: () => send({ type: 'indicator.hover' }),
    /** The dropdown with the indicator is on screen: the pulse starts (once, until it has run or been hovered). */
    shown: () => send({ type: 'indicator.shown' }),
    /** The dropdown left the screen. */
    hidden: () => send({ type: 'indicator.hidden' }),
  };
}
