/**
 * The reader's audio I/O (SPEC §4 Audio control state: reader audio player; §4 Highlight). The reader-audio
 * machine is pure: it says closed, paused or playing. This driver makes the audio port follow it:
 *
 * - it plays the narration of the edition named by `editionSelected` (the primary column's, or the secondary's
 *   when that column is shown and chosen);
 * - it fetches that passage's narration through `api.getPassageAudio` when the player is open or highlight needs
 *   speech marks, asking again every READER_AUDIO_POLL_MS while the server answers 202 'generating', at most
 *   READER_AUDIO_MAX_POLLS times; the url and speech marks are merged into the cached passage. Failures are
 *   logged only (SPEC §8);
 * - it loads, plays and pauses the port, applies the edition's playback speed, and seeks;
 * - paging loads the new passage from 0, so the audio time of both editions is reset (SPEC §4);
 * - while playing it reads the audio time every AUDIO_TICK_MS and publishes the view when the shown second
 *   changes; `time()` reads the port directly, for a highlight loop that runs every animation frame.
 *
 * Like listenDriver, it touches no DOM and no globals.
 */
import { AUDIO_TICK_MS } from '../domain/constants';
import { speedFor, type PlaybackSpeed, type PlaybackSpeedMap } from '../domain/playbackSpeed';
import type { Edition, Passage } from '../domain/schemas';
import type { SpeechMark } from '../domain/speechMarks';
import type { Slot } from '../machines/readingSession';
import type { ApiPort, AudioPort, ClockPort, LoggerPort, TimerHandle } from './ports';
import { createWaits } from './waits';

/** How long to wait before asking again while the server answers 202 'generating' (it sends Retry-After: 1). @default 1000 */
export const READER_AUDIO_POLL_MS = 1000;
/** How many times to ask for a passage's narration before giving up (about 15 s at READER_AUDIO_POLL_MS). @default 15 */
export const READER_AUDIO_MAX_POLLS = 15;

export type ReaderAudioStatus = 'none' | 'loading' | 'ready' | 'failed';

/** What the player shows (published at most once per shown second while playing). */
export interface ReaderPlayerView {
  /** The column whose edition the player plays. */
  slot: Slot;
  editionId: number | null;
  passageId: number | null;
  /** The passage's narration: none (no audio for this edition), being fetched, ready, or failed (logged). */
  status: ReaderAudioStatus;
  /** Seconds played, to the whole second the clock shows. Use engine.getAudioTime() for the exact time. */
  currentTime: number;
  /** The passage's length in seconds; 0 until known. */
  duration: number;
  /** The edition's playback speed. */
  speed: PlaybackSpeed;
  /** The edition's total narration, in seconds (edition.audioTotalLength). */
  totalLength: number;
}

export interface ReaderAudioContext {
  /** The reader-audio machine's state. */
  state(): string;
  passage(slot: Slot): Passage | null;
  edition(slot: Slot): Edition | undefined;
  /** Whether the secondary column is shown (else the primary plays whatever was selected). */
  hasSecondary(): boolean;
  /** The column chosen to play (saved audio settings' editionSelected). */
  selected(): Slot;
  /** Highlight is on: the playing passage needs its speech marks even while the player is closed. */
  needsMarks(): boolean;
  speeds(): PlaybackSpeedMap;
  /** Merge a fetched narration into the cached passage (and the shown one). */
  merge(slot: Slot, passage: Passage, narration: { url: string; speechMarks: SpeechMark[] }): void;
  /** The audio reached its end. */
  ended(): void;
  /** The published view changed. */
  changed(): void;
}

export interface ReaderAudioDriver {
  /** Make the port follow the machine and the passages. Idempotent; the engine calls it on every change. */
  sync(): void;
  seek(seconds: number): void;
  /** Apply a speed to the port (the engine saves it). */
  applySpeed(): void;
  /** Fetch the narration of a column's passage now (highlight asks for speech marks). */
  ensureNarration(slot: Slot): Promise<boolean>;
  /** The exact audio time, in seconds, read from the port. */
  time(): number;
  view(): ReaderPlayerView;
  stop(): void;
}

interface Narration {
  url: string;
  /** Seconds. */
  duration: number;
}

export function createReaderAudioDriver(ports: { api: ApiPort; clock: ClockPort; audio?: AudioPort; logger: LoggerPort }, ctx: ReaderAudioContext): ReaderAudioDriver {
  const { api, clock, audio, logger } = ports;
  /** Narration by passage id: the request, and its answer once known (null when it failed). */
  const requests = new Map<number, Promise<Narration | null>>();
  const answers = new Map<number, Narration | null>();
  const waits = createWaits(clock);
  let loadedKey: string | null = null;
  let playing = false;
  let tickTimer: TimerHandle | null = null;
  let published: ReaderPlayerView | null = null;
  let syncing = false;
  let stopped = false;
  const offEnded = audio?.onEnded(() => {
    playing = false;
    ctx.ended();
  });

  const slotNow = (): Slot => (ctx.selected() === 'secondary' && ctx.hasSecondary() ? 'secondary' : 'primary');
  const isOpen = () => {
    const s = ctx.state();
    return s === 'paused' || s === 'playing';
  };


  /** What is already known of a passage's narration, from the passage itself or an earlier answer. */
  function known(passage: Passage): Narration | null | undefined {
    if (answers.has(passage.id)) return answers.get(passage.id);
    if (passage.audio?.url) return { url: passage.audio.url, duration: 0 };
    return undefined;
  }

  function fetchNarration(slot: Slot, passage: Passage): Promise<Narration | null> {
    const pending = requests.get(passage.id);
    if (pending) return pending;
    const request = (async (): Promise<Narration | null> => {
      if (!api.getPassageAudio) {
        // Without the audio call: the passage's own audio, and speech marks from their own call.
        if (!passage.audio?.url) throw new Error('The API has no passage audio call');
        if (!passage.audio.speechMarks.length && api.getSpeechMarks) {
          const speechMarks = await api.getSpeechMarks(passage.id);
          ctx.merge(slot, passage, { url: passage.audio.url, speechMarks });
        }
        return { url: passage.audio.url, duration: 0 };
      }
      for (let attempt = 1; ; attempt++) {
        const answer = await api.getPassageAudio(passage.id, passage.editionId);
        if (stopped) return null;
        if (answer.status === 'ready') {
          ctx.merge(slot, passage, { url: answer.audio.url, speechMarks: answer.audio.speechMarks });
          return { url: answer.audio.url, duration: answer.audio.duration / 1000 };
        }
        if (attempt >= READER_AUDIO_MAX_POLLS) throw new Error('Audio is still being generated');
        await waits.wait(READER_AUDIO_POLL_MS);
        if (stopped) return null;
      }
    })().then(
      (found) => {
        if (!stopped) {
          answers.set(passage.id, found);
          sync();
        }
        return found;
      },
      (error: unknown) => {
        // SPEC §8: audio fetch errors are logged only. Forget the request, so coming back asks again.
        logger.error('Audio fetch failed', error);
        requests.delete(passage.id);
        if (!stopped) {
          answers.set(passage.id, null);
          sync();
        }
        return null;
      },
    );
    requests.set(passage.id, request);
    return request;
  }

  function readView(): ReaderPlayerView {
    const slot = slotNow();
    const passage = ctx.passage(slot);
    const edition = ctx.edition(slot);
    const enabled = Boolean(edition?.audioEnabled && passage && !passage.licenseRequired && !passage.groupCodeRequired);
    const narration = passage ? known(passage) : undefined;
    const status: ReaderAudioStatus = !enabled ? 'none' : narration === undefined ? 'loading' : narration === null ? 'failed' : 'ready';
    const loaded = Boolean(audio && passage && narration && loadedKey === `${passage.id}|${narration.url}`);
    const portDuration = loaded && audio ? audio.duration() : 0;
    return {
      slot,
      editionId: edition?.id ?? null,
      passageId: passage?.id ?? null,
      status,
      currentTime: loaded && audio ? Math.floor(audio.currentTime()) : 0,
      duration: portDuration > 0 ? portDuration : (narration?.duration ?? 0),
      speed: speedFor(ctx.speeds(), edition?.id),
      totalLength: edition?.audioTotalLength ?? 0,
    };
  }

  function publish(): boolean {
    const next = readView();
    const before = published;
    if (
      before &&
      before.slot === next.slot &&
      before.editionId === next.editionId &&
      before.passageId === next.passageId &&
      before.status === next.status &&
      before.currentTime === next.currentTime &&
      before.duration === next.duration &&
      before.speed === next.speed &&
      before.totalLength === next.totalLength
    )
      return false;
    published = next;
    return true;
  }

  function tick() {
    tickTimer = null;
    if (stopped || !playing) return;
    if (publish()) ctx.changed();
    tickTimer = clock.setTimeout(tick, AUDIO_TICK_MS);
  }

  function sync() {
    if (syncing || stopped) return;
    syncing = true;
    try {
      const slot = slotNow();
      const passage = ctx.passage(slot);
      const edition = ctx.edition(slot);
      const open = isOpen();
      const enabled = Boolean(edition?.audioEnabled && passage && !passage.licenseRequired && !passage.groupCodeRequired);
      if (enabled && passage) {
        const narration = known(passage);
        const marksMissing = !passage.audio?.speechMarks.length;
        const wanted = (open && narration === undefined) || (ctx.needsMarks() && marksMissing && !answers.has(passage.id));
        if (wanted) void fetchNarration(slot, passage);
      }
      const narration = enabled && passage ? known(passage) : null;
      const key = open && passage && narration ? `${passage.id}|${narration.url}` : null;
      if (audio && key !== loadedKey) {
        // Another passage (paging) or edition, or the player closed: the audio starts again from 0.
        loadedKey = key;
        if (playing) audio.pause();
        playing = false;
        audio.load(key ? narration!.url : null);
        audio.setRate(speedFor(ctx.speeds(), edition?.id));
      }
      if (audio && ctx.state() === 'playing' && key) {
        if (!playing) {
          playing = true;
          audio.play().catch((error: unknown) => logger.warn('Audio could not play', error));
        }
      } else if (playing) {
        playing = false;
        audio?.pause();
      }
      if (playing && tickTimer === null) tickTimer = clock.setTimeout(tick, AUDIO_TICK_MS);
    } finally {
      syncing = false;
    }
    if (publish()) ctx.changed();
  }

  return {
    sync,
    seek(seconds) {
      if (!audio || loadedKey === null) return;
      const duration = audio.duration();
      audio.seek(Math.max(0, duration > 0 ? Math.min(seconds, duration) : seconds));
      if (publish()) ctx.changed();
    },
    applySpeed() {
      audio?.setRate(speedFor(ctx.speeds(), ctx.edition(slotNow())?.id));
      if (publish()) ctx.changed();
    },
    async ensureNarration(slot) {
      const passage = ctx.passage(slot);
      if (!passage || !ctx.edition(slot)?.audioEnabled) return false;
      if (passage.audio?.speechMarks.length) return true;
      return (await fetchNarration(slot, passage)) !== null;
    },
    time: () => (audio && loadedKey !== null ? audio.currentTime() : 0),
    view: () => published ?? readView(),
    stop() {
      stopped = true;
      waits.clear();
      if (tickTimer !== null) clock.clearTimeout(tickTimer);
      tickTimer = null;
      offEnded?.();
      if (playing) audio?.pause();
      playing = false;
    },
  };
}
