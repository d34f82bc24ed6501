import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, type SnapshotFrom } from 'xstate';
import {
  connectHighlightDecode,
  DECODE_PHONICS_NOTE,
  highlightDecodeMachine,
  type HighlightDecodeEvent,
  type HighlightDecodeInput,
  type PassageFacts,
} from '../../src/machines/highlightDecode';
import { allTransitions, planTransitionWalk, type WalkPlan } from './harness';
import { MODELS } from './models';

type Machine = typeof highlightDecodeMachine;

const facts = (hasSpeechMarks: boolean, hasDecodedText: boolean, isEnglish: boolean): PassageFacts => ({ hasSpeechMarks, hasDecodedText, isEnglish });

const events = MODELS.highlightDecode.events;

/** Everything available, nothing loaded yet, English. */
const base = MODELS.highlightDecode.inputs[0];

/**
 * Two snapshots are the same state for the walk when every guard and every conditional request would answer the
 * same: the mode, what the edition and features allow, whether the current mode still lacks its data, the saved
 * mode it starts again from and the primary edition its facts are for.
 * (Serializing the whole context makes the walk exceed its state limit without adding any transition.)
 */
function behaviourClass(s: SnapshotFrom<Machine>): string {
  const c = s.context;
  const lacks = s.value === 'highlight' ? !c.hasSpeechMarks : s.value === 'decode' ? c.isEnglish && !c.hasDecodedText : null;
  return JSON.stringify([s.value, c.highlightEnabled, c.decodeEnabled, c.hasDecodeFeature, lacks, c.savedMode, c.editionId]);
}

/** The actions the engine provides; the SUT records each call (with its params) instead. */
const IO_ACTIONS = ['persistMode', 'requestSpeechMarks', 'requestDecodedText', 'showDecodeUpgrade'] as const;

function startRecording(input: HighlightDecodeInput) {
  const calls: { name: string; params: unknown }[] = [];
  const actions = Object.fromEntries(IO_ACTIONS.map((name) => [name, (_: unknown, params: unknown) => void calls.push({ name, params })]));
  const actor = createActor(highlightDecodeMachine.provide({ actions }), { input }).start();
  const names = () => calls.map((c) => c.name);
  return { actor, calls, names, api: () => connectHighlightDecode(actor.getSnapshot(), (e) => actor.send(e)) };
}

/**
 * The start state depends on the input, so there is one plan per input. The walk from 'off' is the full one; the
 * walks from the saved modes tell states apart by mode only, which is enough to start from there. The harness
 * credits evented transitions only; the `init` branch a plan starts through is credited here, since every case
 * checks the start state first.
 */
const plans = [
  { input: base, plan: planTransitionWalk(highlightDecodeMachine, { events, input: base, serializeState: behaviourClass }) },
  ...(['highlight', 'decode'] as const).map((savedMode) => {
    const input = { ...base, savedMode };
    return { input, plan: planTransitionWalk(highlightDecodeMachine, { events, input, serializeState: (s) => JSON.stringify(s.value) }) };
  }),
];

function startBranches(input: HighlightDecodeInput): string[] {
  const [start] = initialTransition(highlightDecodeMachine, input);
  const startId = `${highlightDecodeMachine.id}.${String(start.value)}`;
  return allTransitions(highlightDecodeMachine)
    .filter((t) => t.event === '(always)' && t.targets.includes(startId))
    .map((t) => t.key);
}

function coverage(all: { input: HighlightDecodeInput; plan: WalkPlan<Machine> }[]) {
  const covered = new Set<string>();
  for (const { input, plan } of all) {
    plan.covered.forEach((k) => covered.add(k));
    startBranches(input).forEach((k) => covered.add(k));
  }
  const total = allTransitions(highlightDecodeMachine);
  const uncovered = total.filter((t) => !covered.has(t.key));
  const done = total.length - uncovered.length;
  return { uncovered, summary: `${highlightDecodeMachine.id}: ${done}/${total.length} transitions covered (${Math.round((done / total.length) * 100)}%)` };
}

for (const { input, plan } of plans) {
  describe(`highlightDecode machine: every transition (savedMode: ${input.savedMode})`, () => {
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, calls, names } = startRecording(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(actor.getSnapshot().context).toEqual(expected.context);
            expect(names()).toEqual(actions);
            calls.length = 0;
          },
          { send: (e) => actor.send(e), stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('highlightDecode machine: coverage', () => {
  it('covers 100% of transitions', () => {
    const { uncovered, summary } = coverage(plans);
    console.log(summary);
    expect(uncovered).toEqual([]);
  });
});

describe('highlightDecode machine: rules', () => {
  it('starts in the saved mode when available, and off when not', () => {
    expect(startRecording({ ...base, savedMode: 'highlight' }).api().isHighlightOn).toBe(true);
    expect(startRecording({ ...base, savedMode: 'decode' }).api().isDecodeOn).toBe(true);
    expect(startRecording({ ...base, savedMode: 'highlight', highlightEnabled: false }).actor.getSnapshot().value).toBe('off');
    expect(startRecording({ ...base, savedMode: 'decode', hasDecodeFeature: false }).actor.getSnapshot().value).toBe('off');
  });

  it('starting in a saved mode requests what it lacks but saves nothing', () => {
    expect(startRecording({ ...base, savedMode: 'highlight' }).names()).toEqual(['requestSpeechMarks']);
    expect(startRecording({ ...base, savedMode: 'highlight', hasSpeechMarks: true }).names()).toEqual([]);
    expect(startRecording({ ...base, savedMode: 'decode' }).names()).toEqual(['requestDecodedText']);
  });

  it('turning highlight on turns decode off, and vice versa; each change is saved', () => {
    const { calls, api } = startRecording({ ...base, hasSpeechMarks: true, hasDecodedText: true });
    api().toggleDecode();
    expect(api()).toMatchObject({ isDecodeOn: true, isHighlightOn: false });
    api().toggleHighlight();
    expect(api()).toMatchObject({ isDecodeOn: false, isHighlightOn: true });
    api().toggleDecode();
    api().toggleDecode();
    expect(api()).toMatchObject({ isDecodeOn: false, isHighlightOn: false });
    expect(calls).toEqual(
      ['decode', 'highlight', 'decode', 'off'].map((mode) => ({ name: 'persistMode', params: { mode } })),
    );
  });

  it('requests speech marks only when the passage lacks them, again on a new passage', () => {
    const { actor, names } = startRecording(base);
    actor.send({ type: 'highlight.toggle' });
    expect(names()).toEqual(['persistMode', 'requestSpeechMarks']);
    actor.send({ type: 'passage.changed', ...facts(true, false, true) });
    expect(names()).toEqual(['persistMode', 'requestSpeechMarks']);
    actor.send({ type: 'passage.changed', ...facts(false, false, true) });
    expect(names()).toEqual(['persistMode', 'requestSpeechMarks', 'requestSpeechMarks']);
  });

  it('requests decoded text only for English passages that lack it', () => {
    const { actor, names } = startRecording({ ...base, isEnglish: false });
    actor.send({ type: 'decode.toggle' });
    expect(names()).toEqual(['persistMode']);
    actor.send({ type: 'passage.changed', ...facts(false, false, true) });
    expect(names()).toEqual(['persistMode', 'requestDecodedText']);
    // The passage comes back with its decoded text (the primary column loaded it).
    actor.send({ type: 'passage.changed', ...facts(false, true, true) });
    actor.send({ type: 'highlight.toggle' });
    actor.send({ type: 'decode.toggle' });
    expect(names().filter((n) => n === 'requestDecodedText')).toHaveLength(1);
  });

  it('without the DECODE feature the decode control offers the upgrade and stays put', () => {
    const { actor, calls, api } = startRecording({ ...base, hasDecodeFeature: false, savedMode: 'highlight', hasSpeechMarks: true });
    expect(api()).toMatchObject({ canDecode: false, decodeLocked: true, decodeTooltip: DECODE_PHONICS_NOTE });
    api().toggleDecode();
    expect(actor.getSnapshot().value).toBe('highlight');
    expect(calls).toEqual([{ name: 'showDecodeUpgrade', params: { feature: 'Decode' } }]);
  });

  it('ignores decode when the edition has no decode mode', () => {
    const { actor, calls, api } = startRecording({ ...base, decodeEnabled: false });
    expect(api()).toMatchObject({ canDecode: false, decodeLocked: false, decodeTooltip: 'Decode Mode not available', highlightTooltip: 'Highlight text as audio plays' });
    api().toggleDecode();
    expect(actor.getSnapshot().value).toBe('off');
    expect(calls).toEqual([]);
  });

  it('turns a mode off when the edition or the features stop allowing it', () => {
    const { actor, calls } = startRecording({ ...base, savedMode: 'highlight', hasSpeechMarks: true });
    actor.send({ type: 'edition.changed', editionId: 1, highlightEnabled: false, decodeEnabled: true, ...facts(false, true, true) });
    expect(actor.getSnapshot().value).toBe('off');
    actor.send({ type: 'decode.toggle' });
    actor.send({ type: 'features.changed', hasDecodeFeature: false });
    expect(actor.getSnapshot().value).toBe('off');
    expect(calls.filter((c) => c.name === 'persistMode').map((c) => c.params)).toEqual([{ mode: 'off' }, { mode: 'decode' }, { mode: 'off' }]);
  });

  it('facts told again move nothing; another primary edition starts again from the saved mode, which stays saved', () => {
    const { actor, names } = startRecording({ ...base, savedMode: 'highlight', hasSpeechMarks: true });
    const edition = { type: 'edition.changed', editionId: 1, highlightEnabled: true, decodeEnabled: true, isEnglish: true } as const;
    const before = actor.getSnapshot();
    actor.send(edition);
    expect(actor.getSnapshot()).toBe(before);
    // A Spanish edition without highlight: off, and nothing saved; back to an English one: highlight again.
    actor.send({ ...edition, editionId: 2, highlightEnabled: false, decodeEnabled: false, isEnglish: false });
    expect(actor.getSnapshot().value).toBe('off');
    actor.send({ ...edition, editionId: 3 });
    expect(actor.getSnapshot().value).toBe('highlight');
    expect(actor.getSnapshot().context.editionId).toBe(3);
    expect(names()).not.toContain('persistMode');
  });
});
