/**
 * Work for when the browser is idle: the chunks of the parts a screen has not shown yet (its menus, dialogs and
 * panels), fetched one at a time, each in an idle period of its own, so that none of them competes with the
 * screen's start-up and a part the reader then asks for opens without a wait (docs/decisions.md "What the reader
 * fetches later").
 */

/** The longest an idle step waits for an idle period before it runs anyway. */
const IDLE_TIMEOUT_MS = 3000;

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
 * Runs the steps in order, each in an idle period after the previous one has settled (a failed fetch is left for
 * the part itself to retry when it is shown). Returns a cancel that stops the steps not yet started.
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
  runFrom(0);
  return () => {
    cancelled = true;
    cancelNext();
  };
}
