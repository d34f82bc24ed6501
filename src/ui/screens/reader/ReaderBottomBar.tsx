/**
 * The reader's bottom bar (SPEC §2 Reader screen): the page-number input on large screens, the audio player in
 * the middle, and round previous / next buttons, disabled at the first and the last passage.
 */
import { memo, useId, useState } from 'react';
import { Button } from 'react-aria-components';
import { pageInputDigits, parsePageInput } from '../../../domain/passageText';
import { ChevronLeftIcon, ChevronRightIcon } from '../../components/Icons';
import { useMinWidth } from '../../platform/media';
import { ReaderAudioPlayer } from './ReaderAudioPlayer';

const roundButton =
  'grid size-12 shrink-0 place-items-center rounded-full bg-primary-900 text-white shadow-md shadow-primary-950/15 outline-none transition-colors data-[hovered]:bg-primary-800 data-[pressed]:bg-primary-950 data-[disabled]:bg-primary-100 data-[disabled]:text-primary-300 data-[disabled]:shadow-none data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus';

export const ReaderBottomBar = memo(function ReaderBottomBar({
  position,
  maxPosition,
  canGoPrevious,
  canGoNext,
  onPrevious,
  onNext,
  onGoTo,
  audioEnabled,
  audioLocked = false,
}: {
  position: number;
  maxPosition: number;
  canGoPrevious: boolean;
  canGoNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onGoTo: (position: number) => void;
  audioEnabled: boolean;
  /** The playing column's narration is locked for this reader: the player offers the upgrade. @default false */
  audioLocked?: boolean;
}) {
  // The page input shows from large screens up (the same breakpoint as the CSS); a smaller screen does not render
  // it at all.
  const showPageInput = useMinWidth('lg');
  return (
    <div className="fixed inset-x-0 bottom-0 z-30 border-t border-line bg-surface">
      <nav aria-label="Passages" className="mx-auto flex w-full max-w-page items-center gap-3 px-4 py-3 sm:px-6 lg:px-10">
        <PagingButton direction="previous" isDisabled={!canGoPrevious} onPress={onPrevious} />
        <div className="flex min-w-0 flex-1 items-center justify-center gap-2 sm:gap-6">
          {showPageInput && <PageInput position={position} maxPosition={maxPosition} onGoTo={onGoTo} />}
          <BottomBarPlayer audioEnabled={audioEnabled} audioLocked={audioLocked} />
        </div>
        <PagingButton direction="next" isDisabled={!canGoNext} onPress={onNext} />
      </nav>
    </div>
  );
});

/**
 * The bar renders at every page turn (its page field shows the position); its buttons and the player render only
 * when their own props change (the player follows the engine through its own selections).
 */
const BottomBarPlayer = memo(ReaderAudioPlayer);

const PagingButton = memo(function PagingButton({ direction, isDisabled, onPress }: { direction: 'previous' | 'next'; isDisabled: boolean; onPress: () => void }) {
  return (
    <Button aria-label={direction === 'previous' ? 'Previous passage' : 'Next passage'} isDisabled={isDisabled} onPress={onPress} className={roundButton}>
      {direction === 'previous' ? <ChevronLeftIcon size={22} /> : <ChevronRightIcon size={22} />}
    </Button>
  );
});

/**
 * Positive integers only; applied on Enter or when the field loses focus. The session clamps to the edition. A
 * native label and input: a plain numeric field needs none of React Aria's field machinery (validation, forms,
 * descriptions), which would otherwise be in the reader's start-up.
 */
function PageInput({ position, maxPosition, onGoTo }: { position: number; maxPosition: number; onGoTo: (position: number) => void }) {
  // The typed text belongs to the position it was typed at; a new position shows itself again.
  const [typed, setTyped] = useState({ at: position, text: String(position) });
  const draft = typed.at === position ? typed.text : String(position);
  const setDraft = (text: string) => setTyped({ at: position, text });
  const inputId = useId();
  const apply = () => {
    const n = parsePageInput(draft);
    if (n !== null && n !== position) onGoTo(n);
    setDraft(String(position));
  };
  return (
    <div className="flex items-center gap-2 text-sm text-ink-muted">
      <label htmlFor={inputId}>Page</label>
      <input
        id={inputId}
        type="text"
        value={draft}
        onChange={(e) => setDraft(pageInputDigits(e.target.value))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
          else if (e.key === 'Escape') setDraft(String(position));
        }}
        onBlur={apply}
        inputMode="numeric"
        autoComplete="off"
        className="h-10 w-16 rounded-lg border border-field bg-surface text-center font-medium text-ink tabular-nums outline-none"
      />
      <span aria-hidden="true">of {maxPosition}</span>
      <span className="sr-only">of {maxPosition} passages</span>
    </div>
  );
}
