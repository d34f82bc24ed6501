/**
 * The reader's audio player, in the middle of the bottom bar (SPEC §2 Bottom bar; §4 Audio control state): the
 * player machine's Closed / Paused / Now Playing, play and pause, a seek bar, the clocks in mm:ss, the
 * edition's total length ('Xh Ym' or 'Ym'), the playback speed, the narration's info (the voice that speaks it)
 * and a close control. It selects the engine's player slice and sends its events to the player; the rules live in
 * the player machine and src/domain.
 */
import { Suspense } from 'react';
import { Button } from 'react-aria-components';
import { formatAudioLength } from '../../../domain/audioTime';
import { AUDIO_NOT_AVAILABLE } from '../../../domain/constants';
import { connectPlayer } from '../../../machines/player';
import { lazyPart } from '../../components/lazyPart';
import { AudioOffIcon, LockIcon, PauseIcon, PlayIcon } from '../../components/ReaderIcons';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { AUDIO_UPGRADE_TOOLTIP } from './ListenToggle';
import { audioIconButton } from './readerStyles';

/** The open player's controls (AudioPlayerBar.tsx), a chunk of its own. */
export const AudioPlayerBar = lazyPart(() => import('./AudioPlayerBar').then((m) => m.AudioPlayerBar));
const preloadBar = () => void AudioPlayerBar.preload();

export function ReaderAudioPlayer({ audioEnabled, audioLocked = false }: { audioEnabled: boolean; audioLocked?: boolean }) {
  const sendDialog = useChildSend('premiumDialog');
  const snap = useEngine((s) => s.player, Object.is);
  const view = useEngine((s) => s.readerPlayer, Object.is);
  const audio = connectPlayer(snap, useChildSend('player'));

  if (!audioEnabled) {
    return (
      <div role="group" aria-label="Audio player" className="flex min-w-0 items-center gap-2 text-sm text-ink-muted">
        <AudioOffIcon size={18} className="shrink-0" />
        <span className="truncate">{AUDIO_NOT_AVAILABLE}</span>
      </div>
    );
  }

  if (audioLocked) {
    // SPEC §6 Audio: the narration of this language needs AUDIO; the player offers the upgrade instead.
    return (
      <div role="group" aria-label="Audio player" className="flex min-w-0 items-center gap-2 text-sm text-ink-muted">
        <Button aria-label="Unlock Premium Audio" onPress={() => sendDialog({ type: 'premiumDialog.open', feature: 'Audio' })} className={audioIconButton}>
          <LockIcon size={16} />
        </Button>
        <span className="truncate">{AUDIO_UPGRADE_TOOLTIP}</span>
      </div>
    );
  }

  const total = view && view.totalLength > 0 ? formatAudioLength(view.totalLength) : null;
  const playButton = (
    <Button
      aria-label={audio.isPlaying ? 'Pause' : 'Play'}
      onHoverStart={preloadBar}
      onFocus={preloadBar}
      onPress={() => {
        preloadBar();
        audio.toggle();
      }}
      className="grid size-9 shrink-0 place-items-center rounded-full bg-primary-100 text-primary-900 outline-none data-[hovered]:bg-primary-200 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-focus"
    >
      {audio.isPlaying ? <PauseIcon size={16} /> : <PlayIcon size={16} />}
    </Button>
  );

  const closed = (
    <div role="group" aria-label="Audio player" className="flex min-w-0 items-center gap-3 rounded-full border border-line bg-paper py-1 ps-1 pe-4">
      {playButton}
      <span role="status" className="text-sm font-medium text-primary-900">
        {audio.label}
      </span>
      {total && <span className="hidden text-sm text-ink-muted sm:inline" title="Total audio length">{total}</span>}
    </div>
  );
  if (!audio.isOpen) return closed;

  // The open player's seek bar, speed and narration info are a chunk of its own, fetched when the browser is idle
  // or when the play button is first pointed at, focused or pressed; until it is there the closed player stands in.
  return (
    <Suspense fallback={closed}>
      <AudioPlayerBar audio={audio} view={view} total={total} playButton={playButton} />
    </Suspense>
  );
}
