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
    expect(params.filter((p) => p.type === 'loadReaderAudio').map((p) => p.params)).toEqual([{ url: '/audio/2.mp3', rate: 1.25, upTo: null }]);
    actor.send({ type: 'player.listen' });
    expect(playing).toEqual(['start']);
    expect(params.filter((p) => p.type === 'save').map((p) => p.params)).toEqual([{ currentTime: 0 }, { audioControlState: 'playing', currentTime: 0 }]);
    actor.send({ type: 'player.track', track: playerTracks.silent });
    expect(playing).toEqual(['start', 'stop']);
    expect(params.filter((p) => p.type === 'loadReaderAudio').at(-1)!.params).toEqual({ url: null, rate: 1, upTo: null });
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
    // A passage asked for the first time takes the head of a narration still being made.
    expect(asked).toEqual([{ passageId: 1, editionId: 12, position: 1, partial: true }]);
    expect(params.find((p) => p.type === 'tellNarration')!.params).toEqual({ passageId: 1, url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 0 }] });
    expect(actor.getSnapshot().context.loadedKey).toBe('1|/audio/1.mp3');
    expect(actor.getSnapshot().context.duration).toBe(9);
  });

  it('plays the head of a narration being made, waits playing at its end, then goes on in the whole from the seam', async () => {
    const asked: NarrationInput[] = [];
    const answers: ((n: Narration) => void)[] = [];
    const playing: string[] = [];
    const { actor, params } = startRecording(fresh, {
      loadNarration: fromPromise<Narration, NarrationInput>(({ input }) => (asked.push(input), new Promise<Narration>((resolve) => answers.push(resolve)))),
      playback: fromCallback(() => (playing.push('start'), () => void playing.push('stop'))),
    });
    const loads = () => params.filter((p) => p.type === 'loadReaderAudio').map((p) => p.params);
    const port = () => (actor.getSnapshot().value as { control: { open: { port: string } } }).control.open.port;
    actor.send({ type: 'player.track', track: playerTracks.first });
    actor.send({ type: 'player.listen' });
    await flush();
    answers[0]({ url: '/audio/head-1.mp3', speechMarks: [{ offset: 0, time: 70 }], duration: 3.1, seam: 2.9 });
    await flush();
    // The head plays at once, its marks go to the columns, and the whole is asked for.
    expect(loads()).toEqual([{ url: '/audio/head-1.mp3', rate: 1, upTo: null }]);
    expect(params.filter((p) => p.type === 'tellNarration').map((p) => p.params)).toEqual([{ passageId: 1, url: '/audio/head-1.mp3', speechMarks: [{ offset: 0, time: 70 }] }]);
    expect(playing).toEqual(['start']);
    expect(asked.map((a) => a.partial)).toEqual([true, false]);
    // Its end is not the narration's: the player stays playing and waits for the rest.
    actor.send({ type: 'playback.ended' });
    expect(playerState(actor.getSnapshot())).toBe('playing');
    expect(port()).toBe('awaitingRest');
    expect(playing).toEqual(['start', 'stop']);
    // The whole comes: it goes on from the port's time, at most the seam, and plays.
    answers[1]({ url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 70 }, { offset: 4, time: 3000 }], duration: 9 });
    await flush();
    expect(loads().at(-1)).toEqual({ url: '/audio/1.mp3', rate: 1, upTo: 2.9 });
    expect(params.filter((p) => p.type === 'tellNarration').at(-1)!.params).toEqual({ passageId: 1, url: '/audio/1.mp3', speechMarks: [{ offset: 0, time: 70 }, { offset: 4, time: 3000 }] });
    expect(port()).toBe('sounding');
    expect(playing).toEqual(['start', 'stop', 'start']);
    expect(actor.getSnapshot().context).toMatchObject({ loadedKey: '1|/audio/1.mp3', loadedSeam: null, duration: 9 });
    // The whole's own end pauses the player.
    actor.send({ type: 'playback.ended' });
    expect(playerState(actor.getSnapshot())).toBe('paused');
    expect(asked).toHaveLength(2);
  });

  it('keeps playing the head when the whole comes early, and switches at its end; a paused head switches at once', async () => {
    const answers: ((n: Narration) => void)[] = [];
    const { actor, params } = startRecording(fresh, { loadNarration: fromPromise<Narration, NarrationInput>(() => new Promise<Narration>((resolve) => answers.push(resolve))) });
    const loads = () => params.filter((p) => p.type === 'loadReaderAudio').map((p) => p.params);
    const port = () => (actor.getSnapshot().value as { control: { open: { port: string } } }).control.open.port;
    actor.send({ type: 'player.track', track: playerTracks.first });
    actor.send({ type: 'player.listen' });
    await flush();
    answers[0]({ url: '/audio/head-1.mp3', speechMarks: [], duration: 3.1, seam: 2.9 });
    await flush();
    answers[1]({ url: '/audio/1.mp3', speechMarks: [], duration: 9 });
    await flush();
    expect(loads()).toHaveLength(1);
    expect(port()).toBe('sounding');
    actor.send({ type: 'playback.ended' });
    expect(loads().at(-1)).toEqual({ url: '/audio/1.mp3', rate: 1, upTo: 2.9 });
    expect(port()).toBe('sounding');

    // Paused during the head: the whole takes its place at once, where the head was.
    const second = startRecording(fresh, { loadNarration: fromPromise<Narration, NarrationInput>(() => new Promise<Narration>((resolve) => answers.push(resolve))) });
    second.actor.send({ type: 'player.track', track: playerTracks.first });
    second.actor.send({ type: 'player.listen' });
    await flush();
    answers[2]({ url: '/audio/head-1.mp3', speechMarks: [], duration: 3.1, seam: 2.9 });
    await flush();
    second.actor.send({ type: 'audio.pause' });
    answers[3]({ url: '/audio/1.mp3', speechMarks: [], duration: 9 });
    await flush();
    expect(second.params.filter((p) => p.type === 'loadReaderAudio').at(-1)!.params).toEqual({ url: '/audio/1.mp3', rate: 1, upTo: 2.9 });
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
