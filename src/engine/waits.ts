/**
 * Promise-shaped waits on the clock port, all cancelled together: the audio drivers poll the server through
 * 202 'generating' answers with these, and clear every pending wait when they stop or reset.
 */
import type { ClockPort, TimerHandle } from './ports';

export interface Waits {
  /** Resolves after `ms` on the clock port, unless cleared first (then it never resolves). */
  wait(ms: number): Promise<void>;
  /** Cancel every pending wait. */
  clear(): void;
}

export function createWaits(clock: ClockPort): Waits {
  const timers = new Set<TimerHandle>();
  return {
    wait: (ms) =>
      new Promise((resolve) => {
        const handle = clock.setTimeout(() => {
          timers.delete(handle);
          resolve();
        }, ms);
        timers.add(handle);
      }),
    clear() {
      for (const t of timers) clock.clearTimeout(t);
      timers.clear();
    },
  };
}
