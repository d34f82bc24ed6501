/**
 * The reader system's generated composed paths (tests/machines/readerSystem.generated.ts), on the engine with its
 * real children, fakes only at the ports and a simulated clock: together they take every transition of the root
 * machine; each replays as generated, step by step (what the reader sees, the root transitions taken), with no
 * error logged and the invariants holding after every step.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { readerSystemMachine } from '../../src/machines/readerSystem';
import type { ComposedSystem } from '../support/composedSystem';
import { brokenInvariants, coveredBy, generatePaths, PALETTE, readerSees, replay, rootTransitionKeys, stateKeyOf, type Generation } from './readerSystem.generated';

/** The root transitions no path takes. */
const uncovered = (generation: Generation, keys: string[]) => {
  const covered = coveredBy(generation.paths);
  return keys.filter((key) => !covered.has(key));
};

describe('reader system: generated composed paths with its real children', () => {
  let generation: Generation;
  beforeAll(async () => {
    generation = await generatePaths();
  }, 120_000);

  it('the generated paths take every transition of the root machine', () => {
    expect(rootTransitionKeys().length).toBeGreaterThan(20);
    expect(uncovered(generation, rootTransitionKeys())).toEqual([]);
  });

  it('a root transition no path takes is reported', () => {
    // The same root with one more event: the coverage check names the transition the paths never take.
    const config = readerSystemMachine.config as { on: Record<string, unknown> };
    const wider = createMachine({ ...readerSystemMachine.config, on: { ...config.on, 'reader.unknown': { target: '.closed' } } } as never);
    expect(uncovered(generation, rootTransitionKeys(wider))).toEqual(['readerSystem --reader.unknown#0--> readerSystem.closed']);
  });

  it('each path replays as generated: what the reader sees and the root transitions, with no error and every invariant', async () => {
    expect(generation.paths.length).toBeGreaterThan(10);
    for (const [p, path] of generation.paths.entries()) {
      let logged = 0;
      await replay(
        path.steps.map((s) => s.action),
        (sys, i, taken) => {
          const step = path.steps[i];
          const where = `path ${p + 1}, step ${i + 1} '${step.say}'`;
          expect(readerSees(sys), where).toBe(step.sees);
          expect(taken, where).toEqual(step.transitions);
          const problems = [...sys.errors.slice(logged).map((e) => `error: ${e}`), ...brokenInvariants(sys)];
          logged = sys.errors.length;
          expect(problems, where).toEqual([]);
        },
      );
    }
  }, 120_000);

  it('paths reach states beyond the first step: a gate opened and then played', () => {
    const actions = generation.paths.map((p) => p.steps.map((s) => s.action).join(' > '));
    expect(actions).toEqual(expect.arrayContaining(['open-gold > sign-in > listen']));
    expect(new Set([stateKeyOf(generation.start), ...generation.paths.flatMap((p) => p.steps.map((s) => stateKeyOf(s.sees)))]).size).toBe(generation.states);
  });

  it('every palette action says what to do and is done in some path or at least offered', () => {
    const used = new Set(generation.paths.flatMap((p) => p.steps.map((s) => s.action)));
    for (const action of PALETTE) expect(action.say, action.id).toMatch(/\.$/);
    expect(used.size).toBeGreaterThan(PALETTE.length / 2);
  });

  it('the invariants catch a player playing a locked column, a wrong narration and an address that names another position', async () => {
    await replay(['open-gold'], (sys) => {
      expect(brokenInvariants(sys)).toEqual([]);
      // What a broken engine would show: the license panel in the column while the player says 'Now Playing' for it.
      const snap = sys.snapshot();
      const playingLocked: ComposedSystem = {
        ...sys,
        player: () => ({ ...sys.player(), label: 'Now Playing' }),
        snapshot: () => ({ ...snap, readerPlayer: { ...snap.readerPlayer, slot: 'primary', status: 'loading', passageId: 102 } }),
      };
      expect(brokenInvariants(playingLocked)).toEqual(["'Now Playing' with narration loading", "'Now Playing' passage 102 is not the passage the primary column shows (position 2)", 'the locked primary column plays']);
    });
    await replay(['open-english'], (sys) => {
      const elsewhere: ComposedSystem = { ...sys, navigation: { ...sys.navigation, current: () => '/fixture/v1/en:gold/3' } };
      expect(brokenInvariants(elsewhere)).toEqual(['the address names passage 3, the session shows 1', 'the address names en:GOLD, the session shows en:ORIGINAL']);
    });
  });
});
