/**
 * The column's 'Listen' toggle (SPEC §2 Reader screen; §8 Tooltips): it opens and closes the reader's audio
 * player. Without narration for the edition it stays focusable but inert, with the tooltip 'Audio not available'.
 */
import { Button, ToggleButton } from 'react-aria-components';
import { HeadphonesIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { HIGHLIGHT_TOOLTIP } from '../../../machines/highlightDecode';
import { controlButton, controlUnavailable } from './readerStyles';

export const AUDIO_NOT_AVAILABLE = 'Audio not available';

export function ListenToggle({
  audioEnabled,
  isOpen,
  onOpen,
  onClose,
}: {
  audioEnabled: boolean;
  isOpen: boolean;
  onOpen: () => void;
  onClose: () => void;
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
  return (
    <Hint content={HIGHLIGHT_TOOLTIP}>
      <ToggleButton isSelected={isOpen} onChange={(on) => (on ? onOpen() : onClose())} className={controlButton}>
        <HeadphonesIcon size={17} />
        <span className="sr-only sm:not-sr-only">Listen</span>
      </ToggleButton>
    </Hint>
  );
}
