/**
 * The reader's player (SPEC §4 Audio control state: reader audio player): closed or open (paused, playing, or held
 * while a tapped word is said), the passage's narration (`narration.loading`; a head first when it is being made,
 * then the whole from the head's seam), the audio port (`open.port`, where the playback actor runs while it plays),
 * seeking, 'Play from here', the speed and the saved audio state. The column that plays tells it what plays
 * ('player.track'); what it saves, tracks and loads goes back through engine actions. Rules: player.rules.ts.
 */
import { and, assign, not, or, setup, stateIn } from 'xstate';
import type { TrackedEvent } from '../../domain/analytics';
import type { PlaybackSpeedMap } from '../../domain/playbackSpeed';
import { loadNarrationPlaceholder, playbackPlaceholder } from '../shared/audio';
import { startState } from '../shared/start';
import type { StateMetaWithTimers } from '../shared/timers';
import { audioLoad, narrationAnswered, narrationAsked, canApplyPendingSeek, canSetSpeed, continuesHead, isNewSecond, isOtherAudio, loadedState, narrationInput, playerPlan, savedPassage, seekTarget, speedsFromAddress, speedsWith, timeAfter, trackedProperties, wantsNarration } from './player.rules';
import type { NarrationLoadedParams, PlayerContext, PlayerControlState, PlayerEvent, PlayerInput, PlayerSaveParams, PlayerTrackParams } from './player.types';

type Args = { context: PlayerContext };
type PlayFromArgs = { event: Extract<PlayerEvent, { type: 'player.playFrom' }> };

/** Save the player's state with the time it is at. */
const saveState = (state: PlayerControlState) => ({ type: 'save', params: ({ context }: Args) => ({ audioControlState: state, currentTime: context.currentTime }) }) as const;
const track = (event: TrackedEvent) => ({ type: 'track', params: ({ context }: Args) => ({ event, properties: trackedProperties(context, event) }) }) as const;
/** 'Paused Audio' and 'Closed Audio Player' end a stretch of listening: they report the seconds heard, which start again. */
const trackListening = (event: TrackedEvent) => [track(event), 'restartHeard'] as const;
const PLAYING = '#player.control.open.mode.playing';
const toPlaying = (event: TrackedEvent) => ({ target: PLAYING, actions: [track(event), saveState('playing')] }) as const;
const toPaused = { target: 'paused', actions: [...trackListening('Paused Audio'), saveState('paused')] } as const;
const trackSpeed = { type: 'track', params: ({ event }: { event: { speed: number } }) => ({ event: 'Changed Audio Settings' as const, properties: { playbackSpeed: event.speed } }) } as const;
const keepPlayFrom = { type: 'keepPlayFrom', params: ({ event }: PlayFromArgs) => event } as const;
const playFrom = (event: TrackedEvent) => ({ target: PLAYING, actions: [keepPlayFrom, track(event), saveState('playing')] }) as const;
/** Paging, another column or a closed player: the audio port takes the new narration (or none) from 0. */
const loadAudio = [{ type: 'loadReaderAudio', params: ({ context }: Args) => audioLoad(context) }, 'keepLoaded'] as const;
/** 'Play from here': the narration is in the audio port, so the player goes to the word. */
const applyPendingSeek = [{ type: 'seekReaderAudio', params: ({ context }: Args) => ({ seconds: context.pendingSeek!.seconds }) }, 'keepSought'] as const;

export const playerMachine = setup({
  types: {} as { context: PlayerContext; events: PlayerEvent; input: PlayerInput; meta: StateMetaWithTimers },
  // Provided by the engine: the passage's narration (asks again while it is being made), and the playback of the
  // reader's audio port while it runs (it reports its time and end).
  actors: { loadNarration: loadNarrationPlaceholder, playback: playbackPlaceholder },
  actions: {
    // ---- effects the engine provides; then what the reader system is told ----
    /** Load a url into the reader's audio port (null unloads it), at a rate; `upTo`: go on from the port's time, at most this second. */
    loadReaderAudio: (_, _params: { url: string | null; rate: number; upTo?: number | null }) => {},
    setReaderAudioRate: (_, _params: { rate: number }) => {},
    seekReaderAudio: (_, _params: { seconds: number }) => {},
    showSpeedsInAddress: (_, _params: { speeds: PlaybackSpeedMap }) => {},
    logError: (_, _params: { message: string; error?: unknown }) => {},
    save: (_, _params: PlayerSaveParams) => {}, // part of the audio settings
    track: (_, _params: PlayerTrackParams) => {},
    /** A narration arrived: the columns that show its passage gain its speech marks. */
    tellNarration: (_, _params: NarrationLoadedParams) => {},
    keepTrack: assign({ track: (_, params: { track: PlayerContext['track'] }) => params.track }),
    keepPlayFrom: assign({ pendingSeek: (_, params: { at: PlayerContext['pendingSeek'] }) => params.at }),
    askMarks: assign({ marksFor: ({ context }) => context.track.passage?.id ?? null }),
    restartHeard: assign({ heard: 0 }),
    keepSpeeds: assign({ speeds: (_, params: { speeds: PlaybackSpeedMap }) => params.speeds }),
    /** What the audio port now holds (the port takes it from 0). */
    keepLoaded: assign(({ context }) => loadedState(context)),
    keepUnloaded: assign({ loadedKey: null, loadedSeam: null, currentTime: 0, duration: 0 }),
    /** The pending 'Play from here' time is reached. */
    keepSought: assign(({ context }) => ({ pendingSeek: null, currentTime: Math.floor(context.pendingSeek!.seconds) })),
    markLoading: assign(({ context }) => narrationAsked(context)),
  },
  guards: {
    /** The audio port holds a narration while the player is closed. */
    holdsAudio: ({ context }) => context.loadedKey !== null,
    isOtherAudio: ({ context }) => isOtherAudio(context),
    playsHead: ({ context }) => context.loadedSeam !== null,
    isHeadGoingOn: ({ context }) => continuesHead(context),
    hasReadyAudio: ({ context }) => playerPlan(context, 'paused').key !== null,
    canApplyPendingSeek: ({ context }) => canApplyPendingSeek(context),
    needsNarrationOpen: ({ context }) => wantsNarration(context, 'paused'),
    needsNarrationClosed: ({ context }) => wantsNarration(context, 'closed'),
    hasSavedSettings: ({ context }) => context.hasSavedSettings,
    isPaging: ({ context }, params: { track: PlayerContext['track'] }) => savedPassage({ ...context, track: params.track }) !== savedPassage(context),
    needsLicense: (_, params: { track: PlayerContext['track'] }) => params.track.passage?.licenseRequired === true,
    canSetSpeed: ({ context }, params: { speed: number }) => canSetSpeed(context, params.speed),
    isNewSecond: ({ context }, params: { time: number; duration: number }) => isNewSecond(context, params.time, params.duration),
    isOpen: stateIn('#player.control.open'), isPlaying: stateIn(PLAYING),
  },
}).createMachine({
  id: 'player',
  type: 'parallel',
  context: ({ input }) => ({ ...input, track: { slot: 'primary', passage: null, edition: null }, narration: {}, loadingFor: null, marksFor: null, loadedKey: null, loadedSeam: null, currentTime: 0, duration: 0, heard: 0, pendingSeek: null }),
  on: {
    'player.track': [
      {
        guard: { type: 'isPaging', params: ({ event }) => event },
        actions: [{ type: 'save', params: { currentTime: 0 } }, { type: 'keepTrack', params: ({ event }) => event }],
        description: 'Another passage or edition plays: the saved time goes back to 0 (SPEC §4).',
      },
      { actions: { type: 'keepTrack', params: ({ event }) => event } },
    ],
    'narration.wantMarks': { actions: 'askMarks' },
    'audio.seek': {
      guard: 'holdsAudio',
      actions: [{ type: 'seekReaderAudio', params: ({ context, event }) => ({ seconds: seekTarget(context, event.seconds) }) }, assign({ currentTime: ({ event }) => Math.floor(Math.max(0, event.seconds)) })],
    },
    // A speed for the edition that plays is saved, applied and shown in an address that carries speeds; any choice is tracked.
    'audio.speed': [
      {
        guard: { type: 'canSetSpeed', params: ({ event }) => event },
        actions: [
          { type: 'keepSpeeds', params: ({ context, event }) => ({ speeds: speedsWith(context, event.speed) }) },
          { type: 'save', params: ({ context }) => ({ playbackSpeed: context.speeds }) },
          { type: 'setReaderAudioRate', params: ({ event }) => ({ rate: event.speed }) },
          { type: 'showSpeedsInAddress', params: ({ context }) => ({ speeds: context.speeds }) },
          trackSpeed,
        ],
      },
      { actions: trackSpeed },
    ],
    // The `playbackSpeed` query parameter sets the saved speeds (docs/decisions.md).
    'address.speeds': {
      actions: [
        { type: 'keepSpeeds', params: ({ context, event }) => ({ speeds: speedsFromAddress(context, event.param) }) },
        { type: 'save', params: ({ context }) => ({ playbackSpeed: context.speeds }) },
        { type: 'setReaderAudioRate', params: ({ context }) => ({ rate: playerPlan(context, 'paused').speed }) },
      ],
    },
    'playback.time': { guard: { type: 'isNewSecond', params: ({ event }) => event }, actions: assign(({ context, event }) => timeAfter(context, event.time, event.duration)) },
    'playback.refused': { actions: { type: 'logError', params: { message: 'Audio could not play' } } },
  },
  states: {
    control: {
      initial: 'init',
      states: {
        init: startState('Chooses the start state: paused when saved audio settings exist, otherwise closed.', 'hasSavedSettings', 'open', 'closed'),
        closed: {
          meta: { description: 'The player is closed; only the Listen control shows. The audio port holds nothing.' },
          always: { guard: 'holdsAudio', actions: [{ type: 'loadReaderAudio', params: ({ context }) => ({ url: null, rate: playerPlan(context, 'closed').speed }) }, 'keepUnloaded'] },
          on: {
            'audio.open': toPlaying('Opened Audio Player'),
            'audio.toggle': { ...toPlaying('Opened Audio Player'), description: 'Play from closed opens the player.' },
            'player.listen': toPlaying('Opened Audio Player'),
            'player.playFrom': playFrom('Opened Audio Player'),
          },
        },
        open: {
          type: 'parallel',
          meta: { description: 'The player is open.' },
          on: {
            'audio.close': { target: 'closed', actions: [...trackListening('Closed Audio Player'), saveState('closed')] },
            // The passage that plays needs a license: the player is forced closed; not a user close, so nothing is tracked.
            'player.track': { guard: { type: 'needsLicense', params: ({ event }) => event }, target: 'closed', actions: [{ type: 'keepTrack', params: ({ event }) => event }, saveState('closed')] },
          },
          states: {
            mode: {
              initial: 'paused',
              states: {
                paused: {
                  meta: { description: "Paused ('Paused')." },
                  on: {
                    'audio.play': toPlaying('Resumed Audio'),
                    'audio.toggle': toPlaying('Resumed Audio'),
                    'player.listen': toPlaying('Resumed Audio'),
                    'player.playFrom': playFrom('Resumed Audio'),
                  },
                },
                playing: {
                  meta: { description: "The audio plays ('Now Playing')." },
                  on: {
                    'audio.pause': toPaused,
                    'audio.toggle': toPaused,
                    'player.leave': { ...toPaused, description: 'Leaving the reader stops its audio; the player stays open, paused.' },
                    'player.playFrom': { actions: keepPlayFrom },
                    'playback.ended': { guard: not('playsHead'), target: 'paused', actions: saveState('paused'), description: 'The audio reached its end; not a user pause, so nothing is tracked.' },
                    'word.hold': { target: 'held', description: 'A tapped word is said: the player waits for it.' },
                  },
                },
                held: {
                  meta: { description: "A tapped word is being said: the player shows 'Paused' and plays on after it." },
                  on: {
                    'word.release': { target: 'playing' },
                    'audio.play': toPlaying('Resumed Audio'),
                    'audio.toggle': toPlaying('Resumed Audio'),
                    'player.playFrom': { target: 'playing', actions: keepPlayFrom },
                    'audio.pause': toPaused,
                    'player.leave': toPaused,
                  },
                },
              },
            },
            port: {
              initial: 'silent',
              states: {
                silent: {
                  meta: { description: 'The audio port holds the narration that plays, and is still.' },
                  always: [
                    { guard: 'isOtherAudio', actions: loadAudio },
                    { guard: 'canApplyPendingSeek', actions: applyPendingSeek },
                    { guard: and(['isPlaying', 'hasReadyAudio']), target: 'sounding' },
                  ],
                },
                sounding: {
                  meta: { description: 'The audio port plays: the playback actor reports its time and its end.' },
                  invoke: { id: 'playback', src: 'playback' },
                  on: { 'playback.ended': { guard: 'playsHead', target: 'awaitingRest' } },
                  always: [
                    { guard: and(['isOtherAudio', not('isHeadGoingOn')]), target: 'silent' },
                    { guard: 'canApplyPendingSeek', actions: applyPendingSeek },
                    { guard: not(and(['isPlaying', 'hasReadyAudio'])), target: 'silent' },
                  ],
                },
                awaitingRest: {
                  meta: { description: "The narration's head has played; the whole goes on from its seam once it is here." },
                  always: [{ guard: 'isOtherAudio', target: 'silent' }, { guard: not('isPlaying'), target: 'silent' }],
                },
              },
            },
          },
        },
      },
    },
    narration: {
      initial: 'idle',
      states: {
        idle: {
          meta: { description: 'No narration is being loaded.' },
          always: { guard: or([and(['isOpen', 'needsNarrationOpen']), and([not('isOpen'), 'needsNarrationClosed'])]), target: 'loading' },
        },
        loading: {
          meta: { description: "The playing passage's narration is loaded (the engine waits while it is made)." },
          entry: 'markLoading',
          invoke: {
            id: 'narration',
            src: 'loadNarration',
            input: ({ context }) => narrationInput(context),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'tellNarration', params: ({ context, event }) => ({ passageId: context.loadingFor!, url: event.output.url, speechMarks: event.output.speechMarks }) },
                assign(({ context, event }) => narrationAnswered(context, { status: 'ready', url: event.output.url, duration: event.output.duration, seam: event.output.seam })),
              ],
            },
            onError: {
              target: 'idle',
              // SPEC §8: audio fetch errors are logged only.
              actions: [
                { type: 'logError', params: ({ event }) => ({ message: 'Audio fetch failed', error: event.error }) },
                assign(({ context }) => narrationAnswered(context, { status: 'failed' })),
              ],
            },
          },
        },
      },
    },
  },
});
