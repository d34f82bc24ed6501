/**
 * The React binding: views select a slice of the engine's snapshot and send events. Re-renders happen only when
 * the selected slice changes (shallow equality by default).
 */
import { useCallback } from 'react';
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import type { ReaderEngineEvent, ReaderEngineSnapshot } from '../../engine/createReaderEngine';
import { getEngine } from './engine';

export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function useEngine<T>(selector: (snapshot: ReaderEngineSnapshot) => T, isEqual: (a: T, b: T) => boolean = shallowEqual): T {
  const engine = getEngine();
  return useSyncExternalStoreWithSelector(engine.subscribe, engine.getSnapshot, engine.getSnapshot, selector, isEqual);
}

export function useEngineSend(): (event: ReaderEngineEvent) => void {
  const engine = getEngine();
  return useCallback((event: ReaderEngineEvent) => engine.send(event), [engine]);
}
