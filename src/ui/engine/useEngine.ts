/**
 * The engine's React binding for the screens in its own chunk (reader, listen, teaser, role modal): they create
 * the engine at once, attach it to the one store (store.ts), select slices of its snapshot (shallow equality by
 * default) and send events: to the engine, or to the child a view shows (useChildSend).
 */
import { useCallback } from 'react';
import type { ReaderEngineChildEvent, ReaderEngineChildren, ReaderEngineEvent, ReaderEngineSnapshot } from '../../engine/createReaderEngine';
import { getEngine } from './engine';
import { attachEngine, childOf, useEngineView, shallowEqual } from './store';

export { shallowEqual };

export function useEngine<T>(selector: (snapshot: ReaderEngineSnapshot) => T, isEqual: (a: T, b: T) => boolean = shallowEqual): T {
  const engine = attachEngine(getEngine());
  return useEngineView((snapshot) => selector(snapshot ?? engine.getSnapshot()), isEqual);
}

export function useEngineSend(): (event: ReaderEngineEvent) => void {
  const engine = attachEngine(getEngine());
  return useCallback((event: ReaderEngineEvent) => engine.send(event), [engine]);
}

/**
 * A view's send to the child it shows (by systemId, e.g. 'column.primary'): its events go to that machine, not
 * through the root. The child is looked up at each send, so a child started again (highlightDecode, listen) is reached.
 */
export function useChildSend<K extends keyof ReaderEngineChildren>(systemId: K): (event: ReaderEngineChildEvent<K>) => void {
  const engine = attachEngine(getEngine());
  return useCallback((event: ReaderEngineChildEvent<K>) => childOf(engine, systemId)?.send(event), [engine, systemId]);
}
