import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { COPY_CONFIRMATION_MS } from '../../src/domain/constants';
import { connectCopyLink, copyLinkMachine, type CopyLinkEvent } from '../../src/machines/copyLink';
import { MODELS } from './models';
import { planTransitionWalk, timedSend } from './harness';

const engineActions = ['trackCopiedMagicLink', 'showToast'] as const;
type Recorded = { type: (typeof engineActions)[number]; params?: unknown };

/** The machine with its engine-provided actions replaced by recorders. */
function startRecorded() {
  const log: Recorded[] = [];
  const actions = Object.fromEntries(
    engineActions.map((type) => [type, (_: unknown, params: unknown) => void log.push(params === undefined ? { type } : { type, params })]),
  ) as Record<(typeof engineActions)[number], (_: unknown, params: any) => void>;
  const clock = new SimulatedClock();
  const actor = createActor(copyLinkMachine.provide({ actions }), { clock }).start();
  return { actor, log, clock, send: timedSend(copyLinkMachine, actor, clock) };
}

const events = MODELS.copyLink.events;
const plan = planTransitionWalk(copyLinkMachine, { events });

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
  it("tracks the copy, toasts, and reads 'Copied!' until the confirmation ends", () => {
    const { actor, log } = startRecorded();
    const api = () => connectCopyLink(actor.getSnapshot(), (e) => actor.send(e));
    expect(api()).toEqual({ isCopied: false, buttonLabel: 'Copy Link' });
    actor.send({ type: 'copy.succeeded' });
    expect(api()).toEqual({ isCopied: true, buttonLabel: 'Copied!' });
    expect(log).toEqual([
      { type: 'trackCopiedMagicLink' },
      { type: 'showToast', params: { kind: 'success', message: 'Magic link copied to clipboard!' } },
    ]);
    actor.send({ type: 'copy.confirmationDone' });
    expect(api().buttonLabel).toBe('Copy Link');
  });

  it(`reads 'Copied!' for ${COPY_CONFIRMATION_MS} ms on the clock, restarted by another copy`, () => {
    const { actor, clock } = startRecorded();
    actor.send({ type: 'copy.succeeded' });
    clock.increment(COPY_CONFIRMATION_MS - 1);
    actor.send({ type: 'copy.succeeded' });
    clock.increment(COPY_CONFIRMATION_MS - 1);
    expect(actor.getSnapshot().value).toBe('copied');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it("shows 'Failed to copy link' when the copy fails", () => {
    const { actor, log } = startRecorded();
    actor.send({ type: 'copy.succeeded' });
    log.length = 0;
    actor.send({ type: 'copy.failed' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(log).toEqual([{ type: 'showToast', params: { kind: 'error', message: 'Failed to copy link' } }]);
  });
});
