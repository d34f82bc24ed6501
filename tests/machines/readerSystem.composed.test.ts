/**
 * The reader system's composed paths (tests/machines/readerSystem.paths.ts), each run on the engine with its real
 * children, fakes only at the ports and a simulated clock (tests/support/composedSystem.ts): every step is done
 * on the engine's public surface and its expectation checked on what the reader then sees.
 */
import { describe, expect, it } from 'vitest';
import { createComposedSystem } from '../support/composedSystem';
import { COMPOSED_PATHS } from './readerSystem.paths';

describe('reader system: composed paths with its real children', () => {
  for (const path of COMPOSED_PATHS) {
    it(path.name, async () => {
      const sys = createComposedSystem();
      try {
        for (const [i, step] of path.steps.entries()) {
          await step.do(sys);
          await sys.settle();
          try {
            step.expect(sys, expect);
          } catch (error) {
            // Name the step that failed, as QA reads it.
            if (error instanceof Error) error.message = `step ${i + 1}, '${step.say}' (expected: ${step.expectSay})\n${error.message}`;
            throw error;
          }
        }
        expect(sys.errors).toEqual([]);
      } finally {
        sys.stop();
      }
    });
  }

  it('every path has steps, each saying what to do and what to see', () => {
    expect(COMPOSED_PATHS.length).toBeGreaterThanOrEqual(7);
    for (const path of COMPOSED_PATHS) {
      expect(path.steps.length, path.name).toBeGreaterThan(0);
      for (const step of path.steps) expect(step.say && step.expectSay, path.name).toBeTruthy();
    }
  });
});
