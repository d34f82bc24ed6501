/**
 * The engine's React binding for the screens in its own chunk (reader, listen, teaser, role modal): they create
 * the engine at once, attach it to the one store (store.ts), select slices of its snapshot (shallow equality by
 * default) and send events.
 */
import { useCallback } from 'react';
import type { ReaderEngineEvent, ReaderEngineSnapshot } from '../../engine/createReaderEngine';
import { getEngine } from './engine';
import { attachEngine, useEngineView, shallowEqual } from './store';

export { shallowEqual };

export function useEngine<T>(selector: (snapshot: ReaderEngineSnapshot) => T, isEqual: (a: T, b: T) => boolean = shallowEqual): T {
  const engine = attachEngine(getEngine());
  return useEngineView((snapshot) => selector(snapshot ?? engine.getSnapshot()), isEqual);
}

export function useEngineSend(): (event: ReaderEngineEvent) => void {
  const engine = attachEngine(getEngine());
  return useCallback((event: ReaderEngineEvent) => engine.send(event), [engine]);
}
