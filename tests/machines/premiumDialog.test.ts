import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { connectPremiumDialog } from '../../src/domain/locks';
import { premiumDialogMachine } from '../../src/machines/premiumDialog';
import { planTransitionWalk } from './harness';
import { MODELS } from './models';

const model = MODELS.premiumDialog;
const plan = planTransitionWalk(premiumDialogMachine, { events: model.events, input: undefined, serializeState: model.serializeState });

describe('premiumDialog machine: every transition', () => {
  for (const c of plan.cases) {
    it(c.description, async () => {
      const actor = createActor(premiumDialogMachine).start();
      await c.run(
        (expected) => {
          expect(actor.getSnapshot().value).toEqual(expected.value);
          expect(actor.getSnapshot().context).toEqual(expected.context);
        },
        { send: (event) => actor.send(event), stop: () => actor.stop() },
      );
    });
  }
  it('covers 100% of transitions', () => {
    console.log(plan.summary);
    expect(plan.uncovered).toEqual([]);
  });
});

describe('premiumDialog machine: rules', () => {
  const dialog = (actor: ReturnType<typeof createActor<typeof premiumDialogMachine>>) =>
    connectPremiumDialog(actor.getSnapshot().context.feature ? { feature: actor.getSnapshot().context.feature! } : null, (e) => actor.send(e));

  it("opens for a feature ('Unlock Premium Audio') and closes when the reader it was opened in closes", () => {
    const actor = createActor(premiumDialogMachine).start();
    actor.send({ type: 'premiumDialog.open', feature: 'Audio' });
    expect(dialog(actor)).toMatchObject({ isOpen: true, title: 'Unlock Premium Audio' });
    actor.send({ type: 'reader.closed' });
    expect(dialog(actor).isOpen).toBe(false);
  });

  it("the dialog that says why a premium title could not be opened stays as the reader leaves; Close closes it", () => {
    const actor = createActor(premiumDialogMachine).start();
    actor.send({ type: 'premiumDialog.refused', feature: 'Novels' });
    actor.send({ type: 'reader.closed' });
    expect(dialog(actor)).toMatchObject({ isOpen: true, title: 'Unlock Premium Novels' });
    dialog(actor).close();
    expect(dialog(actor).isOpen).toBe(false);
  });
});
