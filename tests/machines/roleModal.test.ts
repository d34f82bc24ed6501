import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { connectRoleModal, type RoleModalInput, type UserRole } from '../../src/machines/roleModal';
import { MODELS } from './models';
import { planTransitionWalk } from './harness';

const engineActions = ['logRoleUpdateFailed', 'storeClosedFlag', 'resetClosedFlag'] as const;
type Recorded = { type: (typeof engineActions)[number] | 'updateRole'; params?: unknown };

/**
 * The machine with its engine-provided actions replaced by recorders. Its role update is the walk model's (never
 * settling: its answers are walk events) unless `updateRole` is given; a given one is recorded in the same log.
 */
function startRecorded(input: RoleModalInput, updateRole?: (role: UserRole) => Promise<unknown>) {
  const log: Recorded[] = [];
  const actions = Object.fromEntries(
    engineActions.map((type) => [type, (_: unknown, params: unknown) => void log.push(params === undefined ? { type } : { type, params })]),
  ) as Record<(typeof engineActions)[number], (_: unknown, params: any) => void>;
  const actors = updateRole
    ? {
        updateRole: fromPromise<unknown, { role: UserRole }>(({ input: { role } }) => {
          log.push({ type: 'updateRole', params: { role } });
          return updateRole(role);
        }),
      }
    : {};
  const actor = createActor(MODELS.roleModal.machine.provide({ actions, actors }), { input }).start();
  return { actor, log };
}

/** A role update answered when the test says so. */
function server() {
  let answer: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  const updateRole = () => new Promise<void>((resolve, reject) => (answer = { resolve, reject }));
  const settle = async (outcome: 'ok' | { error: unknown }) => {
    if (outcome === 'ok') answer!.resolve();
    else answer!.reject(outcome.error);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { updateRole, settle };
}

const events = MODELS.roleModal.events;

// Both inputs start hidden; they differ in whether a loaded user without a role opens the modal.
const inputs = MODELS.roleModal.inputs;

for (const input of inputs) {
  const plan = planTransitionWalk(MODELS.roleModal.machine, { events, input });
  describe(`roleModal machine: every transition (closedBefore ${input.closedBefore})`, () => {
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
    it('covers 100% of transitions', () => {
      console.log(plan.summary);
      expect(plan.uncovered).toEqual([]);
    });
  });
}

describe('roleModal machine: behaviour', () => {
  it('shows only for a user without a role who has not closed it before', () => {
    for (const [closedBefore, hasRole, open] of [
      [false, false, true],
      [false, true, false],
      [true, false, false],
    ] as const) {
      const { actor } = startRecorded({ closedBefore });
      actor.send({ type: 'user.loaded', hasRole });
      expect(connectRoleModal(actor.getSnapshot(), () => {}).isOpen).toBe(open);
    }
  });

  it('saves the picked role, staying open until saved', async () => {
    const { updateRole, settle } = server();
    const { actor, log } = startRecorded({ closedBefore: false }, updateRole);
    const api = () => connectRoleModal(actor.getSnapshot(), (e) => actor.send(e));
    actor.send({ type: 'user.loaded', hasRole: false });
    api().pick('TEACHER');
    expect(api()).toMatchObject({ isOpen: true, isSaving: true });
    expect(log).toEqual([{ type: 'updateRole', params: { role: 'TEACHER' } }]);
    await settle('ok');
    expect(api().isOpen).toBe(false);
  });

  it("logs 'Failed to update user role' and stays open when the update fails", async () => {
    const { updateRole, settle } = server();
    const { actor, log } = startRecorded({ closedBefore: false }, updateRole);
    actor.send({ type: 'user.loaded', hasRole: false });
    actor.send({ type: 'role.pick', role: 'INDIVIDUAL' });
    log.length = 0;
    await settle({ error: 'HTTP 500' });
    const api = connectRoleModal(actor.getSnapshot(), () => {});
    expect(api).toMatchObject({ isOpen: true, isSaving: false });
    expect(log).toEqual([{ type: 'logRoleUpdateFailed', params: { message: 'Failed to update user role', error: 'HTTP 500' } }]);
  });

  it('dismissing stores the closed flag, so it does not show again until sign-out', () => {
    const { actor, log } = startRecorded({ closedBefore: false });
    actor.send({ type: 'user.loaded', hasRole: false });
    connectRoleModal(actor.getSnapshot(), (e) => actor.send(e)).dismiss();
    expect(log).toEqual([{ type: 'storeClosedFlag' }]);
    actor.send({ type: 'user.loaded', hasRole: false });
    expect(actor.getSnapshot().value).toBe('hidden');
    log.length = 0;
    actor.send({ type: 'auth.signedOut' });
    expect(log).toEqual([{ type: 'resetClosedFlag' }]);
    actor.send({ type: 'user.loaded', hasRole: false });
    expect(actor.getSnapshot().value).toBe('shown');
  });

  it('connect gives the spec texts', () => {
    const { actor } = startRecorded({ closedBefore: false });
    expect(connectRoleModal(actor.getSnapshot(), () => {})).toMatchObject({
      isOpen: false,
      isSaving: false,
      title: 'Personalize Your Experience',
      prompt: 'How are you using the product?',
      options: [
        { role: 'TEACHER', label: "I'm a Teacher" },
        { role: 'INDIVIDUAL', label: "I'm a Reader" },
      ],
    });
  });
});
