import { useLayoutEffect, useRef } from 'react';

/** A ref that always holds the latest value, for effects that must read current state without re-running. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
