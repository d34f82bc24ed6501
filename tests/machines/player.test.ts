import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { connectPlayer, playerState, type PlayerInput } from '../../src/machines/player';
import type { Narration, NarrationInput } from '../../src/machines/shared/audio';
import { coverageOver, planTransitionWalk } from './harness';
import { MODELS, playerTracks } from './models';

const { machine, events, inputs, serializeState, maxStates } = MODELS.player;

/** The effects the engine and the reader system provide; the system under test records each call instead. */
const IO_ACTIONS = ['loadReaderAudio', 'setReaderAudioRate', 'seekReaderAudio', 'showSpeedsInAddress', 'logError', 'save', 'track', 'tellNarration'] as const;

function startRecording(input: PlayerInput, actors: Record<string, unknown> = {}) {
  const calls: string[] = [];
  const params: { type: string; params: unknown }[] = [];
  const actions = Object.fromEntries(
    IO_ACTIONS.map((name) => [
      name,
      (_: unknown, p: unknown) => {
        calls.push(name);
        params.push({ type: name, params: p });
      },
    ]),
  );
  const actor = createActor(machine.provide({ actions, actors: actors as never }), { input }).start();
  return { actor, calls, params };
}

const plans = inputs.map((input) => ({ input, plan: planTransitionWalk(machine, { events: events as never, input, serializeState: serializeState as never, maxStates }) }));

for (const { input, plan } of plans) {
  describe(`player machine: every transition (hasSavedSettings: ${input.hasSavedSettings})`, () => {
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, calls } = startRecording(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(calls).toEqual(actions.filter((a) => (IO_ACTIONS as readonly string[]).includes(a)));
            calls.length = 0;
          },
          { send: (e) => actor.send(e as never), stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('player machine: coverage', () => {
  it('covers 100% of transitions', () => {
    const { uncovered, summary } = coverageOver(machine, plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});

const flush = () => new Promise((r) => setTimeout(r, 0));
const fresh: PlayerInput = { hasSavedSettings: false, speeds: {} };

describe('player machine: rules', () => {
  it('starts Paused with saved audio settings and Closed without', () => {
    const saved = startRecording({ hasSavedSettings: true, speeds: {} });
    const closed = startRecording(fresh);
    expect(connectPlayer(saved.actor.getSnapshot(), () => {}).label).toBe('Paused');
    expect(connectPlayer(closed.actor.getSnapshot(), () => {}).label).toBe('Closed');
    expect([...saved.calls, ...closed.calls]).toEqual([]);
  });

  it('tracks opening, pausing, resuming and closing, with the edition and the seconds heard', () => {
    const { actor, params } = startRecording(fresh);
    actor.send({ type: 'player.track', track: playerTracks.next });
    const player = () => connectPlayer(actor.getSnapshot(), (e) => actor.send(e));
    player().toggle();
    expect(player()).toMatchObject({ isOpen: true, isPlaying: true, label: 'Now Playing' });
    actor.send({ type: 'playback.time', time: 1, duration: 20 });
    actor.send({ type: 'playback.time', time: 2, duration: 20 });
    player().pause();
    player().play();
    player().close();
    expect(player()).toMatchObject({ isOpen: false, isPlaying: false, label: 'Closed' });
    expect(params.filter((p) => p.type === 'track').map((p) => p.params)).toEqual([
      { event: 'Opened Audio Player', properties: { editionId: 12 } },
      { event: 'Paused Audio', properties: { editionId: 12, seconds: 2 } },
      { event: 'Resumed Audio', properties: { editionId: 12 } },
      { event: 'Closed Audio Player', properties: { editionId: 12, seconds: 0 } },
    ]);
  });

  it('loads the playing passage into the audio port and plays it, at the saved speed; paging saves the time as 0', () => {
    const playing: string[] = [];
    const { actor, params } = startRecording(
      { hasSavedSettings: true, speeds: { '12': 1.25 } },
      { playback: fromCallback(() => (playing.push('start'), () => void playing.push('stop'))) },
    );
    actor.send({ type: 'player.track', track: playerTracks.next });
    expect(params.filter((p) => p.type === 'loadReaderAudio').map((p) => p.params)).toEqual([{ url: '/audio/2.mp3', rate: 1.25 }]);
    actor.send({ type: 'player.listen' });
    expect(playing).toEqual(['start']);
    expect(params.filter((p) => p.type === 'save').map((p) => p.params)).toEqual([{ currentTime: 0 }, { audioControlState: 'playing', currentTime: 0 }]);
    actor.send({ type: 'player.track', track: playerTracks.silent });
    expect(playing).toEqual(['start', 'stop']);
    expect(params.filter((p) => p.type === 'loadReaderAudio').at(-1)!.params).toEqual({ url: null, rate: 1 });
  });

  it('loads a narration the open player lacks, tells the system, then plays it', async () => {
    const asked: NarrationInput[] = [];
    const { actor, params } = startRecording(fresh, {
      loadNarration: fromPromise<Narration, NarrationInput>(async ({ input }) => {
        asked.push(input);
        return { url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 0 }], duration: 9 };
      }),
    });
    actor.send({ type: 'player.track', track: playerTracks.first });
    expect(asked).toEqual([]);
    actor.send({ type: 'audio.open' });
    await flush();
    expect(asked).toEqual([{ passageId: 1, editionId: 12, position: 1 }]);
    expect(params.find((p) => p.type === 'tellNarration')!.params).toEqual({ passageId: 1, url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 0 }] });
    expect(actor.getSnapshot().context.loadedKey).toBe('1|/audio/1.mp3');
    expect(actor.getSnapshot().context.duration).toBe(9);
  });

  it('highlight asks for the speech marks of a passage that lacks them, with the player closed', async () => {
    const asked: NarrationInput[] = [];
    const { actor } = startRecording(fresh, { loadNarration: fromPromise<Narration, NarrationInput>(async ({ input }) => (asked.push(input), { url: '/a.mp3', speechMarks: [], duration: 0 })) });
    actor.send({ type: 'player.track', track: playerTracks.first });
    actor.send({ type: 'narration.wantMarks' });
    await flush();
    expect(asked).toHaveLength(1);
    expect(playerState(actor.getSnapshot())).toBe('closed');
    actor.send({ type: 'narration.wantMarks' });
    await flush();
    expect(asked).toHaveLength(1);
  });

  it("a word holds a playing player ('Paused', nothing tracked or saved) and it plays on after; a paused one stays paused", () => {
    const { actor, calls } = startRecording(fresh);
    actor.send({ type: 'player.track', track: playerTracks.next });
    actor.send({ type: 'audio.open' });
    calls.length = 0;
    actor.send({ type: 'word.hold' });
    expect(connectPlayer(actor.getSnapshot(), () => {}).label).toBe('Paused');
    actor.send({ type: 'word.release' });
    expect(playerState(actor.getSnapshot())).toBe('playing');
    expect(calls.filter((c) => c === 'track' || c === 'save')).toEqual([]);
    actor.send({ type: 'audio.pause' });
    actor.send({ type: 'word.hold' });
    actor.send({ type: 'word.release' });
    expect(playerState(actor.getSnapshot())).toBe('paused');
  });

  it("'Play from here' goes to the word once its narration is in the audio port", () => {
    const { actor, params } = startRecording(fresh);
    actor.send({ type: 'player.track', track: playerTracks.next });
    actor.send({ type: 'player.playFrom', at: { passageId: 2, seconds: 0.4 } });
    expect(params.filter((p) => p.type === 'seekReaderAudio').map((p) => p.params)).toEqual([{ seconds: 0.4 }]);
    expect(actor.getSnapshot().context.pendingSeek).toBeNull();
  });

  it('a speed is saved for the edition that plays, applied and tracked; an address sets the saved speeds', () => {
    const { actor, params } = startRecording(fresh);
    actor.send({ type: 'player.track', track: playerTracks.next });
    actor.send({ type: 'audio.speed', speed: 1.5 });
    expect(params.filter((p) => ['save', 'setReaderAudioRate', 'showSpeedsInAddress', 'track'].includes(p.type))).toEqual([
      { type: 'save', params: { currentTime: 0 } },
      { type: 'save', params: { playbackSpeed: { '12': 1.5 } } },
      { type: 'setReaderAudioRate', params: { rate: 1.5 } },
      { type: 'showSpeedsInAddress', params: { speeds: { '12': 1.5 } } },
      { type: 'track', params: { event: 'Changed Audio Settings', properties: { playbackSpeed: 1.5 } } },
    ]);
    actor.send({ type: 'address.speeds', param: '12:0.75' });
    expect(actor.getSnapshot().context.speeds).toEqual({ '12': 0.75 });
    expect(params.at(-1)).toEqual({ type: 'setReaderAudioRate', params: { rate: 0.75 } });
  });

  it('is forced Closed by a required license without a tracking event', () => {
    const { actor, calls } = startRecording({ hasSavedSettings: true, speeds: {} });
    actor.send({ type: 'audio.play' });
    calls.length = 0;
    actor.send({ type: 'player.track', track: playerTracks.gated });
    expect(playerState(actor.getSnapshot())).toBe('closed');
    expect(calls).toEqual(['save']);
  });
});
