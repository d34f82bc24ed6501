/**
 * The listen flow (SPEC §4 Audio control state: listen flow) as one pure machine. Its child `listenAudio` is the
 * listen player (paused, playing, finished, loadingNext, closed) and owns the timers; this machine follows it
 * (syncSnapshot) and does the rest through named actors and effects the engine provides:
 *
 * - each passage's narration is fetched once by a `loadNarration` actor, `narration.current` for the passage shown
 *   and `narration.next` for the prefetch (paging away stops a load for the page left); a failure is logged only,
 *   and paging back to that passage asks again;
 * - while the narration is locked (the client rule, sent as `listen.locked`, or the server's gate) nothing is
 *   fetched or played, and a player asked to play goes back to Paused;
 * - the current passage's narration is loaded into the audio port (`loadAudio`) while the player is open, and a
 *   `playback` actor plays it exactly while the player is `playing` (state `voiced.sounding`); its reports move
 *   the clock, end the passage, or (a refused start) show Paused;
 * - when a passage finishes with auto-play on, the next passage's narration is prefetched; on advance the flow
 *   moves on, tells the player whether that is the last page, and pushes the next address (`pushAddress`).
 */
import { assign, enqueueActions, forwardTo, initialTransition, not, sendParent, sendTo, setup, spawnChild, stopChild } from 'xstate';
import { failureOf } from '../../domain/failures';
import { listenAudioMachine, type ListenAudioInput, type ListenAudioState } from '../listenAudio';
import { loadNarrationPlaceholder, playbackPlaceholder, type NarrationInput } from '../shared/audio';
import type { StateMetaWithTimers } from '../shared/timers';
import type { ListenFlowContext, ListenFlowEvent, ListenFlowInput, ListenPlayerView, NarrationAnswer, NarrationSlot } from './listenFlow.types';

/** The narration load of the current passage, and the prefetch of the next one (their answers arrive as `xstate.done.actor.<slot>`). */
export const NARRATION_SLOTS = { current: 'narration.current', next: 'narration.next' } as const;

/** A failure that is a gate (403 license_required / group_code_required), not a fault. */
export function isGateFailure(error: unknown): boolean {
  const code = failureOf(error).code;
  return code === 'license_required' || code === 'group_code_required';
}

const isLast = (c: ListenFlowContext) => c.position >= c.passageCount;
const answerAt = (c: ListenFlowContext, position: number): NarrationAnswer | undefined => c.narrations[position];
const readyAt = (c: ListenFlowContext, position: number) => {
  const answer = answerAt(c, position);
  return answer?.status === 'ready' ? answer : null;
};
/** The current passage's narration is in the audio port. */
const isCurrentLoaded = (c: ListenFlowContext) => {
  const ready = readyAt(c, c.position);
  return ready !== null && c.loadedUrl === ready.url;
};
/**
 * A load of a position's narration on a slot: the actor's input, and the narrations with that position loading by
 * the slot. A load the slot was still running for another position is stopped and forgotten (asked again later).
 */
function narrationRequest(context: ListenFlowContext, slot: NarrationSlot, position: number) {
  const input: NarrationInput = { passageId: 0, editionId: context.editionId, position };
  const stale = loadingBy(context, slot);
  const narrations: Record<number, NarrationAnswer> = Object.fromEntries(Object.entries(context.narrations).filter(([p]) => Number(p) !== stale));
  narrations[position] = { status: 'loading', by: slot };
  return { input, narrations, stale: stale !== null };
}
/** The position a slot is loading, or null. */
function loadingBy(context: ListenFlowContext, slot: NarrationSlot): number | null {
  const found = Object.entries(context.narrations).find(([, answer]) => answer.status === 'loading' && answer.by === slot);
  return found ? Number(found[0]) : null;
}
/** The position a narration answer is for (the one its slot is loading), or null when nothing waits for it. */
const positionOfAnswer = (context: ListenFlowContext, event: ListenFlowEvent) => ('actorId' in event ? loadingBy(context, event.actorId) : null);

/** What is logged when a narration fetch fails. */
const fetchFailure = (error: unknown) => ({ message: 'Audio fetch failed', error });

/** The player's start state, as its own logic picks it from its input (before its first report arrives). */
function playerAtStart(input: ListenAudioInput): ListenPlayerView {
  const [snapshot] = initialTransition(listenAudioMachine, input);
  return { state: snapshot.value as ListenAudioState, autoPlay: snapshot.context.autoPlay };
}

function initialContext(input: ListenFlowInput): ListenFlowContext {
  const requested = Math.max(1, input.position ?? 1);
  // Without a passage count, isLastPage says whether there is a next passage.
  const passageCount = Math.max(1, input.passageCount ?? (input.isLastPage ? requested : requested + 1));
  const position = Math.min(requested, passageCount);
  return {
    position,
    passageCount,
    editionId: input.editionId ?? 0,
    audioEnabled: input.editionId !== undefined && (input.audioEnabled ?? true),
    basePath: input.basePath ?? null,
    language: input.language ?? null,
    locked: input.audioLocked,
    refused: false,
    narrations: {},
    loadedUrl: null,
    currentTime: 0,
    duration: 0,
    player: playerAtStart({ autoPlay: input.autoPlay, isLastPage: position >= passageCount }),
  };
}

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

    startPlayer: spawnChild('listenAudio', {
      id: 'listenAudio',
      syncSnapshot: true,
      input: ({ context }) => ({ autoPlay: context.player.autoPlay, isLastPage: isLast(context) }),
    }),
    forwardToPlayer: forwardTo('listenAudio'),
    tellPlayerPage: sendTo('listenAudio', ({ context }) => ({ type: 'listen.page.changed' as const, isLastPage: isLast(context) })),
    tellPlayerEnded: sendTo('listenAudio', { type: 'listen.ended' }),
    tellPlayerNextReady: sendTo('listenAudio', { type: 'listen.nextReady' }),
    /** A player that plays while it must not is toggled back to Paused. */
    pausePlayer: sendTo('listenAudio', { type: 'listen.toggle' }),
    pausePlayerIfPlaying: enqueueActions(({ context, enqueue }) => {
      if (context.player.state === 'playing') enqueue.sendTo('listenAudio', { type: 'listen.toggle' });
    }),
    followPlayer: assign({
      player: ({ context, event }) =>
        event.type === 'xstate.snapshot.listenAudio' ? { state: event.snapshot.value, autoPlay: event.snapshot.context.autoPlay } : context.player,
    }),

    /** Fetch the current passage's narration (the answer comes back as xstate.done/error.actor.narration.<position>). */
    requestCurrent: enqueueActions(({ context, enqueue }) => {
      const request = narrationRequest(context, NARRATION_SLOTS.current, context.position);
      if (request.stale) enqueue.stopChild(NARRATION_SLOTS.current);
      enqueue.spawnChild('loadNarration', { id: NARRATION_SLOTS.current, input: request.input });
      enqueue.assign({ narrations: request.narrations });
    }),
    /** Prefetch the next passage's narration. */
    requestNext: enqueueActions(({ context, enqueue }) => {
      const request = narrationRequest(context, NARRATION_SLOTS.next, context.position + 1);
      if (request.stale) enqueue.stopChild(NARRATION_SLOTS.next);
      enqueue.spawnChild('loadNarration', { id: NARRATION_SLOTS.next, input: request.input });
      enqueue.assign({ narrations: request.narrations });
    }),
    storeNarration: assign({
      narrations: ({ context, event }) =>
        'output' in event
          ? { ...context.narrations, [positionOfAnswer(context, event) ?? 0]: { status: 'ready', url: event.output.url, duration: event.output.duration } }
          : context.narrations,
    }),
    storeNarrationFailure: assign({
      narrations: ({ context, event }) => ({ ...context.narrations, [positionOfAnswer(context, event) ?? 0]: { status: 'failed' } }),
    }),
    /** The server gates this flow's narration: stop asking, forget what is known. */
    storeRefusal: enqueueActions(({ context, enqueue }) => {
      for (const slot of Object.values(NARRATION_SLOTS)) if (loadingBy(context, slot) !== null) enqueue.stopChild(slot);
      enqueue.assign({ refused: true, narrations: {} });
    }),
    /** The current passage's narration is now in the audio port, from 0. */
    storeLoaded: assign(({ context }) => {
      const ready = readyAt(context, context.position);
      return ready ? { loadedUrl: ready.url, currentTime: 0, duration: ready.duration } : {};
    }),
    startPlayback: spawnChild('playback', { id: 'playback' }),
    stopPlayback: stopChild('playback'),

    storePage: assign(({ context, event }) => {
      if (event.type !== 'listen.page') return {};
      // A passage whose narration failed earlier is asked for again.
      const { [event.position]: known, ...others } = context.narrations;
      return { position: event.position, narrations: known?.status === 'failed' ? others : context.narrations };
    }),
    storeNextPosition: assign({ position: ({ context }) => context.position + 1 }),
    storeTime: assign(({ context, event }) =>
      event.type === 'playback.time' ? { currentTime: event.time, duration: event.duration > 0 ? event.duration : context.duration } : {},
    ),
    storeSeek: assign({ currentTime: ({ context, event }) => (event.type === 'listen.seek' ? Math.max(0, event.seconds) : context.currentTime) }),
    storeRestart: assign({ currentTime: 0 }),
    storeLocked: assign({ locked: ({ context, event }) => (event.type === 'listen.locked' ? event.locked : context.locked) }),
  },
  guards: {
    hasNoNarration: ({ context }) => !context.audioEnabled,
    isLocked: ({ context }) => context.locked || context.refused,
    isLocking: ({ event }) => event.type === 'listen.locked' && event.locked,
    /** The client rule lifts the lock, and the server has not refused. */
    isUnlocking: ({ context, event }) => event.type === 'listen.locked' && !event.locked && !context.refused,
    /** Another passage of this edition. */
    isOtherPage: ({ context, event }) =>
      event.type === 'listen.page' && event.position !== context.position && event.position >= 1 && event.position <= context.passageCount,
    hasNextPassage: ({ context }) => !isLast(context),
    /** There is a next passage, and an address to push for it. */
    hasNextAddress: ({ context }) => !isLast(context) && context.basePath !== null,
    hasLoadedAudio: ({ context }) => context.loadedUrl !== null,
    /** The report says something new (the player reports after every event it takes). */
    isPlayerChanged: ({ context, event }) =>
      event.type === 'xstate.snapshot.listenAudio' &&
      (event.snapshot.value !== context.player.state || event.snapshot.context.autoPlay !== context.player.autoPlay),
    /** The player reports that it has started playing. */
    isPlayerStarting: ({ context, event }) =>
      event.type === 'xstate.snapshot.listenAudio' && event.snapshot.value === 'playing' && context.player.state !== 'playing',
    isPlayerPlaying: ({ context }) => context.player.state === 'playing',
    /** A narration answer the flow is waiting for (a load it stopped, or an earlier flow's, is dropped). */
    isAwaited: ({ context, event }) => positionOfAnswer(context, event) !== null,
    /** The awaited next passage's narration, while the player waits for it in Loading Next. */
    isAwaitedNext: ({ context, event }) => positionOfAnswer(context, event) === context.position + 1 && context.player.state === 'loadingNext',
    /** An awaited narration the server refuses (a gate). */
    isAwaitedGate: ({ context, event }) => positionOfAnswer(context, event) !== null && 'error' in event && isGateFailure(event.error),
    mustRequestCurrent: ({ context }) => answerAt(context, context.position) === undefined,
    /** The current narration is ready but not in the audio port, and the player is open. */
    mustLoadCurrent: ({ context }) => readyAt(context, context.position) !== null && !isCurrentLoaded(context) && context.player.state !== 'closed',
    /** A passage finished with auto-play on and a next passage: fetch the next one's narration. */
    mustPrefetchNext: ({ context }) =>
      context.player.state === 'finished' && context.player.autoPlay && !isLast(context) && answerAt(context, context.position + 1) === undefined,
    isNextReady: ({ context }) => readyAt(context, context.position + 1) !== null,
    /** Loading Next asks for the next narration: fetch it unless it is on its way (or there is none). */
    mustRequestNext: ({ context }) => !isLast(context) && answerAt(context, context.position + 1)?.status !== 'loading',
    /** The player plays and the current narration is in the audio port. */
    shouldPlay: ({ context }) => context.player.state === 'playing' && isCurrentLoaded(context),
    /** The player stopped playing, or the passage changed: the playback stops (and starts again once loaded). */
    shouldStopPlaying: not('shouldPlay'),
    /** Only a new second (or a new length) changes what the view shows. */
    isNewSecond: ({ context, event }) =>
      event.type === 'playback.time' &&
      (Math.floor(event.time) !== Math.floor(context.currentTime) || (event.duration > 0 && event.duration !== context.duration)),
  },
}).createMachine({
  id: 'listenFlow',
  initial: 'init',
  context: ({ input }) => initialContext(input),
  entry: 'startPlayer',
  on: {
    'listen.toggle': { actions: 'forwardToPlayer' },
    'listen.close': { actions: 'forwardToPlayer' },
    'listen.open': { actions: 'forwardToPlayer' },
    'listen.autoPlay.set': { actions: 'forwardToPlayer' },
    'xstate.snapshot.listenAudio': { guard: 'isPlayerChanged', actions: 'followPlayer' },
    'listen.page': { guard: 'isOtherPage', actions: ['storePage', 'tellPlayerPage'], description: "The view paged: that passage's audio, from 0." },
    'listen.advance': [
      {
        guard: 'hasNextAddress',
        actions: ['storeNextPosition', 'tellPlayerPage', { type: 'pushAddress', params: ({ context }) => ({ path: `${context.basePath}/${context.position}` }) }],
        description: 'Auto-play moves on: the next passage, and its address for the view to follow.',
      },
      { guard: 'hasNextPassage', actions: ['storeNextPosition', 'tellPlayerPage'], description: 'Moves on without an address to push.' },
    ],
    'listen.autoPlayChanged': {
      actions: { type: 'saveAutoPlay', params: ({ event }) => ({ autoPlay: event.autoPlay }) },
      description: 'The player says its Auto-play switch changed: the setting is saved and the change tracked.',
    },
    'listen.restart': { actions: [{ type: 'seekAudio', params: { seconds: 0 } }, 'storeRestart'], description: 'Play from Finished restarts at 0.' },
    'listen.seek': {
      guard: 'hasLoadedAudio',
      actions: [{ type: 'seekAudio', params: ({ event }) => ({ seconds: Math.max(0, event.seconds) }) }, 'storeSeek'],
    },
    'listen.locked': { actions: 'storeLocked' },
    'xstate.done.actor.narration.current': { guard: 'isAwaited', actions: 'storeNarration' },
    'xstate.done.actor.narration.next': [
      { guard: 'isAwaitedNext', actions: ['storeNarration', 'tellPlayerNextReady'], description: 'The prefetched narration Loading Next waits for.' },
      { guard: 'isAwaited', actions: 'storeNarration' },
    ],
    // A gate: logged, nothing more is asked for, the player says locked. Any other failure is logged only (SPEC §8).
    'xstate.error.actor.narration.current': [
      { guard: 'isAwaitedGate', target: '.locked', actions: [{ type: 'logError', params: ({ event }) => fetchFailure(event.error) }, 'storeRefusal'] },
      { guard: 'isAwaited', actions: [{ type: 'logError', params: ({ event }) => fetchFailure(event.error) }, 'storeNarrationFailure'] },
    ],
    'xstate.error.actor.narration.next': [
      { guard: 'isAwaitedGate', target: '.locked', actions: [{ type: 'logError', params: ({ event }) => fetchFailure(event.error) }, 'storeRefusal'] },
      { guard: 'isAwaited', actions: [{ type: 'logError', params: ({ event }) => fetchFailure(event.error) }, 'storeNarrationFailure'] },
    ],
    'playback.time': { guard: 'isNewSecond', actions: 'storeTime' },
    'playback.ended': { actions: 'tellPlayerEnded' },
    'playback.refused': { guard: 'isPlayerPlaying', actions: 'pausePlayer', description: 'The browser refused to play without a gesture: show Paused.' },
  },
  states: {
    init: {
      meta: { description: 'Chooses the start state from the input: no narration, locked, or voiced.' },
      always: [{ guard: 'hasNoNarration', target: 'silent' }, { guard: 'isLocked', target: 'locked' }, { target: 'voiced' }],
    },
    silent: {
      meta: { description: "The edition has no narration: nothing is fetched or played (the player says 'none')." },
    },
    locked: {
      entry: 'pausePlayerIfPlaying',
      meta: { description: "The narration is locked for this reader (client rule or server gate): nothing is fetched or played, the player says 'locked'." },
      on: {
        'listen.locked': [{ guard: 'isUnlocking', target: 'voiced', actions: 'storeLocked' }, { actions: 'storeLocked' }],
        'xstate.snapshot.listenAudio': [
          { guard: 'isPlayerStarting', actions: ['followPlayer', 'pausePlayer'], description: 'Asked to play while locked: back to Paused.' },
          { guard: 'isPlayerChanged', actions: 'followPlayer' },
        ],
        'listen.prefetchNext': { description: 'Nothing is fetched while locked; the player advances on its timeout.' },
      },
    },
    voiced: {
      initial: 'quiet',
      meta: { description: 'The narration is fetched per passage and loaded into the audio port while the player is open.' },
      always: [
        { guard: 'mustRequestCurrent', actions: 'requestCurrent' },
        { guard: 'mustLoadCurrent', actions: [{ type: 'loadAudio', params: ({ context }) => ({ url: readyAt(context, context.position)?.url ?? null }) }, 'storeLoaded'] },
        { guard: 'mustPrefetchNext', actions: 'requestNext', description: 'A passage finished with auto-play on: prefetch the next one.' },
      ],
      on: {
        'listen.locked': [{ guard: 'isLocking', target: 'locked', actions: 'storeLocked' }, { actions: 'storeLocked' }],
        'listen.prefetchNext': [
          { guard: 'isNextReady', actions: 'tellPlayerNextReady', description: 'Already prefetched: advance now.' },
          { guard: 'mustRequestNext', actions: 'requestNext', description: 'Not asked for yet, or failed: ask (again).' },
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
