/**
 * The view side of the engine's listen flow (src/machines/listenFlow), shared by the listen page and the
 * teaser page's audio bar: start the flow for an edition, follow the page, close it on leaving, and render the
 * clock in mm:ss with a seek bar. The views hold no audio state of their own; they select it from the engine.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Slider, SliderThumb, SliderTrack } from 'react-aria-components';
import { formatClock } from '../../../domain/audioTime';
import type { Edition } from '../../../domain/schemas';
import { connectListenAudio } from '../../../machines/listenAudio';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { queries } from '../../platform/api';

export interface ListenFlowOptions {
  edition: Edition;
  position: number;
  /** Start playing at once (and auto-advance); read once, when the flow starts for this edition. */
  autoPlay: () => boolean;
  /** The listen address without the position; auto-advance pushes `${basePath}/${next}`. Without it the flow never navigates. */
  basePath?: string;
}

/** Runs the listen flow for one edition while the calling view is mounted; returns the connect API and the clock. */
export function useListenFlow({ edition, position, autoPlay, basePath }: ListenFlowOptions) {
  const send = useEngineSend();
  // The running flow (the system starts it on 'listen.start'): paging, seeking and the player's controls go to it.
  const sendFlow = useChildSend('listen');
  const snapshot = useEngine((s) => s.listenAudio);
  const player = useEngine((s) => s.listenPlayer);
  const passageCount = edition.passageCount;
  const audioEnabled = edition.audioEnabled;

  // One flow per edition: start it, then tell it about page changes (paging, or the address the engine pushed
  // when it advanced).
  const startedFor = useRef<number | null>(null);
  useEffect(() => {
    if (startedFor.current !== edition.id) {
      startedFor.current = edition.id;
      send({
        type: 'listen.start',
        autoPlay: autoPlay(),
        isLastPage: position >= passageCount,
        editionId: edition.id,
        position,
        passageCount,
        audioEnabled,
        basePath,
        language: edition.language.code,
      });
    } else {
      sendFlow({ type: 'listen.page', position });
    }
    // autoPlay is read once per edition on purpose, so it is not a dependency.
  }, [send, sendFlow, edition.id, edition.language.code, position, passageCount, audioEnabled, basePath]);
  // Leaving the page closes the player (and pauses its audio).
  useEffect(
    () => () => {
      startedFor.current = null;
      sendFlow({ type: 'listen.close' });
    },
    [sendFlow],
  );

  return {
    listen: snapshot ? connectListenAudio(snapshot, sendFlow) : null,
    /** Seconds played and the passage's length (0 until known). */
    currentTime: player?.currentTime ?? 0,
    duration: player?.duration ?? 0,
    /** The narration's status (src/machines/listenFlow): 'locked' when this reader may not hear it. */
    audio: player?.audio ?? null,
    seek: (seconds: number) => sendFlow({ type: 'listen.seek', seconds }),
  };
}

/** The clock in mm:ss (current / length) and a seek bar. */
export function ListenClock({ currentTime, duration, onSeek, className = '' }: { currentTime: number; duration: number; onSeek: (seconds: number) => void; className?: string }) {
  const max = Math.max(1, Math.floor(duration));
  return (
    <div className={`flex items-center gap-4 ${className}`}>
      <Slider
        aria-label="Seek"
        minValue={0}
        maxValue={max}
        step={1}
        value={Math.min(max, Math.floor(currentTime))}
        isDisabled={duration <= 0}
        onChange={(value) => onSeek(value as number)}
        formatOptions={{ style: 'unit', unit: 'second', maximumFractionDigits: 0 }}
        className="min-w-0 flex-1"
      >
        <SliderTrack className="relative h-6 w-full">
          {({ state }) => (
            <>
              <div className="absolute top-1/2 h-1.5 w-full -translate-y-1/2 rounded-full bg-primary-100" />
              <div className="absolute top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-primary-700" style={{ width: `${state.getThumbPercent(0) * 100}%` }} />
              <SliderThumb className="top-1/2 size-4 rounded-full bg-primary-900 shadow ring-2 ring-white data-[disabled]:bg-primary-300 data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus" />
            </>
          )}
        </SliderTrack>
      </Slider>
      <p role="timer" aria-label="Audio time" className="shrink-0 text-sm text-ink-muted tabular-nums">
        {formatClock(currentTime)} / {formatClock(duration)}
      </p>
    </div>
  );
}

export const PlayGlyph = ({ size = 22 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
    <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.5-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
  </svg>
);
export const PauseGlyph = ({ size = 22 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
    <rect x="6" y="5" width="4" height="14" rx="1" />
    <rect x="14" y="5" width="4" height="14" rx="1" />
  </svg>
);

/** Fetch the neighbouring passages' excerpts ahead, so previous and next show at once (the listen and teaser pages). */
export function usePrefetchNeighbours(slug: string, version: string, edition: Edition, position: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    for (const p of [position + 1, position - 1]) {
      if (p < 1 || p > edition.passageCount) continue;
      void queryClient.prefetchQuery(queries.excerpt(slug, { publicationVersion: version, language: edition.language.code, level: edition.level, position: p }));
    }
  }, [queryClient, slug, version, edition, position]);
}
