/**
 * A part of a screen in a chunk of its own, fetched when it is first shown or when `preload` is called (an idle
 * prefetch, a pointer over the control that shows it). Once its module is there it renders at once, without
 * suspending: a part prefetched while the browser was idle opens in the same frame as the press that asks for it.
 */
import { createElement, lazy, type ComponentType } from 'react';

export type LazyPart<P extends object> = ComponentType<P> & {
  /** Fetches and evaluates the part's module; the same promise on every call until one fails. */
  preload: () => Promise<unknown>;
};

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        // A failed fetch is forgotten, so the part's first render (or the next preload) tries again.
        pending = null;
        throw error;
      },
    ));
  const Suspending = lazy(preload);
  function Part(props: P) {
    return createElement((loaded ?? Suspending) as ComponentType<P>, props);
  }
  return Object.assign(Part, { preload });
}
