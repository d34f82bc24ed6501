import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { COPY_CONFIRMATION_MS } from '../../src/domain/constants';
import { connectCopyLink, copyLinkMachine } from '../../src/machines/copyLink';
import { MODELS } from './models';
import { planTransitionWalk, timedSend } from './harness';

const engineActions = ['trackCopiedMagicLink', 'showToast'] as const;
type Recorded = { type: (typeof engineActions)[number]; params?: unknown };

/**
 * The machine with its engine-provided actions replaced by recorders. Its clipboard write is the walk model's
 * (never settling: its answers are walk events) unless `writeText` is given.
 */
function startRecorded(writeText?: (text: string) => Promise<unknown>) {
  const log: Recorded[] = [];
  const actions = Object.fromEntries(
    engineActions.map((type) => [type, (_: unknown, params: unknown) => void log.push(params === undefined ? { type } : { type, params })]),
  ) as Record<(typeof engineActions)[number], (_: unknown, params: any) => void>;
  const actors = writeText ? { copyText: fromPromise<unknown, { text: string }>(({ input }) => writeText(input.text)) } : {};
  const clock = new SimulatedClock();
  const actor = createActor(MODELS.copyLink.machine.provide({ actions, actors }), { clock }).start();
  return { actor, log, clock, send: timedSend(copyLinkMachine, actor, clock) };
}

/** A clipboard whose writes are recorded and answered when the test says so. */
function clipboard() {
  const written: string[] = [];
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const writeText = (text: string) => {
    written.push(text);
    return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
  };
  const settle = async (outcome: 'ok' | Error) => {
    const next = pending.shift()!;
    if (outcome === 'ok') next.resolve();
    else next.reject(outcome);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { written, writeText, settle };
}

const events = MODELS.copyLink.events;
const plan = planTransitionWalk(MODELS.copyLink.machine, { events });
const link = 'https://lectern.test/c/abcd1234';

describe('copyLink machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const { actor, log, send } = startRecorded();
      await c.run(
        (expected, _step, actions) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(log.map((a) => a.type)).toEqual(actions);
          log.length = 0;
        },
        { send, stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('copyLink machine: behaviour', () => {
  it("writes the link, tracks the copy, toasts, and reads 'Copied!' until the confirmation ends", async () => {
    const { written, writeText, settle } = clipboard();
    const { actor, log } = startRecorded(writeText);
    const api = () => connectCopyLink(actor.getSnapshot(), (e) => actor.send(e));
    expect(api()).toMatchObject({ isCopied: false, buttonLabel: 'Copy Link' });
    api().copy(link);
    expect(written).toEqual([link]);
    expect(log).toEqual([]);
    await settle('ok');
    expect(api()).toMatchObject({ isCopied: true, buttonLabel: 'Copied!' });
    expect(log).toEqual([
      { type: 'trackCopiedMagicLink' },
      { type: 'showToast', params: { kind: 'success', message: 'Magic link copied to clipboard!' } },
    ]);
    actor.send({ type: 'copy.confirmationDone' });
    expect(api().buttonLabel).toBe('Copy Link');
  });

  it(`reads 'Copied!' for ${COPY_CONFIRMATION_MS} ms on the clock, restarted by another copy`, async () => {
    const { writeText, settle } = clipboard();
    const { actor, clock } = startRecorded(writeText);
    actor.send({ type: 'copy.request', text: link });
    await settle('ok');
    clock.increment(COPY_CONFIRMATION_MS - 1);
    actor.send({ type: 'copy.request', text: link });
    await settle('ok');
    clock.increment(COPY_CONFIRMATION_MS - 1);
    expect(actor.getSnapshot().value).toBe('copied');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it("shows 'Failed to copy link' when the copy fails", async () => {
    const { writeText, settle } = clipboard();
    const { actor, log } = startRecorded(writeText);
    actor.send({ type: 'copy.request', text: link });
    await settle('ok');
    log.length = 0;
    actor.send({ type: 'copy.request', text: link });
    await settle(new Error('denied'));
    expect(actor.getSnapshot().value).toBe('idle');
    expect(log).toEqual([{ type: 'showToast', params: { kind: 'error', message: 'Failed to copy link' } }]);
  });

  it('a second copy while one is under way replaces it: only the new write answers', async () => {
    const { written, writeText, settle } = clipboard();
    const { actor, log } = startRecorded(writeText);
    actor.send({ type: 'copy.request', text: 'first' });
    actor.send({ type: 'copy.request', text: 'second' });
    expect(written).toEqual(['first', 'second']);
    await settle('ok'); // the first write answers: its actor was stopped, so nothing happens
    expect(actor.getSnapshot().value).toBe('copying');
    expect(log).toEqual([]);
    await settle('ok');
    expect(actor.getSnapshot().value).toBe('copied');
  });
});
