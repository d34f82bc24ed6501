/**
 * The listen flow's I/O (SPEC §4 Audio control state: listen flow). The listen-audio machine is pure: it names
 * what should happen (play, pause, restart, prefetch the next passage, advance) and this driver does it through
 * the ports, then reports the outcomes back as events:
 *
 * - it fetches each passage's narration with `api.getAudioOnly`, asking again every LISTEN_AUDIO_POLL_MS while
 *   the server answers 202 'generating', at most LISTEN_AUDIO_MAX_POLLS times; a failure is logged only (SPEC §8);
 * - it asks for nothing while the edition's language is not voiced for this reader (`isAudioLocked`, the rule of
 *   src/domain/access.ts): the player says 'locked' and stays paused. A server that still refuses the narration
 *   (403 license_required or group_code_required, or a passage answer that is licenseRequired or
 *   groupCodeRequired) is treated the same way: logged, not playing, and the player says 'locked';
 * - it loads, plays and pauses its audio port to match the machine's state, and sends `listen.ended` when the
 *   port reports the end;
 * - once a passage has finished with auto-play on, it prefetches the next passage's narration and sends
 *   `listen.nextReady` when that is ready (the machine's `loadingNext` timeout advances without it);
 * - on advance it moves to the next position, tells the machine whether that is the last page, and pushes the
 *   next passage's address through the navigation port, so the view follows; the audio keeps playing;
 * - while playing it reads the audio's time every AUDIO_TICK_MS (SPEC §4 "Audio time updates every 25 ms") and
 *   publishes it when the shown second changes.
 *
 * It touches no DOM and no globals: the engine creates it with its ports, and tests drive it with a manual clock
 * and a silent audio.
 */
import { AUDIO_TICK_MS } from '../domain/constants';
import { listenAudioMachine, type ListenAudioState } from '../machines/listenAudio';
import { hostMachine, type MachineHost } from './host';
import { gateOfError } from './locks';
import { createWaits } from './waits';
import type { ApiPort, AudioPort, ClockPort, LoggerPort, NavigationPort, TimerHandle } from './ports';

/** How long to wait before asking again while the server answers 202 'generating' (it sends Retry-After: 1). @default 1000 */
export const LISTEN_AUDIO_POLL_MS = 1000;
/** How many times to ask for a passage's narration before giving up (about 15 s at LISTEN_AUDIO_POLL_MS). @default 15 */
export const LISTEN_AUDIO_MAX_POLLS = 15;

/** What the view tells the engine when the listen page opens an edition ('listen.start'). */
export interface ListenStart {
  /** Opened with auto-play flagged (from 'Start Listening'). */
  autoPlay: boolean;
  /** Whether `position` is the last page. Computed from passageCount when that is given. */
  isLastPage: boolean;
  /** The edition being listened to. Without it the machine runs with no audio (as before narration existed). */
  editionId?: number;
  /** The passage shown. @default 1 */
  position?: number;
  passageCount?: number;
  /** Whether the edition has narration (edition.audioEnabled). Without it nothing is fetched. @default true */
  audioEnabled?: boolean;
  /** The listen address without the position, e.g. '/listen/{slug}/{version}/{editionSlug}'; advancing pushes `${basePath}/${next}`. */
  basePath?: string;
  /** The edition's language code, for the audio gate (SPEC §6 Audio). Without it the audio is never locked here. */
  language?: string;
}

/** The listen player's clock and page, for the view. */
export interface ListenPlayer {
  /** The passage the flow is on. */
  position: number;
  /** Seconds played in the current passage. */
  currentTime: number;
  /** The current passage's length in seconds; 0 until its narration is known. */
  duration: number;
  /**
   * The current passage's narration: being fetched, ready, failed (logged), none (no audio for this edition), or
   * locked (this reader may not hear it: the play control offers 'Unlock Premium Audio').
   */
  audio: 'loading' | 'ready' | 'failed' | 'none' | 'locked';
}

export interface ListenDriverPorts {
  api: ApiPort;
  clock: ClockPort;
  /** The listen flow's own audio element. Without one the machine still runs, silently, and nothing ends. */
  audio?: AudioPort;
  navigation?: NavigationPort;
  logger: LoggerPort;
  /** Called whenever the machine's snapshot or the player changes. */
  onChange: () => void;
  /** Whether narration in this language is locked for the reader now (the engine applies src/domain/access.ts). */
  isAudioLocked?: (language: string) => boolean;
}

export interface ListenDriver {
  /** Start the listen flow afresh (a new machine) for an edition at a position. */
  start(options: ListenStart): void;
  /** The page changed in the view (paging, or following an advance): switch to that passage's audio from 0. */
  page(position: number): void;
  /** Seek the current passage's audio. */
  seek(seconds: number): void;
  /** The features in force changed: apply the audio lock again (a lifted lock fetches the narration). */
  refresh(): void;
  /** The machine's host, or null before 'listen.start' and after stop. The engine routes listen events to it. */
  machine(): MachineHost<typeof listenAudioMachine> | null;
  player(): ListenPlayer | null;
  stop(): void;
}

interface Narration {
  url: string;
  /** ms, as the API gives it. */
  duration: number;
}

export function createListenDriver(ports: ListenDriverPorts): ListenDriver {
  const { api, clock, audio, logger } = ports;
  let host: MachineHost<typeof listenAudioMachine> | null = null;
  /** Bumped by every start and stop, so that answers for an earlier flow are dropped. */
  let generation = 0;
  let flow: { editionId: number; passageCount: number; audioEnabled: boolean; basePath: string | null; language: string | null } = {
    editionId: 0,
    passageCount: 1,
    audioEnabled: false,
    basePath: null,
    language: null,
  };
  /** The server refused this flow's narration (a license or class-code gate): nothing more is asked for. */
  let refused = false;
  let position = 1;
  let player: ListenPlayer | null = null;
  /** Narration per position for this flow: the request, and its answer once known (null when it failed). */
  const requests = new Map<number, Promise<Narration | null>>();
  const answers = new Map<number, Narration | null>();
  const waits = createWaits(clock);
  let loadedUrl: string | null = null;
  let playing = false;
  let tickTimer: TimerHandle | null = null;
  let offEnded: (() => void) | null = null;

  const state = (): ListenAudioState | null => (host ? (String(host.getSnapshot().value) as ListenAudioState) : null);
  const isLast = (p: number) => p >= flow.passageCount;
  /** The narration is gated for this reader: by the rule on the client, or by the server's answer. */
  const isLocked = () => refused || (flow.language !== null && (ports.isAudioLocked?.(flow.language) ?? false));


  /** The narration of a passage of this flow, fetched once; polls through 202s; null (logged) when it fails. */
  function narration(target: number): Promise<Narration | null> {
    const known = requests.get(target);
    if (known) return known;
    const gen = generation;
    const editionId = flow.editionId;
    const request = (async (): Promise<Narration | null> => {
      if (!api.getAudioOnly) throw new Error('The API has no audio-only call');
      for (let attempt = 1; ; attempt++) {
        const answer = await api.getAudioOnly(editionId, target);
        if (isBlockedAnswer(answer)) throw new NarrationRefused();
        if (answer.status === 'ready') return { url: answer.audio.url, duration: answer.audio.duration };
        if (attempt >= LISTEN_AUDIO_MAX_POLLS) throw new Error('Audio is still being generated');
        await waits.wait(LISTEN_AUDIO_POLL_MS);
        if (gen !== generation) return null;
      }
    })().then(
      (found) => {
        if (gen === generation) {
          answers.set(target, found);
          if (target === position) sync();
        }
        return found;
      },
      (error: unknown) => {
        // SPEC §8: audio fetch errors are logged only. Forget the request, so paging back asks again.
        logger.error('Audio fetch failed', error);
        if (gen === generation && isRefusal(error)) {
          // A gate: stop asking, and stop playing.
          refused = true;
          requests.clear();
          answers.clear();
          sync();
          return null;
        }
        if (gen === generation) {
          requests.delete(target);
          answers.set(target, null);
          if (target === position) sync();
        }
        return null;
      },
    );
    requests.set(target, request);
    return request;
  }

  function publish(next: ListenPlayer) {
    const before = player;
    if (before && before.position === next.position && before.audio === next.audio && before.duration === next.duration && Math.floor(before.currentTime) === Math.floor(next.currentTime)) return false;
    player = next;
    return true;
  }

  function readPlayer(): ListenPlayer {
    const answer = answers.get(position);
    const status: ListenPlayer['audio'] = !flow.audioEnabled ? 'none' : isLocked() ? 'locked' : answer === undefined ? 'loading' : answer === null ? 'failed' : 'ready';
    const loaded = status === 'ready' && audio && loadedUrl === answer!.url;
    const duration = loaded && audio.duration() > 0 ? audio.duration() : status === 'ready' ? answer!.duration / 1000 : 0;
    return { position, currentTime: loaded ? audio.currentTime() : 0, duration, audio: status };
  }

  function tick() {
    tickTimer = null;
    if (!host || !playing) return;
    if (publish(readPlayer())) ports.onChange();
    tickTimer = clock.setTimeout(tick, AUDIO_TICK_MS);
  }

  /** Make the audio port match the machine: the current passage loaded, playing only in `playing`. */
  function sync() {
    const s = state();
    if (!host || !s) return;
    if (flow.audioEnabled && isLocked()) {
      // Locked: nothing is fetched or played; a flow that was asked to play waits, paused.
      if (playing) audio?.pause();
      playing = false;
      if (s === 'playing') {
        const gen = generation;
        queueMicrotask(() => {
          if (gen === generation && state() === 'playing') host?.send({ type: 'listen.toggle' });
        });
      }
      if (publish(readPlayer())) ports.onChange();
      return;
    }
    if (flow.audioEnabled && !answers.has(position)) void narration(position);
    const current = answers.get(position) ?? null;
    if (audio && s !== 'closed' && current && loadedUrl !== current.url) {
      loadedUrl = current.url;
      playing = false;
      audio.load(current.url);
    }
    if (audio && s === 'playing' && current && loadedUrl === current.url) {
      if (!playing) {
        playing = true;
        const gen = generation;
        audio.play().catch((error: unknown) => {
          logger.warn('Audio could not play', error);
          // The browser refused to start without a gesture: show Paused, so the play button starts it.
          if ((error as { name?: string } | null)?.name === 'NotAllowedError' && gen === generation && state() === 'playing') {
            playing = false;
            host?.send({ type: 'listen.toggle' });
          }
        });
      }
    } else if (playing) {
      playing = false;
      audio?.pause();
    }
    // When a passage finishes with auto-play on, prefetch the next one (SPEC §4: Loading Next waits for it).
    const context = host.getSnapshot().context;
    if (s === 'finished' && flow.audioEnabled && context.autoPlay && !isLast(position)) void narration(position + 1);
    if (playing && tickTimer === null) tickTimer = clock.setTimeout(tick, AUDIO_TICK_MS);
    if (publish(readPlayer())) ports.onChange();
  }

  function advance() {
    if (isLast(position)) return;
    position += 1;
    const isLastPage = isLast(position);
    const gen = generation;
    // After the transition that asked for it: tell the machine about the page, follow with the address.
    queueMicrotask(() => {
      if (gen !== generation || !host) return;
      host.send({ type: 'listen.page.changed', isLastPage });
      if (flow.basePath && ports.navigation) ports.navigation.push(`${flow.basePath}/${position}`);
      sync();
    });
  }

  function prefetchNext() {
    const target = position + 1;
    if (!flow.audioEnabled || isLast(position)) return;
    const gen = generation;
    void narration(target).then((found) => {
      if (found && gen === generation && host && position === target - 1 && state() === 'loadingNext') host.send({ type: 'listen.nextReady' });
    });
  }

  function reset() {
    generation++;
    refused = false;
    host?.stop();
    host = null;
    waits.clear();
    if (tickTimer !== null) clock.clearTimeout(tickTimer);
    tickTimer = null;
    requests.clear();
    answers.clear();
    if (playing) audio?.pause();
    playing = false;
    player = null;
  }

  return {
    start(options) {
      reset();
      const requested = Math.max(1, options.position ?? 1);
      // Without a passage count, isLastPage says whether there is a next passage.
      const passageCount = Math.max(1, options.passageCount ?? (options.isLastPage ? requested : requested + 1));
      position = Math.min(requested, passageCount);
      flow = {
        editionId: options.editionId ?? 0,
        passageCount,
        audioEnabled: options.editionId !== undefined && (options.audioEnabled ?? true),
        basePath: options.basePath ?? null,
        language: options.language ?? null,
      };
      if (audio && !offEnded) offEnded = audio.onEnded(() => host?.send({ type: 'listen.ended' }));
      host = hostMachine({
        machine: listenAudioMachine.provide({
          actions: {
            restartAudio: () => audio?.seek(0),
            prefetchNextAudio: () => prefetchNext(),
            advanceToNextPassage: () => advance(),
          },
        }),
        input: { autoPlay: options.autoPlay, isLastPage: isLast(position) },
        clock,
        onChange: () => {
          sync();
          ports.onChange();
        },
        onError: (error) => logger.error('Machine error', error),
      });
      sync();
      ports.onChange();
    },
    page(next) {
      if (!host || next === position || next < 1 || next > flow.passageCount) return;
      position = next;
      // A passage whose narration failed earlier is asked for again.
      if (answers.get(next) === null) answers.delete(next);
      host.send({ type: 'listen.page.changed', isLastPage: isLast(position) });
      sync();
    },
    seek(seconds) {
      if (!audio || !host || loadedUrl === null) return;
      audio.seek(Math.max(0, seconds));
      if (publish(readPlayer())) ports.onChange();
    },
    refresh() {
      if (host) sync();
    },
    machine: () => host,
    player: () => player,
    stop() {
      reset();
      offEnded?.();
      offEnded = null;
      loadedUrl = null;
    },
  };
}

/** The server refused a passage's narration (SPEC §3 Passage: licenseRequired or groupCodeRequired). */
class NarrationRefused extends Error {
  constructor() {
    super('The narration is gated for this reader');
    this.name = 'NarrationRefused';
  }
}

/** An audio-only answer that carries the passage's gate instead of narration. */
function isBlockedAnswer(answer: unknown): boolean {
  const a = answer as { licenseRequired?: unknown; groupCodeRequired?: unknown } | null;
  return a?.licenseRequired === true || a?.groupCodeRequired === true;
}

/** A failure that is a gate (403 license_required / group_code_required, or a gated answer), not a fault. */
function isRefusal(error: unknown): boolean {
  return error instanceof NarrationRefused || gateOfError(error) !== null;
}
