/**
 * Work for when the browser is idle: the chunks of the parts a screen has not shown yet (its menus, dialogs and
 * panels), fetched one at a time, each in an idle period of its own, once the screen's start-up is over, so that
 * none of them competes with it and a part the reader then asks for opens without a wait (docs/decisions.md "What
 * the reader fetches later").
 */

/** The longest an idle step waits for an idle period before it runs anyway. */
const IDLE_TIMEOUT_MS = 3000;

/**
 * How long the main thread must have been free of long tasks (50 ms or more) before the prefetch starts. Right
 * after a screen's first render the browser is idle only between the start-up's last tasks (deferred renders, the
 * engine's steps, fonts, the service worker): a chunk evaluated there is one more long task on a slow CPU, and the
 * screen is interactive later (bench/readerStartup.ts at a 6x CPU slowdown: the prefetch began 30 ms after the
 * reader showed its passage, with long tasks of the start-up still to come).
 */
export const QUIET_MS = 2500;
/** Where long tasks cannot be observed: how long after the call the prefetch waits instead. */
const FALLBACK_SETTLE_MS = 4000;
/** How often the quiet is checked at most. */
const CHECK_MS = 500;

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Calls `run` in the browser's next idle period (a timer where there is no requestIdleCallback); returns a cancel. */
export function onIdle(run: () => void): () => void {
  const w = window as IdleWindow;
  if (typeof w.requestIdleCallback === 'function') {
    const handle = w.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => w.cancelIdleCallback?.(handle);
  }
  const handle = window.setTimeout(run, 200);
  return () => window.clearTimeout(handle);
}

/**
 * Calls `run` in an idle period once the main thread has had no long task for QUIET_MS (Chromium's long-task
 * timing; elsewhere, FALLBACK_SETTLE_MS after the call); returns a cancel.
 */
export function afterStartup(run: () => void): () => void {
  let cancelIdle = () => {};
  let timer = 0;
  let lastBusy = performance.now();
  let observer: PerformanceObserver | null = null;
  try {
    observer = new PerformanceObserver((list) => {
      for (const task of list.getEntries()) lastBusy = Math.max(lastBusy, task.startTime + task.duration);
    });
    observer.observe({ type: 'longtask', buffered: true });
  } catch {
    observer = null;
  }
  const settle = observer ? QUIET_MS : FALLBACK_SETTLE_MS;
  const check = () => {
    const wait = settle - (performance.now() - lastBusy);
    if (wait > 0) {
      timer = window.setTimeout(check, Math.max(wait, CHECK_MS));
      return;
    }
    observer?.disconnect();
    cancelIdle = onIdle(run);
  };
  timer = window.setTimeout(check, CHECK_MS);
  return () => {
    window.clearTimeout(timer);
    observer?.disconnect();
    cancelIdle();
  };
}

/**
 * Runs the steps in order once the start-up is over (`afterStartup`), each in an idle period after the previous
 * one has settled (a failed fetch is left for the part itself to retry when it is shown). Returns a cancel that
 * stops the steps not yet started.
 */
export function inIdlePeriods(steps: readonly (() => Promise<unknown>)[]): () => void {
  let cancelled = false;
  let cancelNext = () => {};
  const runFrom = (index: number) => {
    if (cancelled || index >= steps.length) return;
    cancelNext = onIdle(() => {
      if (cancelled) return;
      steps[index]().then(
        () => runFrom(index + 1),
        () => runFrom(index + 1),
      );
    });
  };
  cancelNext = afterStartup(() => runFrom(0));
  return () => {
    cancelled = true;
    cancelNext();
  };
}
