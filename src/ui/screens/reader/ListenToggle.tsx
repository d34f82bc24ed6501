/**
 * The column's 'Listen' toggle (SPEC §2 Reader screen; §8 Tooltips): it plays this column's edition in the
 * reader's player, with the words highlighted as they are spoken, or closes the player. Without narration for the
 * edition it stays focusable but inert, with the tooltip 'Audio not available'; when a license gate withholds
 * audio it offers the upgrade ('Upgrade to access additional audio features').
 */
import { Button } from 'react-aria-components';
import { HeadphonesIcon, LockIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { HIGHLIGHT_TOOLTIP } from '../../../machines/highlightDecode';
import { AUDIO_NOT_AVAILABLE } from '../../../domain/constants';
import { LOCKED_AUDIO_TOOLTIP } from '../../../domain/locks';
import { controlButton, controlUnavailable } from './readerStyles';
import { PressedToggle } from './toolbarToggles';

export const AUDIO_UPGRADE_TOOLTIP = LOCKED_AUDIO_TOOLTIP;

export function ListenToggle({
  audioEnabled,
  audioLocked = false,
  isSelected,
  onChange,
  onUpgrade,
}: {
  audioEnabled: boolean;
  /** A license gate withholds audio (the engine's column locks: the language is not voiced for this reader). */
  audioLocked?: boolean;
  /** The player is open on this column's edition. */
  isSelected: boolean;
  onChange: (on: boolean) => void;
  onUpgrade?: () => void;
}) {
  if (!audioEnabled) {
    return (
      <Hint content={AUDIO_NOT_AVAILABLE}>
        <Button aria-disabled="true" className={controlUnavailable}>
          <HeadphonesIcon size={17} />
          <span className="sr-only sm:not-sr-only">Listen</span>
        </Button>
      </Hint>
    );
  }
  if (audioLocked) {
    return (
      <Hint content={AUDIO_UPGRADE_TOOLTIP}>
        <Button onPress={onUpgrade} className={controlButton}>
          <LockIcon size={16} />
          <span className="sr-only sm:not-sr-only">Listen</span>
        </Button>
      </Hint>
    );
  }
  return (
    <Hint content={HIGHLIGHT_TOOLTIP}>
      <PressedToggle isSelected={isSelected} onChange={onChange} className={controlButton}>
        <HeadphonesIcon size={17} />
        <span className="sr-only sm:not-sr-only">Listen</span>
      </PressedToggle>
    </Hint>
  );
}
