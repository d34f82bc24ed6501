/**
 * The one wait on a narration being made (SPEC §7: a narration route answers 202 `{status:'generating'}` until the
 * audio exists, with Retry-After: 1). `waitForNarration` asks, and while the answer is 'generating' waits on the
 * clock it is given and asks again, up to a number of asks. The player's narration load, a tapped word's narration
 * and the offline download all wait through it. It reaches for no global timer: the caller passes its clock, and
 * an abort signal that stops the wait.
 */

/** The timer half of a clock (the engine's ClockPort fits). */
export interface PollClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How long to wait before asking again while the server answers 'generating' (it sends Retry-After: 1). @default 1000 */
export const NARRATION_POLL_MS = 1000;
/** How many times the reader asks for a narration before it gives up (about 15 s at NARRATION_POLL_MS). @default 15 */
export const NARRATION_MAX_POLLS = 15;

/** The message of a narration that was still being made when the asks ran out. */
export const NARRATION_STILL_GENERATING = 'Audio is still being generated';

/** A 'generating' answer that brings the head of the narration (`partial`): it can play while the rest is made. */
export function hasPartial(answer: unknown): boolean {
  return isGenerating(answer) && typeof (answer as { partial?: unknown }).partial === 'object' && (answer as { partial?: unknown }).partial !== null;
}

/** An answer that says the narration is still being made. */
export function isGenerating(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === 'generating';
}

export interface NarrationPollOptions {
  clock: PollClock;
  /** Stops the wait: the pending timer is cleared and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** @default NARRATION_POLL_MS */
  intervalMs?: number;
  /** Asks in all, the first included. @default NARRATION_MAX_POLLS */
  maxAsks?: number;
  /** A 'generating' answer that ends the wait all the same (one that brings the head of the narration). */
  accept?: (answer: unknown) => boolean;
}

/** Resolves after `ms` on `clock`; rejects with the signal's reason when it aborts first. */
function pause(clock: PollClock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Asks with `ask` until the answer is not 'generating', waiting `intervalMs` on `clock` between two asks. Resolves
 * with the first answer that is not 'generating', or with the last 'generating' one once `maxAsks` asks are spent:
 * the caller decides what a narration still being made means (the reader fails, a download stores the title
 * without it). A failed ask rejects at once.
 */
export async function waitForNarration<T>(ask: () => Promise<T>, options: NarrationPollOptions): Promise<T> {
  const { clock, signal, intervalMs = NARRATION_POLL_MS, maxAsks = NARRATION_MAX_POLLS, accept } = options;
  for (let asked = 1; ; asked++) {
    signal?.throwIfAborted();
    const answer = await ask();
    if (!isGenerating(answer) || asked >= maxAsks || accept?.(answer)) return answer;
    await pause(clock, intervalMs, signal);
  }
}
