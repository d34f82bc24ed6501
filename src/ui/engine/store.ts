/**
 * The one way the views reach the engine: this store holds the app's engine once it has loaded (a lazy chunk the
 * catalog's entry JS does not carry), views read slices of its snapshot with `useEngineView`, and every event goes
 * through `sendToEngine` (the root's) or `sendToEngineChild` (a child's, by its systemId), which load the engine
 * first when no screen has yet. Screens inside the engine's own chunk use `useEngine`/`useEngineSend`/`useChildSend`
 * (useEngine.ts), which attach the engine here synchronously.
 */
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import type { ReaderEngine, ReaderEngineChildEvent, ReaderEngineChildren, ReaderEngineEvent, ReaderEngineSnapshot } from '../../engine/createReaderEngine';
import { inSlices } from '../platform/tasks';

let engine: ReaderEngine | null = null;
let loading: Promise<ReaderEngine> | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Make `started` the app's engine (once); the views subscribed here follow it from then on. */
export function attachEngine(started: ReaderEngine): ReaderEngine {
  if (engine) return engine;
  engine = started;
  // The engine lives as long as the page, and so does this one forwarding subscription.
  engine.subscribe(notify);
  notify();
  return engine;
}

/**
 * Load and start the app's engine (once), each step in a task of its own: zod, the schemas of the stored settings
 * the engine reads, xstate and the reader system's child machines, the engine's own code, and its start. Evaluated
 * in one task they held the reader's main thread for ~170 ms at a 4× CPU slowdown (docs/performance.md "Ninth
 * session"). All of it is fetched at once (with the screen's views, routes.tsx); only the evaluation is spread.
 */
export function loadEngine(): Promise<ReaderEngine> {
  loading ??= inSlices(ENGINE_STEPS, () => import('./engine').then(({ getEngine }) => attachEngine(getEngine())));
  return loading;
}

/** The modules `loadEngine` evaluates one task after another, before the engine's start. */
const ENGINE_STEPS = [
  () => import('../../domain/levelSchema'),
  () => import('../../domain/settings'),
  () => import('../../machines/readerSystem/readerSystem.children'),
  () => import('./engine'),
];

/** Send an event to the app's engine, loading it first when needed. */
export function sendToEngine(event: ReaderEngineEvent): Promise<void> {
  return loadEngine().then((loaded) => loaded.send(event));
}

/** Send an event to a child of the engine (by its systemId), loading the engine first when needed. */
export function sendToEngineChild<K extends keyof ReaderEngineChildren>(systemId: K, event: ReaderEngineChildEvent<K>): Promise<void> {
  return loadEngine().then((loaded) => childOf(loaded, systemId)?.send(event));
}

/** The engine's child by systemId, as the sender of its own events (a child not running yet is undefined). */
export function childOf<K extends keyof ReaderEngineChildren>(loaded: ReaderEngine, systemId: K): { send(event: ReaderEngineChildEvent<K>): void } | undefined {
  return loaded.getChild(systemId) as unknown as { send(event: ReaderEngineChildEvent<K>): void } | undefined;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The engine's snapshot, or null until it has loaded. */
export function getEngineSnapshot(): ReaderEngineSnapshot | null {
  return engine?.getSnapshot() ?? null;
}

export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A slice of the engine's snapshot (null before it loads), re-rendering only when the slice changes. */
export function useEngineView<T>(selector: (snapshot: ReaderEngineSnapshot | null) => T, isEqual: (a: T, b: T) => boolean = shallowEqual): T {
  return useSyncExternalStoreWithSelector(subscribe, getEngineSnapshot, getEngineSnapshot, selector, isEqual);
}

/** Test helper: forget the loaded engine. */
export function resetEngineStoreForTests(): void {
  engine = null;
  loading = null;
}
