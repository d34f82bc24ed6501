/**
 * Start-up work in slices: each step of a screen's loading runs in a task of its own, so no single task holds the
 * main thread for the whole of it (Lighthouse's total blocking time counts every task's time over 50 ms;
 * docs/performance.md "Ninth session").
 */

/** Resolves in a later task: the browser may paint and handle input in between. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Runs each step in a task of its own, in order, and resolves with the last step's result. */
export async function inSlices<T>(steps: readonly (() => unknown)[], last: () => T | Promise<T>): Promise<T> {
  for (const step of steps) {
    await step();
    await nextTask();
  }
  return last();
}
