import { describe, expect, it } from 'vitest';
import { inSlices, nextTask } from '../../src/ui/platform/tasks';

describe('start-up in slices (src/ui/platform/tasks.ts)', () => {
  it('nextTask resolves after the current task, not within its microtasks', async () => {
    const order: string[] = [];
    const task = nextTask().then(() => order.push('next task'));
    await Promise.resolve();
    order.push('microtask');
    setTimeout(() => order.push('timer queued after'), 0);
    await task;
    expect(order).toEqual(['microtask', 'next task']);
  });

  it('inSlices runs each step in order, a task apart, and resolves with the last step', async () => {
    const order: string[] = [];
    // A timer the first step queues runs before the second step: the steps do not share a task.
    const result = inSlices(
      [
        () => {
          order.push('step 1');
          setTimeout(() => order.push('between'), 0);
        },
        async () => order.push('step 2'),
      ],
      () => {
        order.push('last');
        return 42;
      },
    );
    expect(order).toEqual(['step 1']);
    await expect(result).resolves.toBe(42);
    expect(order).toEqual(['step 1', 'between', 'step 2', 'last']);
  });

  it('a failing step rejects and stops the later ones', async () => {
    const order: string[] = [];
    const result = inSlices(
      [
        () => {
          throw new Error('chunk failed to load');
        },
        () => order.push('step 2'),
      ],
      () => order.push('last'),
    );
    await expect(result).rejects.toThrow('chunk failed to load');
    expect(order).toEqual([]);
  });
});
