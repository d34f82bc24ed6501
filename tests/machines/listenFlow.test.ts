/**
 * The listen flow machine: (1) a walk of every transition, replayed on a live actor whose I/O actors, effects and
 * child player are test doubles (the player's reports and the loads' answers are the walk's events), compared
 * with the model after each step; (2) the composed behaviour, with the real listen player as its child, fake
 * loads and playback, on a SimulatedClock.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, initialTransition, SimulatedClock, spawnChild, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { PortFailure } from '../../src/domain/failures';
import { LISTEN_AUTO_ADVANCE_DELAY_MS, LISTEN_NEXT_AUDIO_TIMEOUT_MS, connectListenAudio, listenAudioMachine, type ListenAudioState } from '../../src/machines/listenAudio';
import { listenFlowMachine, listenPlayerOf, type ListenFlowInput } from '../../src/machines/listenFlow';
import type { Narration, NarrationInput, PlaybackReport } from '../../src/machines/shared/audio';
import { allTransitions, planTransitionWalk } from './harness';
import { MODELS, listenFlowBase } from './models';

/** The effects the engine provides; the doubles record each call with its params. */
const EFFECTS = ['loadAudio', 'seekAudio', 'pushAddress', 'logError', 'saveAutoPlay'] as const;
type Call = [string, unknown];

function recordEffects(calls: Call[]) {
  return {
    loadAudio: (_: unknown, params: { url: string | null }) => void calls.push(['loadAudio', params]),
    seekAudio: (_: unknown, params: { seconds: number }) => void calls.push(['seekAudio', params]),
    pushAddress: (_: unknown, params: { path: string }) => void calls.push(['pushAddress', params]),
    logError: (_: unknown, params: { message: string; error: unknown }) => void calls.push(['logError', params]),
    saveAutoPlay: (_: unknown, params: { autoPlay: boolean }) => void calls.push(['saveAutoPlay', params]),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// (1) Every transition.

const model = MODELS.listenFlow;
const plans = model.inputs.map((input) => ({
  input,
  plan: planTransitionWalk(model.machine, { events: model.events, input, serializeState: model.serializeState, maxStates: model.maxStates }),
}));

/**
 * The walk's system under test. The player is the real listen player without its reports (no syncSnapshot, its
 * requests to the flow silenced), so the flow hears of it only through the walk's report events, as the model
 * does; loads never settle and playback does nothing, so their outcomes are the walk's events too.
 */
function walkActor(input: ListenFlowInput) {
  const calls: Call[] = [];
  const quietPlayer = listenAudioMachine.provide({ actions: { restartAudio: () => {}, prefetchNextAudio: () => {}, advanceToNextPassage: () => {} } });
  const machine = listenFlowMachine.provide({
    actors: {
      listenAudio: quietPlayer,
      loadNarration: fromPromise<Narration, NarrationInput>(() => new Promise(() => {})),
      playback: fromCallback<{ type: 'playback.noop' }, void>(() => () => {}),
    },
    actions: {
      ...recordEffects(calls),
      startPlayer: spawnChild('listenAudio', { id: 'listenAudio', input: ({ context }) => ({ autoPlay: context.player.autoPlay, isLastPage: context.position >= context.passageCount }) }),
    },
  });
  const actor = createActor(machine, { input, clock: new SimulatedClock() }).start();
  return { actor, calls };
}

/** The `init` branch each input starts through (the harness credits evented transitions only). */
function startBranch(input: ListenFlowInput): string[] {
  const [start] = initialTransition(listenFlowMachine, input);
  const top = typeof start.value === 'string' ? start.value : Object.keys(start.value)[0];
  return allTransitions(listenFlowMachine)
    .filter((t) => t.event === '(always)' && t.source === 'listenFlow.init' && t.targets.includes(`listenFlow.${top}`))
    .map((t) => t.key);
}

for (const { input, plan } of plans) {
  describe(`listenFlow machine: every transition (${input.audioEnabled === false ? 'no narration' : input.audioLocked ? 'locked' : 'voiced'})`, () => {
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, calls } = walkActor(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(actor.getSnapshot().context).toEqual(expected.context);
            expect(calls.map(([name]) => name)).toEqual(actions.filter((a) => (EFFECTS as readonly string[]).includes(a)));
            calls.length = 0;
          },
          { send: (e) => actor.send(e), stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('listenFlow machine: coverage', () => {
  it('covers 100% of transitions', () => {
    const covered = new Set<string>();
    for (const { input, plan } of plans) {
      plan.covered.forEach((k) => covered.add(k));
      startBranch(input).forEach((k) => covered.add(k));
    }
    const total = allTransitions(listenFlowMachine);
    const uncovered = total.filter((t) => !covered.has(t.key));
    console.log(`${listenFlowMachine.id}: ${total.length - uncovered.length}/${total.length} transitions covered (${Math.round(((total.length - uncovered.length) / total.length) * 100)}%)`);
    expect(uncovered).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// (2) The composed behaviour: the real listen player, fake loads and playback, a simulated clock.

interface PendingLoad {
  input: NarrationInput;
  resolve: (narration: Narration) => void;
  reject: (error: unknown) => void;
  aborted: () => boolean;
}

function flow(input: Partial<ListenFlowInput> = {}) {
  const clock = new SimulatedClock();
  const calls: Call[] = [];
  const loads: PendingLoad[] = [];
  /** The running playback's report channel, or null while nothing plays. */
  let playback: ((report: PlaybackReport) => void) | null = null;
  let playbacks = 0;
  let refuseNextPlay = false;
  const machine = listenFlowMachine.provide({
    actors: {
      loadNarration: fromPromise<Narration, NarrationInput>(
        ({ input: load, signal }) => new Promise((resolve, reject) => loads.push({ input: load, resolve, reject, aborted: () => signal.aborted })),
      ),
      playback: fromCallback<{ type: 'playback.noop' }, void>(({ sendBack }) => {
        playbacks++;
        playback = (report) => sendBack(report);
        if (refuseNextPlay) {
          refuseNextPlay = false;
          sendBack({ type: 'playback.refused' });
        }
        return () => {
          playback = null;
        };
      }),
    },
    actions: recordEffects(calls),
  });
  const actor = createActor(machine, { input: { ...listenFlowBase, passageCount: 8, ...input }, clock }).start();
  const player = () => actor.getSnapshot().children.listenAudio as AnyActorRef | undefined;
  const label = () => connectListenAudio(player()!.getSnapshot(), () => {}).label;
  const state = () => player()!.getSnapshot().value as ListenAudioState;
  /** Let settled loads report. */
  const flush = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  const answer = async (position: number) => {
    const load = loads.find((l) => l.input.position === position && !l.aborted());
    load!.resolve({ url: `/audio/p${position}.mp3`, speechMarks: [], duration: 20 });
    await flush();
  };
  const fail = async (position: number, error: unknown) => {
    loads.find((l) => l.input.position === position && !l.aborted())!.reject(error);
    await flush();
  };
  return {
    actor,
    clock,
    calls,
    loads,
    label,
    state,
    isLastPage: () => (player()!.getSnapshot() as SnapshotFrom<typeof listenAudioMachine>).context.isLastPage,
    answer,
    fail,
    flush,
    asked: () => loads.map((l) => l.input.position),
    view: () => listenPlayerOf(actor.getSnapshot()),
    effects: (name: string) => calls.filter(([n]) => n === name).map(([, p]) => p),
    playing: () => playback !== null,
    playbacks: () => playbacks,
    report: (r: PlaybackReport) => playback!(r),
    refuseNextPlay: () => void (refuseNextPlay = true),
  };
}

describe('listenFlow machine: behaviour with the listen player', () => {
  it('the Auto-play switch is saved and tracked through the system (saveAutoPlay), once per change', async () => {
    const t = flow({ autoPlay: false });
    t.actor.send({ type: 'listen.autoPlay.set', value: true });
    t.actor.send({ type: 'listen.autoPlay.set', value: true });
    await t.flush();
    expect((t.actor.getSnapshot().children.listenAudio!.getSnapshot() as SnapshotFrom<typeof listenAudioMachine>).context.autoPlay).toBe(true);
    t.actor.send({ type: 'listen.autoPlay.set', value: false });
    await t.flush();
    expect(t.effects('saveAutoPlay')).toEqual([{ autoPlay: true }, { autoPlay: false }]);
  });

  it('a locked flow never fetches, and a player asked to play goes back to Paused; lifting the lock fetches', async () => {
    const t = flow({ autoPlay: true, audioLocked: true });
    await t.flush();
    expect(t.actor.getSnapshot().value).toBe('locked');
    expect(t.label()).toBe('Paused');
    expect(t.view()).toMatchObject({ audio: 'locked', currentTime: 0, duration: 0 });
    t.actor.send({ type: 'listen.toggle' });
    expect(t.label()).toBe('Paused');
    t.actor.send({ type: 'listen.page', position: 2 });
    t.actor.send({ type: 'listen.prefetchNext' });
    expect(t.asked()).toEqual([]);
    expect(t.playbacks()).toBe(0);

    t.actor.send({ type: 'listen.locked', locked: false });
    expect(t.asked()).toEqual([2]);
    expect(t.view()).toMatchObject({ position: 2, audio: 'loading' });
  });

  it('plays once the narration is ready; the clock moves by whole seconds', async () => {
    const t = flow({ autoPlay: true });
    expect(t.label()).toBe('Now Playing');
    expect(t.view()).toMatchObject({ position: 1, audio: 'loading', currentTime: 0 });
    expect(t.playing()).toBe(false);
    await t.answer(1);
    expect(t.effects('loadAudio')).toEqual([{ url: '/audio/p1.mp3' }]);
    expect(t.playing()).toBe(true);
    expect(t.actor.getSnapshot().value).toEqual({ voiced: 'sounding' });
    expect(t.view()).toMatchObject({ audio: 'ready', duration: 20, currentTime: 0 });
    t.report({ type: 'playback.time', time: 4.2, duration: 20.5 });
    const seen = t.actor.getSnapshot();
    t.report({ type: 'playback.time', time: 4.9, duration: 20.5 });
    expect(t.actor.getSnapshot().context).toBe(seen.context);
    expect(t.view()).toMatchObject({ currentTime: 4.2, duration: 20.5 });
    // Pause stops the playback; seek moves the audio and the clock.
    t.actor.send({ type: 'listen.toggle' });
    expect(t.playing()).toBe(false);
    t.actor.send({ type: 'listen.seek', seconds: 15 });
    expect(t.effects('seekAudio')).toEqual([{ seconds: 15 }]);
    expect(t.view().currentTime).toBe(15);
  });

  it('auto-advance: a finished passage prefetches the next, then advances, pushes the address and keeps playing', async () => {
    const t = flow({ autoPlay: true, position: 7 });
    await t.answer(7);
    t.report({ type: 'playback.ended' });
    expect(t.label()).toBe('Finished');
    expect(t.playing()).toBe(false);
    // The next passage's narration is prefetched as soon as this one finishes.
    expect(t.asked()).toEqual([7, 8]);
    await t.answer(8);
    t.clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS - 1);
    expect(t.label()).toBe('Finished');
    expect(t.effects('pushAddress')).toEqual([]);
    t.clock.increment(1);
    // Already prefetched: Loading Next advances at once.
    expect(t.label()).toBe('Now Playing');
    expect(t.effects('pushAddress')).toEqual([{ path: '/listen/fox/v1/en-GOLD/8' }]);
    expect(t.view()).toMatchObject({ position: 8, audio: 'ready' });
    expect(t.effects('loadAudio').at(-1)).toEqual({ url: '/audio/p8.mp3' });
    expect(t.playing()).toBe(true);
    expect(t.isLastPage()).toBe(true);
    // The view follows the address: nothing changes.
    t.actor.send({ type: 'listen.page', position: 8 });
    expect(t.effects('loadAudio')).toHaveLength(2);

    // The last page finishes and stays finished.
    t.report({ type: 'playback.ended' });
    t.clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS + LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(t.label()).toBe('Finished');
    expect(t.effects('pushAddress')).toHaveLength(1);
    expect(t.asked()).toEqual([7, 8]);
  });

  it('Loading Next waits for a slow prefetch, and advances when it is ready', async () => {
    const t = flow({ autoPlay: true, position: 4 });
    await t.answer(4);
    t.report({ type: 'playback.ended' });
    t.clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS);
    expect(t.label()).toBe('Loading Next');
    await t.answer(5);
    expect(t.label()).toBe('Now Playing');
    expect(t.effects('pushAddress')).toEqual([{ path: '/listen/fox/v1/en-GOLD/5' }]);
    expect(t.playing()).toBe(true);
  });

  it('a timeout advances without the next narration; it plays when it arrives', async () => {
    const t = flow({ autoPlay: true, position: 4 });
    await t.answer(4);
    t.report({ type: 'playback.ended' });
    t.clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS);
    t.clock.increment(LISTEN_NEXT_AUDIO_TIMEOUT_MS - 1);
    expect(t.label()).toBe('Loading Next');
    t.clock.increment(1);
    expect(t.label()).toBe('Now Playing');
    expect(t.view()).toMatchObject({ position: 5, audio: 'loading' });
    expect(t.playing()).toBe(false);
    await t.answer(5);
    expect(t.playing()).toBe(true);
    expect(t.effects('loadAudio').at(-1)).toEqual({ url: '/audio/p5.mp3' });
  });

  it('play from Finished restarts at 0', async () => {
    const t = flow({ autoPlay: false, position: 2 });
    await t.answer(2);
    t.actor.send({ type: 'listen.toggle' });
    t.report({ type: 'playback.time', time: 19.5, duration: 20 });
    t.report({ type: 'playback.ended' });
    expect(t.label()).toBe('Finished');
    t.actor.send({ type: 'listen.toggle' });
    expect(t.effects('seekAudio')).toEqual([{ seconds: 0 }]);
    expect(t.view().currentTime).toBe(0);
    expect(t.playing()).toBe(true);
  });

  it('paging cancels: a page chosen while Finished cancels the advance, and a load for the page left is stopped', async () => {
    const t = flow({ autoPlay: true, position: 2 });
    await t.answer(2);
    t.report({ type: 'playback.ended' });
    expect(t.label()).toBe('Finished');
    t.actor.send({ type: 'listen.page', position: 1 });
    expect(t.label()).toBe('Now Playing');
    t.clock.increment(LISTEN_AUTO_ADVANCE_DELAY_MS);
    t.clock.increment(LISTEN_NEXT_AUDIO_TIMEOUT_MS);
    expect(t.effects('pushAddress')).toEqual([]);
    expect(t.view().position).toBe(1);

    // Passage 3 was prefetched when 2 finished. Paging on to a passage not asked for yet (4), while passage 1's
    // narration loads, stops that load; coming back asks again.
    const first = t.loads.find((l) => l.input.position === 1)!;
    t.actor.send({ type: 'listen.page', position: 4 });
    expect(first.aborted()).toBe(true);
    expect(t.view()).toMatchObject({ position: 4, audio: 'loading' });
    t.actor.send({ type: 'listen.page', position: 1 });
    expect(t.asked()).toEqual([2, 3, 1, 4, 1]);
    await t.answer(1);
    expect(t.view()).toMatchObject({ position: 1, audio: 'ready' });
    // The prefetch of 3 still runs; its answer is kept for when the reader pages there.
    await t.answer(3);
    t.actor.send({ type: 'listen.page', position: 3 });
    expect(t.view()).toMatchObject({ position: 3, audio: 'ready' });
    expect(t.asked()).toEqual([2, 3, 1, 4, 1]);
  });

  it('a gate failure locks the flow: logged, nothing more fetched or played, the player says locked', async () => {
    const t = flow({ autoPlay: true });
    const gate = new PortFailure('group_code_required', 403, 'Class code required');
    await t.fail(1, gate);
    expect(t.actor.getSnapshot().value).toBe('locked');
    expect(t.effects('logError')).toEqual([{ message: 'Audio fetch failed', error: gate }]);
    expect(t.label()).toBe('Paused');
    expect(t.view().audio).toBe('locked');
    // A lifted client lock does not lift the server's refusal.
    t.actor.send({ type: 'listen.locked', locked: false });
    t.actor.send({ type: 'listen.page', position: 2 });
    t.actor.send({ type: 'listen.toggle' });
    expect(t.label()).toBe('Paused');
    expect(t.asked()).toEqual([1]);
  });

  it('a failed narration is logged only, and asked for again when paging back', async () => {
    const t = flow({ autoPlay: true, position: 3 });
    const down = new PortFailure('network', 0, 'Network down');
    await t.fail(3, down);
    expect(t.effects('logError')).toEqual([{ message: 'Audio fetch failed', error: down }]);
    expect(t.view()).toMatchObject({ audio: 'failed' });
    expect(t.label()).toBe('Now Playing');
    t.actor.send({ type: 'listen.page', position: 4 });
    await t.answer(4);
    expect(t.view()).toMatchObject({ position: 4, audio: 'ready' });
    t.actor.send({ type: 'listen.page', position: 3 });
    expect(t.asked()).toEqual([3, 4, 3]);
    expect(t.view()).toMatchObject({ position: 3, audio: 'loading' });
  });

  it('a refused start (no gesture yet) shows Paused, so play can start it', async () => {
    const t = flow({ autoPlay: true });
    t.refuseNextPlay();
    await t.answer(1);
    expect(t.label()).toBe('Paused');
    expect(t.playing()).toBe(false);
    t.actor.send({ type: 'listen.toggle' });
    expect(t.label()).toBe('Now Playing');
    expect(t.playing()).toBe(true);
  });

  it('an edition without narration fetches nothing; closing stops the playback', async () => {
    const silent = flow({ autoPlay: true, audioEnabled: false });
    expect(silent.actor.getSnapshot().value).toBe('silent');
    expect(silent.view().audio).toBe('none');
    expect(silent.asked()).toEqual([]);

    const t = flow({ autoPlay: true });
    await t.answer(1);
    expect(t.playing()).toBe(true);
    t.actor.send({ type: 'listen.close' });
    expect(t.label()).toBe('Closed');
    expect(t.playing()).toBe(false);
    t.actor.stop();
    expect(t.loads.every((l) => l.aborted() || l.input.position === 1)).toBe(true);
  });
});
