import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { REFRESH_BUTTON_DELAY_MS, SPINNER_DELAY_MS } from '../../src/domain/constants';
import { PortFailure } from '../../src/domain/failures';
import type { OnDemandEditionBody, Passage } from '../../src/domain/schemas';
import { connectReaderColumn, PREFETCH_DELAY_MS, readerColumnMachine, type ColumnPlan, type DecodedTextRequest, type PassageRequest } from '../../src/machines/readerColumn';
import { planTransitionWalk, timedSend } from './harness';
import { MODELS } from './models';
import { fixturePassage } from '../fixtures/publication';

/** The actions the engine and the reader system provide; the SUT records each call (with its params) instead. */
const PROVIDED = ['prefetchNeighbours', 'cachePassage', 'logError', 'tellWhatShows', 'tellTrack', 'sayWord', 'playFrom', 'offerAudioUpgrade', 'leaveForPremium', 'reloadPublication'] as const;

type Loads = {
  loadPassage?: (input: PassageRequest) => Promise<Passage>;
  createEdition?: (input: { slug: string; body: OnDemandEditionBody }) => Promise<unknown>;
  loadDecodedText?: (input: DecodedTextRequest) => Promise<string>;
};

/** A column whose provided actions are recorded; its loads are the walk model's (never settling) unless given. */
function startColumn(loads: Loads = {}) {
  const calls: { name: string; params: unknown }[] = [];
  // 'tellWhatShows' and 'tellTrack' tell what the column shows: they are recorded with the passage shown at that moment.
  const record = (name: string) => (args: { context: { passage: Passage | null } }, params: unknown) =>
    void calls.push({ name, params: name === 'tellWhatShows' || name === 'tellTrack' ? { passage: args.context.passage } : params });
  const actions = Object.fromEntries(PROVIDED.map((name) => [name, record(name)]));
  const actors = {
    ...(loads.loadPassage ? { loadPassage: fromPromise<Passage, PassageRequest>(({ input }) => loads.loadPassage!(input)) } : {}),
    ...(loads.createEdition ? { createEdition: fromPromise<unknown, { slug: string; body: OnDemandEditionBody }>(({ input }) => loads.createEdition!(input)) } : {}),
    ...(loads.loadDecodedText ? { loadDecodedText: fromPromise<string, DecodedTextRequest>(({ input }) => loads.loadDecodedText!(input)) } : {}),
  };
  const clock = new SimulatedClock();
  const machine = MODELS.readerColumn.machine.provide({ actions, actors: actors as never });
  const actor = createActor(machine, { input: { slot: 'primary' }, clock }).start();
  const names = () => calls.map((c) => c.name);
  return { actor, calls, names, clock, send: timedSend(readerColumnMachine, actor, clock), api: () => connectReaderColumn(actor.getSnapshot(), (e) => actor.send(e)) };
}

const plan = planTransitionWalk(MODELS.readerColumn.machine, { events: MODELS.readerColumn.events as never, input: MODELS.readerColumn.inputs[0], serializeState: MODELS.readerColumn.serializeState, maxStates: MODELS.readerColumn.maxStates });

describe('readerColumn machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, calls, names, send } = startColumn();
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(actor.getSnapshot().context).toEqual(expected.context);
          expect(names()).toEqual(actions.filter((a) => (PROVIDED as readonly string[]).includes(a)));
          calls.length = 0;
        },
        { send: send as never, stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions, the delays included', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

const request = { editionId: 1, position: 2, passageCount: 3 };
const show = { kind: 'passage', key: '1:2', ...request, edition: { id: 1, audioEnabled: true, audioTotalLength: 60, language: 'en', slug: 'fixture' } } satisfies ColumnPlan;
const missing: ColumnPlan = { kind: 'missing', slug: 'fixture', version: 'v1', language: 'fr', level: 'A1' };
const passage = (over: Partial<Passage> = {}): Passage => ({ ...fixturePassage(1, 2), id: 7, text: '<p>Owls.</p>', ...over });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('readerColumn machine: rules', () => {
  it('shows the skeleton, then a spinner after 1.5 s, then Refresh after 10 s; Refresh asks again', () => {
    const asked: PassageRequest[] = [];
    const { actor, api, clock } = startColumn({ loadPassage: (input) => (asked.push(input), new Promise(() => {})) });
    actor.send({ type: 'column.show', plan: show });
    expect(api()).toMatchObject({ showSkeleton: true, showSpinner: false, showRefresh: false, message: null });
    clock.increment(SPINNER_DELAY_MS - 1);
    expect(api().showSpinner).toBe(false);
    clock.increment(1);
    expect(api()).toMatchObject({ showSkeleton: false, showSpinner: true, showRefresh: false });
    clock.increment(REFRESH_BUTTON_DELAY_MS - SPINNER_DELAY_MS - 1);
    expect(api().showRefresh).toBe(false);
    clock.increment(1);
    expect(api()).toMatchObject({ showSpinner: true, showRefresh: true, refreshLabel: 'Refresh', message: 'Retrieving passage...' });
    api().refresh();
    expect(api()).toMatchObject({ showSkeleton: true, showRefresh: false });
    expect(asked).toEqual([request, request]);
  });

  it('shows the passage, tells the system, and asks for its neighbours PREFETCH_DELAY_MS later', async () => {
    const { actor, api, calls, names, clock } = startColumn({ loadPassage: async () => passage() });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    expect(api().isLoaded).toBe(true);
    expect(actor.getSnapshot().context.passage).toEqual(passage());
    // The new plan's edition goes to the player at once (the passage is not here yet); then the passage, to all.
    expect(calls).toEqual([
      { name: 'tellTrack', params: { passage: null } },
      { name: 'tellWhatShows', params: { passage: passage() } },
    ]);
    clock.increment(PREFETCH_DELAY_MS - 1);
    expect(names()).toEqual(['tellTrack', 'tellWhatShows']);
    clock.increment(1);
    expect(calls[2]).toEqual({ name: 'prefetchNeighbours', params: request });
  });

  it('a turn before the delay asks for no neighbours of the page it left', async () => {
    const { actor, names, clock } = startColumn({ loadPassage: async () => passage() });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    clock.increment(PREFETCH_DELAY_MS - 1);
    actor.send({ type: 'column.show', plan: { ...show, key: '1:3', position: 3 } });
    clock.increment(PREFETCH_DELAY_MS - 1);
    expect(names()).toEqual(['tellTrack', 'tellWhatShows', 'tellTrack']);
  });

  it('a gated passage shows its gate, and is asked for again when who reads changes', async () => {
    let answer = passage({ licenseRequired: true, text: '' });
    const { actor, api } = startColumn({ loadPassage: async () => answer });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    expect(api()).toMatchObject({ needsLicense: true, needsGroupCode: false, isLoaded: false });
    answer = passage();
    actor.send({ type: 'column.reload' });
    await settle();
    expect(api()).toMatchObject({ needsLicense: false, isLoaded: true });
  });

  it("a failed load shows 'Not found' for 404, else 'Unavailable'; 'Premium content' leaves", async () => {
    let error = new PortFailure('not_found', 404, 'Passage not found');
    const { actor, api, names } = startColumn({ loadPassage: () => Promise.reject(error) });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    expect(api().error?.title).toBe('Not found');
    error = new PortFailure('network', 0, 'Network down');
    actor.send({ type: 'column.show', plan: show });
    await settle();
    expect(api().error?.title).toBe('Unavailable');
    error = new PortFailure('premium_content', 403, 'Premium content');
    actor.send({ type: 'column.show', plan: show });
    await settle();
    expect(api().error).toBeNull();
    // Each new load tells its edition, each failure what the column shows (none); 'Premium content' leaves instead.
    expect(names()).toEqual(['tellTrack', 'tellWhatShows', 'tellTrack', 'tellWhatShows', 'tellTrack', 'leaveForPremium']);
  });

  it('creates a missing edition on demand, showing loading, then has the title fetched again', async () => {
    const bodies: unknown[] = [];
    const { actor, api, names } = startColumn({ createEdition: async (input) => void bodies.push(input) });
    actor.send({ type: 'column.show', plan: missing });
    expect(api()).toMatchObject({ isCreating: true, creationFailed: false, missingError: null });
    await settle();
    expect(api()).toMatchObject({ isCreating: false, creationFailed: false });
    expect(bodies).toEqual([{ slug: 'fixture', body: { version: 'v1', languageCode: 'fr', level: 'A1' } }]);
    // A missing edition shows no passage: the column tells so, then has the title fetched again.
    expect(names()).toEqual(['tellWhatShows', 'reloadPublication']);
  });

  it("creates once per attempt: still missing after creation is 'Passage not found' (404); a new attempt may create it again", async () => {
    const { actor, api, names } = startColumn({ createEdition: async () => ({}) });
    actor.send({ type: 'column.show', plan: missing });
    await settle();
    actor.send({ type: 'column.show', plan: { ...missing, language: 'FR', level: 'a1' } });
    expect(api()).toMatchObject({ isCreating: false, creationFailed: true, missingError: { status: 404, message: 'Passage not found' } });
    actor.send({ type: 'column.reset' });
    expect(api().creationFailed).toBe(false);
    actor.send({ type: 'column.show', plan: missing });
    expect(api().isCreating).toBe(true);
    await settle();
    expect(names().filter((name) => name !== 'tellWhatShows')).toEqual(['reloadPublication', 'reloadPublication']);
  });

  it("shows 'Passage not found' when the creation fails", async () => {
    const { actor, api } = startColumn({ createEdition: () => Promise.reject(new PortFailure('network', 0, 'Network down')) });
    actor.send({ type: 'column.show', plan: missing });
    await settle();
    expect(api().missingError).toEqual({ status: 404, message: 'Passage not found' });
  });

  it('keeps what the shown passage gains (narration, decoded text), and only for that passage', async () => {
    const { actor } = startColumn({ loadPassage: async () => passage() });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    const voiced = passage({ audio: { url: '/audio/7.mp3', speechMarks: [{ offset: 0, time: 0 }] } });
    const heard = { url: '/audio/7.mp3', speechMarks: [{ offset: 0, time: 0 }] };
    actor.send({ type: 'narration.loaded', passageId: 8, ...heard });
    expect(actor.getSnapshot().context.passage).toEqual(passage());
    actor.send({ type: 'narration.loaded', passageId: voiced.id, ...heard });
    expect(actor.getSnapshot().context.passage).toEqual(voiced);
  });

  it('asked for the decoded text, loads it for the shown passage, keeps and caches it, and tells the system', async () => {
    const asked: DecodedTextRequest[] = [];
    const { actor, api, calls } = startColumn({ loadPassage: async () => passage(), loadDecodedText: async (input) => (asked.push(input), '<p><b>Owls</b>.</p>') });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    calls.length = 0;
    actor.send({ type: 'decodedText.want' });
    expect(api().isLoaded).toBe(true);
    await settle();
    const decoded = passage({ textDecoded: '<p><b>Owls</b>.</p>' });
    expect(asked).toEqual([{ passageId: 7, editionId: 1, position: 2 }]);
    expect(actor.getSnapshot().context.passage).toEqual(decoded);
    expect(calls).toEqual([
      { name: 'cachePassage', params: { passage: decoded } },
      { name: 'tellWhatShows', params: { passage: decoded } },
    ]);
    // A new reading mode asks again: the passage has its decoded text, so the column only tells it.
    calls.length = 0;
    actor.send({ type: 'decodedText.want' });
    await settle();
    expect(asked).toHaveLength(1);
    expect(calls).toEqual([{ name: 'tellWhatShows', params: { passage: decoded } }]);
  });

  it("a failed decoded-text load is logged ('Decoded text failed') and the passage shows as it was", async () => {
    const error = new PortFailure('network', 0, 'Network down');
    const { actor, api, calls } = startColumn({ loadPassage: async () => passage(), loadDecodedText: () => Promise.reject(error) });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    calls.length = 0;
    actor.send({ type: 'decodedText.want' });
    await settle();
    expect(api().isLoaded).toBe(true);
    expect(actor.getSnapshot().context.passage).toEqual(passage());
    expect(calls).toEqual([{ name: 'logError', params: { message: 'Decoded text failed', error } }]);
  });

  it('decoded text that arrives after the column moved on is dropped; a column that shows no passage ignores the ask', async () => {
    let answer: (text: string) => void = () => {};
    const { actor, calls } = startColumn({
      loadPassage: async (input) => passage({ id: input.position, position: input.position }),
      loadDecodedText: () => new Promise((resolve) => (answer = resolve)),
    });
    actor.send({ type: 'decodedText.want' });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'column.show', plan: show });
    await settle();
    actor.send({ type: 'decodedText.want' });
    actor.send({ type: 'column.show', plan: { ...show, key: '1:3', position: 3 } });
    await settle();
    answer('<p>late</p>');
    await settle();
    expect(actor.getSnapshot().context.passage).toEqual(passage({ id: 3, position: 3 }));
    expect(calls.map((c) => c.name)).toEqual(['tellTrack', 'tellWhatShows', 'tellTrack', 'tellWhatShows']);
  });

  it('a tapped word is said from the passage, or played from its time; a column whose audio is locked offers the upgrade', async () => {
    const voiced = passage({ text: '<p>Owls hoot.</p>', audio: { url: '/audio/7.mp3', speechMarks: [{ offset: 0, time: 0 }, { offset: 5, time: 400 }] } });
    const { actor, calls } = startColumn({ loadPassage: async () => voiced });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    calls.length = 0;
    actor.send({ type: 'word.say', offset: 5 });
    actor.send({ type: 'word.playFrom', offset: 5 });
    expect(calls).toEqual([
      {
        name: 'sayWord',
        params: {
          request: {
            slot: 'primary',
            target: { text: 'Owls hoot.', locale: 'en', offset: 5 },
            narration: { url: '/audio/7.mp3', speechMarks: voiced.audio!.speechMarks, duration: 0 },
            load: { passageId: 7, editionId: 1, position: 2 },
          },
        },
      },
      { name: 'playFrom', params: { from: { passageId: 7, seconds: 0.4 } } },
    ]);
    calls.length = 0;
    actor.send({ type: 'column.facts', plays: true, audioLocked: true });
    actor.send({ type: 'word.say', offset: 5 });
    actor.send({ type: 'word.playFrom', offset: 5 });
    expect(calls.map((c) => c.name)).toEqual(['offerAudioUpgrade', 'offerAudioUpgrade']);
  });

  it('tells what it shows when it starts to play, not when told again that it plays', async () => {
    const { actor, calls } = startColumn({ loadPassage: async () => passage() });
    actor.send({ type: 'column.show', plan: show });
    await settle();
    calls.length = 0;
    actor.send({ type: 'column.facts', plays: true, audioLocked: false });
    expect(calls).toEqual([]);
    actor.send({ type: 'column.facts', plays: false, audioLocked: false });
    actor.send({ type: 'column.facts', plays: true, audioLocked: false });
    expect(calls).toEqual([{ name: 'tellWhatShows', params: { passage: passage() } }]);
  });
});
