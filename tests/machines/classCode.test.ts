import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, type AnyStateMachine } from 'xstate';
import {
  classCodeMachine,
  connectClassCode,
  isValidClassCode,
  normalizeClassCode,
  resolveFeatures,
  type ClassCodeEvent,
  type ClassCodeInput,
} from '../../src/machines/classCode';
import { allTransitions, planTransitionWalk } from './harness';
import { MODELS } from './models';

const engineActions = ['verifyClassCode', 'removeCodeFromAddress', 'storeClassCode', 'clearStoredClassCode', 'showToast'] as const;
type Recorded = { type: (typeof engineActions)[number]; params?: unknown };

/** The machine with its engine-provided actions replaced by recorders. */
function startRecorded(input: ClassCodeInput) {
  const log: Recorded[] = [];
  const actions = Object.fromEntries(
    engineActions.map((type) => [type, (_: unknown, params: unknown) => void log.push(params === undefined ? { type } : { type, params })]),
  ) as Record<(typeof engineActions)[number], (_: unknown, params: any) => void>;
  const actor = createActor(classCodeMachine.provide({ actions }), { input }).start();
  return { actor, log };
}

/**
 * The harness walks events only, so it never marks the `always` transitions of `init`; the one taken at start is the
 * one whose target the machine starts in.
 */
function startTransitions(machine: AnyStateMachine, input: unknown): string[] {
  const [snapshot] = initialTransition(machine, input);
  const target = `${machine.id}.${String(snapshot.value)}`;
  return allTransitions(machine)
    .filter((t) => t.event === '(always)' && t.targets.includes(target))
    .map((t) => t.key);
}

const events = MODELS.classCode.events;

const inputs = MODELS.classCode.inputs;
const plans = inputs.map((input) => ({ input, plan: planTransitionWalk(classCodeMachine, { events, input }) }));

for (const { input, plan } of plans) {
  describe(`classCode machine: every transition (storedCode ${JSON.stringify(input.storedCode)})`, () => {
    // The start, through one of the `always` transitions of `init`, which the coverage test credits.
    it('starts where the model starts, with the same actions', () => {
      const { actor, log } = startRecorded(input);
      const [expected, actions] = initialTransition(classCodeMachine, input);
      expect(actor.getSnapshot().value).toEqual(expected.value);
      expect(actor.getSnapshot().context).toEqual(expected.context);
      expect(log.map((a) => a.type)).toEqual(actions.map((a) => a.type).filter((t) => !t.startsWith('xstate.')));
    });
    for (const c of plan.cases) {
      it(c.description, async () => {
        const { actor, log } = startRecorded(input);
        await c.run(
          (expected, _step, actions) => {
            expect(actor.getSnapshot().value).toEqual(expected.value);
            expect(actor.getSnapshot().context).toEqual(expected.context);
            expect(log.map((a) => a.type)).toEqual(actions);
            log.length = 0;
          },
          { send: (e) => actor.send(e), stop: () => actor.stop() },
        );
      });
    }
  });
}

describe('classCode machine: coverage', () => {
  it('covers 100% of transitions over both start inputs', () => {
    const covered = new Set<string>();
    for (const { input, plan } of plans) {
      console.log(plan.summary);
      plan.covered.forEach((k) => covered.add(k));
      startTransitions(classCodeMachine, input).forEach((k) => covered.add(k));
    }
    const total = allTransitions(classCodeMachine);
    const uncovered = total.filter((t) => !covered.has(t.key));
    console.log(`classCode (both inputs, start transitions included): ${total.length - uncovered.length}/${total.length} transitions covered`);
    expect(uncovered).toEqual([]);
  });
});

describe('classCode rules', () => {
  it('accepts exactly 8 alphanumeric characters', () => {
    expect(isValidClassCode('ABCD1234')).toBe(true);
    expect(isValidClassCode('abcd1234')).toBe(true);
    expect(isValidClassCode('ABCD123')).toBe(false);
    expect(isValidClassCode('ABCD12345')).toBe(false);
    expect(isValidClassCode('ABCD 123')).toBe(false);
    expect(isValidClassCode('')).toBe(false);
  });

  it('normalizes input to upper case and at most 8 characters', () => {
    expect(normalizeClassCode('abcd1234xyz')).toBe('ABCD1234');
    expect(normalizeClassCode('ab')).toBe('AB');
  });

  it('takes features from the user, else the visitor check, else none', () => {
    const visitor = { groupCodeValid: true, features: ['audio'] };
    expect(resolveFeatures({ features: ['decode'] }, visitor)).toEqual(['decode']);
    expect(resolveFeatures(null, visitor)).toEqual(['audio']);
    expect(resolveFeatures(null, { groupCodeValid: false, features: ['audio'] })).toEqual([]);
    expect(resolveFeatures(null, null)).toEqual([]);
  });
});

describe('classCode machine: behaviour', () => {
  it('starts active with a stored code, else none', () => {
    expect(startRecorded({ storedCode: 'STORED01' }).actor.getSnapshot().value).toBe('active');
    expect(startRecorded({ storedCode: null }).actor.getSnapshot().value).toBe('none');
    expect(startRecorded({ storedCode: '' }).actor.getSnapshot().value).toBe('none');
  });

  it('ignores an invalid code from the form', () => {
    const { actor, log } = startRecorded({ storedCode: null });
    actor.send({ type: 'classCode.submit', code: 'ABC123', source: 'form' });
    expect(actor.getSnapshot().value).toBe('none');
    expect(log).toEqual([]);
  });

  it('verifies a valid form code upper-cased, then stores it and shows "Class Code Accepted"', () => {
    const { actor, log } = startRecorded({ storedCode: null });
    actor.send({ type: 'classCode.submit', code: 'abcd1234', source: 'form' });
    expect(log).toEqual([{ type: 'verifyClassCode', params: { code: 'ABCD1234', source: 'form' } }]);
    log.length = 0;
    actor.send({ type: 'classCode.verified' });
    expect(actor.getSnapshot().value).toBe('active');
    expect(actor.getSnapshot().context.code).toBe('ABCD1234');
    expect(log).toEqual([
      { type: 'storeClassCode', params: { code: 'ABCD1234' } },
      { type: 'showToast', params: { kind: 'success', message: 'Class Code Accepted' } },
    ]);
  });

  it("submits the reader's group-code text verbatim, with no client check", () => {
    const { actor, log } = startRecorded({ storedCode: null });
    actor.send({ type: 'classCode.submit', code: 'short', source: 'reader' });
    expect(actor.getSnapshot().value).toBe('verifying');
    expect(log).toEqual([{ type: 'verifyClassCode', params: { code: 'short', source: 'reader' } }]);
  });

  it('removes a code from the link and verifies it', () => {
    const { actor, log } = startRecorded({ storedCode: null });
    actor.send({ type: 'classCode.fromLink', code: 'LINK0001' });
    expect(actor.getSnapshot().value).toBe('verifying');
    expect(log).toEqual([{ type: 'removeCodeFromAddress' }, { type: 'verifyClassCode', params: { code: 'LINK0001', source: 'link' } }]);
  });

  it('clears an invalid code, an earlier accepted one included, and shows "Invalid Class Code"', () => {
    const { actor, log } = startRecorded({ storedCode: 'STORED01' });
    actor.send({ type: 'classCode.submit', code: 'WRONG123', source: 'form' });
    expect(connectClassCode(actor.getSnapshot(), () => {}).code).toBe('STORED01'); // kept while verifying
    log.length = 0;
    actor.send({ type: 'classCode.rejected' });
    expect(actor.getSnapshot().value).toBe('none');
    expect(actor.getSnapshot().context).toEqual({ code: null, pending: null, lastCheckInvalid: false });
    expect(log).toEqual([{ type: 'clearStoredClassCode' }, { type: 'showToast', params: { kind: 'error', message: 'Invalid Class Code' } }]);
  });

  it('clears the stored code when a later visitor check says it is invalid', () => {
    const { actor, log } = startRecorded({ storedCode: 'STORED01' });
    actor.send({ type: 'classCode.invalidated' });
    expect(actor.getSnapshot().value).toBe('none');
    expect(log).toEqual([{ type: 'clearStoredClassCode' }, { type: 'showToast', params: { kind: 'error', message: 'Invalid Class Code' } }]);
  });

  it("marks the code with '!' when a visitor check fails with an API error, until one passes", () => {
    const { actor, log } = startRecorded({ storedCode: 'STORED01' });
    const api = () => connectClassCode(actor.getSnapshot(), (e) => actor.send(e));
    expect(api().menuLabel).toBe('Class Code: STORED01');
    actor.send({ type: 'classCode.checkFailed', message: 'Service unavailable' });
    expect(api().menuLabel).toBe('Class Code: STORED01!');
    expect(log).toEqual([{ type: 'showToast', params: { kind: 'error', message: 'Service unavailable' } }]);
    actor.send({ type: 'classCode.checkPassed' });
    expect(api().menuLabel).toBe('Class Code: STORED01');
  });

  it('signing in clears the class code from any state', () => {
    for (const setupEvents of [[], [{ type: 'classCode.submit', code: 'ABCD1234', source: 'form' }]] as ClassCodeEvent[][]) {
      const { actor, log } = startRecorded({ storedCode: 'STORED01' });
      setupEvents.forEach((e) => actor.send(e));
      log.length = 0;
      actor.send({ type: 'auth.signedIn' });
      expect(actor.getSnapshot().value).toBe('none');
      expect(actor.getSnapshot().context.code).toBeNull();
      expect(log).toEqual([{ type: 'clearStoredClassCode' }]);
    }
  });

  it('connect exposes the code, the form check and the commands', () => {
    const { actor, log } = startRecorded({ storedCode: null });
    const api = () => connectClassCode(actor.getSnapshot(), (e) => actor.send(e));
    expect(api()).toMatchObject({ code: null, hasCode: false, isVerifying: false, menuLabel: null });
    expect(api().isValidInput('ABCD123')).toBe(false);
    expect(api().isValidInput('ABCD1234')).toBe(true);
    api().submit('abcd1234');
    expect(api().isVerifying).toBe(true);
    actor.send({ type: 'classCode.verified' });
    expect(api()).toMatchObject({ code: 'ABCD1234', hasCode: true, isVerifying: false, menuLabel: 'Class Code: ABCD1234' });
    log.length = 0;
    api().clear();
    expect(api().hasCode).toBe(false);
    expect(log).toEqual([{ type: 'clearStoredClassCode' }]);
  });
});
