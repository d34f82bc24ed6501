/**
 * The listen flow (SPEC §4 Audio control state: listen flow). Its child `listenAudio` is the listen player and owns
 * the timers; this machine follows it (syncSnapshot) and owns the rest, through actors and effects the engine provides:
 * - each passage's narration is fetched once (`loadNarration`, slot `narration.current` for the passage shown and
 *   `narration.next` for the prefetch); a failure is logged only, and paging back to that passage asks again;
 * - while the narration is locked (`listen.locked`, or the server's gate) nothing is fetched or played;
 * - the current narration is loaded into the audio port while the player is open, and `playback` plays it exactly
 *   while the player is `playing` (`voiced.sounding`); its reports move the clock and end the passage;
 * - a passage finished with auto-play on prefetches the next; on advance the flow moves on and pushes its address.
 */
import { and, assign, enqueueActions, forwardTo, not, sendParent, sendTo, setup, spawnChild, stopChild } from 'xstate';
import { listenAudioMachine } from '../listenAudio';
import { loadNarrationPlaceholder, playbackPlaceholder, type Narration } from '../shared/audio';
import type { StateMetaWithTimers } from '../shared/timers';
import { NARRATION_SLOTS, forgetFailure, initialListenContext, isGateFailure, isLastPassage, isOtherPassage } from './listenFlow.rules';
import { loadedCurrent, loadingBy, narrationInput, readyAt, unloadedCurrent, withAnswer, withLoad } from './listenFlow.rules';
import type { ListenFlowContext, ListenFlowEvent, ListenFlowInput, ListenPlayerView, NarrationSlot } from './listenFlow.types';

type EventOf<T extends ListenFlowEvent['type']> = Extract<ListenFlowEvent, { type: T }>;
type Answer = EventOf<`xstate.done.actor.${NarrationSlot}`>;
type Failure = EventOf<`xstate.error.actor.${NarrationSlot}`>;

const { current, next } = NARRATION_SLOTS;
/** Load the current passage's narration, or prefetch the next one's. */
const requestCurrent = { type: 'requestNarration', params: ({ context }: { context: ListenFlowContext }) => ({ slot: current, position: context.position }) } as const;
const requestNext = { type: 'requestNarration', params: ({ context }: { context: ListenFlowContext }) => ({ slot: next, position: context.position + 1 }) } as const;
const follow = { type: 'followPlayer', params: ({ event }: { event: EventOf<'xstate.snapshot.listenAudio'> }) => playerOf(event) } as const;
const playerOf = ({ snapshot }: EventOf<'xstate.snapshot.listenAudio'>): ListenPlayerView => ({ state: snapshot.value, autoPlay: snapshot.context.autoPlay });
const storeAnswer = { type: 'storeNarration', params: ({ event }: { event: Answer }) => ({ slot: event.actorId, output: event.output }) } as const;
const storeFailure = { type: 'storeNarration', params: ({ event }: { event: Failure }) => ({ slot: event.actorId, output: null }) } as const;
const logFailure = { type: 'logError', params: ({ event }: { event: Failure }) => ({ message: 'Audio fetch failed', error: event.error }) } as const;
const awaited = (slot: NarrationSlot) => ({ type: 'isAwaited', params: { slot } }) as const;
const lockOf = ({ event }: { event: EventOf<'listen.locked'> }) => ({ locked: event.locked });
const storeLocked = { type: 'storeLocked', params: lockOf } as const;
const page = ({ event }: { event: EventOf<'listen.page'> }) => ({ position: event.position });
const seekTo = ({ event }: { event: EventOf<'listen.seek'> }) => ({ seconds: Math.max(0, event.seconds) });
const tick = ({ event }: { event: EventOf<'playback.time'> }) => ({ time: event.time, duration: event.duration });
const storeTime = { type: 'storeTime', params: tick } as const;

/** A gate: logged, nothing more is asked for, the player says locked. Any other failure is logged only (SPEC §8). */
const failed = (slot: NarrationSlot, isGate: 'isCurrentGate' | 'isNextGate') => [
  { guard: isGate, target: '.locking', actions: [logFailure, 'storeRefusal'] },
  { guard: awaited(slot), actions: [logFailure, storeFailure] },
] as const;

/** The listen player, reporting its requests to this machine. */
const listenPlayer = listenAudioMachine.provide({
  actions: {
    restartAudio: sendParent({ type: 'listen.restart' }),
    prefetchNextAudio: sendParent({ type: 'listen.prefetchNext' }),
    advanceToNextPassage: sendParent({ type: 'listen.advance' }),
    reportAutoPlay: sendParent((_, params: { autoPlay: boolean }) => ({ type: 'listen.autoPlayChanged', autoPlay: params.autoPlay })),
  },
});

export const listenFlowMachine = setup({
  types: {} as { context: ListenFlowContext; events: ListenFlowEvent; input: ListenFlowInput; meta: StateMetaWithTimers },
  actors: {
    listenAudio: listenPlayer,
    /** Provided by the engine: asks for a passage's narration until it is ready (src/engine/audioActors.ts). */
    loadNarration: loadNarrationPlaceholder,
    /** Provided by the engine: plays the listen audio port while it runs, reporting playback.time/ended/refused. */
    playback: playbackPlaceholder,
  },
  actions: {
    /** Provided by the engine: load the listen audio port with this url (null unloads). */
    loadAudio: (_, _params: { url: string | null }) => {},
    /** Provided by the engine: seek the listen audio port. */
    seekAudio: (_, _params: { seconds: number }) => {},
    /** Provided by the engine: push this address through the navigation port. */
    pushAddress: (_, _params: { path: string }) => {},
    /** Provided by the engine: log an error (SPEC §8: audio fetch errors are logged only). */
    logError: (_, _params: { message: string; error: unknown }) => {},
    /** Provided by the reader system, which owns the stored settings: save `autoPlay` and track 'Changed Audio Settings'. */
    saveAutoPlay: (_, _params: { autoPlay: boolean }) => {},
    startPlayer: spawnChild('listenAudio', { id: 'listenAudio', syncSnapshot: true, input: ({ context }) => ({ autoPlay: context.player.autoPlay, isLastPage: isLastPassage(context) }) }),
    forwardToPlayer: forwardTo('listenAudio'),
    tellPlayerPage: sendTo('listenAudio', ({ context }) => ({ type: 'listen.page.changed' as const, isLastPage: isLastPassage(context) })),
    tellPlayerEnded: sendTo('listenAudio', { type: 'listen.ended' }),
    tellPlayerNextReady: sendTo('listenAudio', { type: 'listen.nextReady' }),
    /** A player that plays while it must not is toggled back to Paused. */
    pausePlayer: sendTo('listenAudio', { type: 'listen.toggle' }),
    followPlayer: assign((_, player: ListenPlayerView) => ({ player })),
    /** A slot starts loading a position's narration; the load it was still running for another position is stopped. */
    requestNarration: enqueueActions(({ context, enqueue }, { slot, position }: { slot: NarrationSlot; position: number }) => {
      enqueue.stopChild(slot);
      enqueue.spawnChild('loadNarration', { id: slot, input: narrationInput(context, position) });
      enqueue.assign({ narrations: withLoad(context, slot, position) });
    }),
    /** A slot's load answered: the narration (ready), or null (failed). */
    storeNarration: assign(({ context }, { slot, output }: { slot: NarrationSlot; output: Narration | null }) => ({ narrations: withAnswer(context, slot, output) })),
    /** The server gates this flow's narration: stop asking, forget what is known. */
    storeRefusal: enqueueActions(({ enqueue }) => {
      enqueue.stopChild(current);
      enqueue.stopChild(next);
      enqueue.assign({ refused: true, narrations: {} });
    }),
    /** The current passage's narration is now in the audio port, from 0. */
    storeLoaded: assign(({ context }) => loadedCurrent(context)),
    startPlayback: spawnChild('playback', { id: 'playback' }),
    stopPlayback: stopChild('playback'),
    /** The view paged: that passage, whose narration is asked for again if it failed earlier. */
    storePage: assign(({ context }, { position }: { position: number }) => ({ position, narrations: forgetFailure(context, position) })),
    storeNextPosition: assign({ position: ({ context }) => context.position + 1 }),
    storeTime: assign((_, { time }: { time: number }) => ({ currentTime: time })),
    storeLength: assign((_, { duration }: { duration: number }) => ({ duration })),
    storeSeek: assign((_, { seconds }: { seconds: number }) => ({ currentTime: seconds })),
    storeRestart: assign({ currentTime: 0 }),
    storeLocked: assign((_, { locked }: { locked: boolean }) => ({ locked })),
  },
  guards: {
    hasNoNarration: ({ context }) => !context.audioEnabled,
    isLockedByRule: ({ context }) => context.locked,
    isRefused: ({ context }) => context.refused,
    locks: (_, { locked }: { locked: boolean }) => locked,
    isOtherPage: ({ context }, { position }: { position: number }) => isOtherPassage(context, position),
    hasNextPassage: ({ context }) => !isLastPassage(context),
    hasAddress: ({ context }) => context.basePath !== null,
    /** There is a next passage, and an address to push for it. */
    hasNextAddress: and(['hasNextPassage', 'hasAddress']),
    hasLoadedAudio: ({ context }) => context.loadedUrl !== null,
    isPlayerPlaying: ({ context }) => context.player.state === 'playing',
    isPlayerOpen: ({ context }) => context.player.state !== 'closed',
    isPlayerFinished: ({ context }) => context.player.state === 'finished',
    isPlayerLoadingNext: ({ context }) => context.player.state === 'loadingNext',
    isAutoPlayOn: ({ context }) => context.player.autoPlay,
    reportsPlaying: (_, player: ListenPlayerView) => player.state === 'playing',
    /** An answer of a load the flow waits for (a load it stopped, or an earlier flow's, is dropped). */
    isAwaited: ({ context }, { slot }: { slot: NarrationSlot }) => loadingBy(context, slot) !== null,
    isForNextPassage: ({ context }, { slot }: { slot: NarrationSlot }) => loadingBy(context, slot) === context.position + 1,
    /** The server refuses the narration (a gate). */
    isGate: ({ event }) => isGateFailure((event as Failure).error),
    isCurrentGate: and([{ type: 'isAwaited', params: { slot: current } }, 'isGate']),
    isNextGate: and([{ type: 'isAwaited', params: { slot: next } }, 'isGate']),
    isAwaitedNext: and([{ type: 'isForNextPassage', params: { slot: next } }, 'isPlayerLoadingNext']),
    isCurrentUnasked: ({ context }) => context.narrations[context.position] === undefined,
    isNextUnasked: ({ context }) => context.narrations[context.position + 1] === undefined,
    isNextLoading: ({ context }) => context.narrations[context.position + 1]?.status === 'loading',
    isNextReady: ({ context }) => readyAt(context, context.position + 1) !== null,
    /** The current narration is ready but not in the audio port. */
    isCurrentUnloaded: ({ context }) => unloadedCurrent(context) !== null,
    isCurrentLoaded: ({ context }) => readyAt(context, context.position)?.url === context.loadedUrl,
    mustLoadCurrent: and(['isCurrentUnloaded', 'isPlayerOpen']),
    /** A passage finished with auto-play on and a next passage: fetch the next one's narration. */
    mustPrefetchNext: and(['isPlayerFinished', 'isAutoPlayOn', 'hasNextPassage', 'isNextUnasked']),
    /** Loading Next asks for the next narration: fetch it unless it is on its way (or there is none). */
    mustRequestNext: and(['hasNextPassage', not('isNextLoading')]),
    /** The player plays and the current narration is in the audio port. */
    shouldPlay: and(['isPlayerPlaying', 'isCurrentLoaded']),
    /** The player stopped playing, or the passage changed: the playback stops (and starts again once loaded). */
    shouldStopPlaying: not('shouldPlay'),
    /** Only a new second changes what the view shows. */
    isNewSecond: ({ context }, { time }: { time: number }) => Math.floor(time) !== Math.floor(context.currentTime),
    /** The audio reports a length of its own that differs from the one shown. */
    isNewLength: ({ context }, { duration }: { duration: number }) => duration > 0 && duration !== context.duration,
  },
}).createMachine({
  id: 'listenFlow',
  initial: 'init',
  context: ({ input }) => initialListenContext(input),
  entry: 'startPlayer',
  on: {
    'listen.toggle': { actions: 'forwardToPlayer' },
    'listen.close': { actions: 'forwardToPlayer' },
    'listen.open': { actions: 'forwardToPlayer' },
    'listen.autoPlay.set': { actions: 'forwardToPlayer' },
    'xstate.snapshot.listenAudio': { actions: follow },
    'listen.page': { guard: { type: 'isOtherPage', params: page }, actions: [{ type: 'storePage', params: page }, 'tellPlayerPage'], description: "The view paged: that passage's audio." },
    'listen.advance': [
      {
        guard: 'hasNextAddress',
        actions: ['storeNextPosition', 'tellPlayerPage', { type: 'pushAddress', params: ({ context }) => ({ path: `${context.basePath}/${context.position}` }) }],
        description: 'Auto-play moves on: the next passage, and its address for the view to follow.',
      },
      { guard: 'hasNextPassage', actions: ['storeNextPosition', 'tellPlayerPage'], description: 'Moves on without an address to push.' },
    ],
    'listen.autoPlayChanged': { actions: { type: 'saveAutoPlay', params: ({ event }) => ({ autoPlay: event.autoPlay }) }, description: 'Saved and tracked.' },
    'listen.restart': { actions: [{ type: 'seekAudio', params: { seconds: 0 } }, 'storeRestart'], description: 'Play from Finished restarts at 0.' },
    'listen.seek': { guard: 'hasLoadedAudio', actions: [{ type: 'seekAudio', params: seekTo }, { type: 'storeSeek', params: seekTo }] },
    'listen.locked': { actions: storeLocked },
    'xstate.done.actor.narration.current': { guard: awaited(current), actions: storeAnswer },
    'xstate.done.actor.narration.next': [
      { guard: 'isAwaitedNext', actions: [storeAnswer, 'tellPlayerNextReady'], description: 'Loading Next waits for it.' },
      { guard: awaited(next), actions: storeAnswer },
    ],
    'xstate.error.actor.narration.current': failed(current, 'isCurrentGate'),
    'xstate.error.actor.narration.next': failed(next, 'isNextGate'),
    'playback.time': [
      { guard: { type: 'isNewLength', params: tick }, actions: [storeTime, { type: 'storeLength', params: tick }], description: 'The audio knows its own length.' },
      { guard: { type: 'isNewSecond', params: tick }, actions: storeTime },
    ],
    'playback.ended': { actions: 'tellPlayerEnded' },
    'playback.refused': { guard: 'isPlayerPlaying', actions: 'pausePlayer', description: 'The browser refused to play without a gesture: show Paused.' },
  },
  states: {
    init: {
      meta: { description: 'Chooses the start state from the input: no narration, locked, or voiced.' },
      always: [{ guard: 'hasNoNarration', target: 'silent' }, { guard: 'isLockedByRule', target: 'locking' }, { target: 'voiced' }],
    },
    silent: { meta: { description: "The edition has no narration: nothing is fetched or played (the player says 'none')." } },
    locking: {
      meta: { description: 'Passes on to locked at once, pausing a player that plays.' },
      always: [{ guard: 'isPlayerPlaying', target: 'locked', actions: 'pausePlayer' }, { target: 'locked' }],
    },
    locked: {
      meta: { description: "The narration is locked for this reader (client rule or server gate): nothing is fetched or played, the player says 'locked'." },
      on: {
        'listen.locked': [
          { guard: { type: 'locks', params: lockOf }, actions: storeLocked, description: 'Still locked by the client rule.' },
          { guard: 'isRefused', actions: storeLocked, description: 'The server refused this narration: it stays locked.' },
          { target: 'voiced', actions: storeLocked, description: 'The client rule lifts the lock.' },
        ],
        'xstate.snapshot.listenAudio': [
          { guard: 'isPlayerPlaying', actions: follow, description: 'Already told to pause.' },
          { guard: { type: 'reportsPlaying', params: follow.params }, actions: [follow, 'pausePlayer'], description: 'Asked to play while locked: back to Paused.' },
          { actions: follow },
        ],
      },
    },
    voiced: {
      initial: 'quiet',
      meta: { description: 'The narration is fetched per passage and loaded into the audio port while the player is open.' },
      always: [
        { guard: 'isCurrentUnasked', actions: requestCurrent },
        { guard: 'mustLoadCurrent', actions: [{ type: 'loadAudio', params: ({ context }) => ({ url: loadedCurrent(context).loadedUrl }) }, 'storeLoaded'] },
        { guard: 'mustPrefetchNext', actions: requestNext, description: 'A passage finished with auto-play on: prefetch the next one.' },
      ],
      on: {
        'listen.locked': [{ guard: { type: 'locks', params: lockOf }, target: 'locking', actions: storeLocked }, { actions: storeLocked }],
        'listen.prefetchNext': [
          { guard: 'isNextReady', actions: 'tellPlayerNextReady', description: 'Already prefetched: advance now.' },
          { guard: 'mustRequestNext', actions: requestNext, description: 'Not asked for yet, or failed: ask (again).' },
        ],
      },
      states: {
        quiet: {
          meta: { description: 'Nothing plays: the player is not playing, or the current narration is not loaded yet.' },
          always: { guard: 'shouldPlay', target: 'sounding' },
        },
        sounding: {
          entry: 'startPlayback',
          exit: 'stopPlayback',
          meta: { description: 'The playback actor plays the current narration and reports its time and end.' },
          always: { guard: 'shouldStopPlaying', target: 'quiet' },
        },
      },
    },
  },
});
