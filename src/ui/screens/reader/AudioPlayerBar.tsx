/**
 * The open audio player's controls (ReaderAudioPlayer.tsx; SPEC §2 Bottom bar): the seek bar, the clocks in
 * mm:ss, the edition's total length, the playback speed, the narration's info and a close control. A chunk of its
 * own, with React Aria's slider, select and popover: fetched when the browser is idle after the reader's start, or
 * when the play button is first pointed at, focused or pressed.
 */
import { memo, type ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Label, ListBox, ListBoxItem, Popover, Select, SelectValue, Slider, SliderThumb, SliderTrack } from 'react-aria-components';
import { formatClock } from '../../../domain/audioTime';
import { PLAYBACK_SPEEDS } from '../../../domain/constants';
import { voiceLabel } from '../../../domain/narrationVoice';
import type { ReaderPlayerView } from '../../../engine/createReaderEngine';
import type { connectPlayer } from '../../../machines/player';
import { ChevronDownIcon, CloseIcon } from '../../components/Icons';
import { useStableCallback } from '../../hooks/useStableCallback';
import { audioIconButton, listItem, popoverStyles } from './readerStyles';

/** '1×', '0.75×'. */
const speedLabel = (speed: number) => `${speed}×`;

/**
 * 'Narration info': a small popover naming the voice that speaks the passage ('Voice: Flite slt') and the edition's
 * total length. Shown once the passage's narration is ready.
 */
export const NarrationInfo = memo(function NarrationInfo({ voice, total }: { voice: string; total: string | null }) {
  return (
    <DialogTrigger>
      <Button aria-label="Narration info" className={audioIconButton}>
        <span aria-hidden="true" className="grid size-5 place-items-center rounded-full border-2 border-current font-serif text-xs font-bold italic">
          i
        </span>
      </Button>
      <Popover placement="top" offset={8} className={`${popoverStyles} w-56 p-3 text-sm`}>
        <Dialog aria-label="Narration" className="outline-none">
          <p>Voice: {voiceLabel(voice)}</p>
          {total && <p className="mt-1 text-ink-muted">Whole edition: {total}</p>}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
});

/**
 * The playback speed's dropdown. Memoized: the bar renders again at every tick of the playing audio and at every
 * page turn, and a React Aria Select renders its whole collection each time it renders.
 */
const SpeedSelect = memo(function SpeedSelect({ speed, onSpeed }: { speed: number; onSpeed: (speed: number) => void }) {
  return (
    <Select aria-label="Playback speed" selectedKey={String(speed)} onSelectionChange={(key) => key !== null && onSpeed(Number(key))}>
      <Label className="sr-only">Playback speed</Label>
      <Button className="inline-flex h-8 shrink-0 items-center gap-0.5 rounded-full px-1 text-sm sm:gap-1 sm:px-2 font-medium text-primary-900 outline-none data-[hovered]:bg-primary-100 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-focus">
        <SelectValue>{({ selectedText }) => selectedText}</SelectValue>
        <ChevronDownIcon size={14} className="text-ink-muted" />
      </Button>
      <Popover placement="top" offset={8} className={`${popoverStyles} w-28`}>
        <ListBox aria-label="Playback speeds" className="outline-none">
          {PLAYBACK_SPEEDS.map((speed) => (
            <ListBoxItem key={speed} id={String(speed)} textValue={speedLabel(speed)} className={listItem}>
              {speedLabel(speed)}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
});

export function AudioPlayerBar({
  audio,
  view,
  total,
  playButton,
}: {
  audio: ReturnType<typeof connectPlayer>;
  view: ReaderPlayerView | null;
  /** The edition's total length ('Xh Ym'), when known. */
  total: string | null;
  playButton: ReactNode;
}) {
  const duration = view?.duration ?? 0;
  const current = Math.min(view?.currentTime ?? 0, duration || Infinity);
  const loading = view?.status === 'loading';
  const setSpeed = useStableCallback((speed: number) => audio.setSpeed(speed));
  return (
    <div
      role="group"
      aria-label="Audio player"
      aria-busy={loading || undefined}
      className="flex w-full max-w-2xl min-w-0 items-center gap-1 rounded-full border border-line bg-paper py-1 ps-1 pe-1 sm:gap-3 sm:pe-2"
    >
      {playButton}
      <span role="status" className="hidden w-24 shrink-0 text-sm font-medium text-primary-900 sm:inline">
        {loading ? 'Loading…' : audio.label}
      </span>
      <span className="shrink-0 text-xs text-ink-muted tabular-nums" data-testid="audio-current">
        {formatClock(current)}
      </span>
      <Slider
        aria-label="Seek"
        minValue={0}
        maxValue={Math.max(1, Math.ceil(duration))}
        step={1}
        value={Math.floor(current)}
        isDisabled={duration <= 0}
        onChange={(seconds) => audio.seek(seconds as number)}
        className="min-w-10 flex-1"
      >
        <SliderTrack className="relative h-6 w-full">
          {({ state }) => (
            <>
              <div className="absolute top-1/2 h-1.5 w-full -translate-y-1/2 rounded-full bg-primary-100" />
              <div className="absolute top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-primary-700" style={{ width: `${state.getThumbPercent(0) * 100}%` }} />
              <SliderThumb
                aria-label="Seek"
                className="top-1/2 size-4 rounded-full border-2 border-white bg-primary-900 shadow outline-none data-[dragging]:bg-primary-700 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-focus"
              />
            </>
          )}
        </SliderTrack>
      </Slider>
      <span className="hidden shrink-0 text-xs text-ink-muted tabular-nums sm:inline" data-testid="audio-duration">
        {formatClock(duration)}
      </span>
      {total && (
        <span className="hidden shrink-0 text-xs text-ink-muted lg:inline" title="Total audio length of this edition">
          {total}
        </span>
      )}
      <SpeedSelect speed={view?.speed ?? 1} onSpeed={setSpeed} />
      {view?.voice && <NarrationInfo voice={view.voice} total={total} />}
      <Button aria-label="Close audio player" onPress={audio.close} className={audioIconButton}>
        <CloseIcon size={16} />
      </Button>
    </div>
  );
}
