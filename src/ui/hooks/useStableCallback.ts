import { useCallback } from 'react';
import { useLatest } from './useLatest';

/**
 * A function whose identity never changes and that calls the latest `fn`. Memoized views take these as props, so
 * a parent's render (a page turn) does not re-render a toolbar whose own facts did not change.
 */
export function useStableCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const latest = useLatest(fn);
  return useCallback((...args: A) => latest.current(...args), [latest]);
}
