/**
 * The toolbar's two toggles, decode and word mode: in the wide row, and in the small screens' 'Reader controls
 * menu' (ToolbarDialogs.tsx).
 */
import { Button, type ButtonProps } from 'react-aria-components';
import { connectHighlightDecode, DECODE_UNAVAILABLE_TOOLTIP } from '../../../machines/highlightDecode';
import { DecodeIcon, LockIcon, WordsIcon } from '../../components/ReaderIcons';
import { Hint } from '../../components/Tooltip';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { controlButton, controlUnavailable } from './readerStyles';

/**
 * A toggle of the reader (Listen, Decode, Words): React Aria's Button with aria-pressed, and data-selected for its
 * look (controlButton), so the reader's start-up carries none of ToggleButton's own state code for a value the
 * engine already holds. Props besides these (a hint's handlers) go to the Button.
 */
export function PressedToggle({ isSelected, onChange, ...props }: Omit<ButtonProps, 'onPress'> & { isSelected: boolean; onChange: (on: boolean) => void }) {
  return <Button {...props} aria-pressed={isSelected} data-selected={isSelected || undefined} onPress={() => onChange(!isSelected)} />;
}

/** Decode mode (SPEC §4 Decode): on when the edition and the user allow it; locked offers the upgrade. */
export function DecodeToggle({ variant = 'toolbar' }: { variant?: 'toolbar' | 'menu' }) {
  const send = useChildSend('highlightDecode');
  const snap = useEngine((s) => s.highlightDecode, Object.is);
  const mode = connectHighlightDecode(snap, send);
  const wide = variant === 'menu' ? 'w-full justify-start' : '';
  if (!mode.canDecode && !mode.decodeLocked) {
    return (
      <Hint content={DECODE_UNAVAILABLE_TOOLTIP}>
        <Button aria-disabled="true" className={`${controlUnavailable} ${wide}`}>
          <DecodeIcon size={17} />
          Decode
        </Button>
      </Hint>
    );
  }
  return (
    <Hint content={mode.decodeTooltip}>
      {mode.canDecode ? (
        <PressedToggle isSelected={mode.isDecodeOn} onChange={mode.toggleDecode} className={`${controlButton} ${wide}`}>
          <DecodeIcon size={17} />
          Decode
        </PressedToggle>
      ) : (
        <Button onPress={mode.toggleDecode} className={`${controlButton} ${wide}`}>
          <LockIcon size={16} />
          Decode
        </Button>
      )}
    </Hint>
  );
}

/** The tooltip of the word-mode toggle. */
const WORD_MODE_TOOLTIP = 'Tap a word to hear it';

/**
 * Word mode (docs/reading-aids.md "Tap a word"): on, a tapped word is said. Shown wherever the
 * reader shows passages; a column without narration answers with the engine's 'Audio not available'.
 */
export function WordModeToggle({ isSelected, onChange, variant = 'toolbar' }: { isSelected: boolean; onChange: (on: boolean) => void; variant?: 'toolbar' | 'menu' }) {
  return (
    <Hint content={WORD_MODE_TOOLTIP}>
      <PressedToggle isSelected={isSelected} onChange={onChange} className={`${controlButton} ${variant === 'menu' ? 'mt-2 w-full justify-start' : ''}`}>
        <WordsIcon size={17} />
        Words
      </PressedToggle>
    </Hint>
  );
}

