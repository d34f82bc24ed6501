/**
 * The class code as the views see it (SPEC §4 Class code). The engine's classCode machine owns it; this module
 * only reads its snapshot and sends it events. The engine is a lazy chunk (the catalog's entry JS does not carry
 * it), so until it has loaded the views read the code the machine stored at an earlier visit, which is what the
 * machine itself starts from. The main layout loads the engine after the first paint (`loadEngine`).
 */
import { useSyncExternalStore } from 'react';
import type { ReaderEngine, ReaderEngineEvent } from '../../../engine/createReaderEngine';
import { isValidClassCode } from '../../../machines/classCode/classCode.rules';

/**
 * The engine's storage key for the accepted code (src/engine/settings.ts `storageKey('groupCode')`; a test keeps
 * the two in step). Read here without importing the settings store, which would pull XState into the entry chunk.
 */
export const STORED_CLASS_CODE_KEY = 'lectern.v1.groupCode';

export interface ClassCodeView {
  /** The accepted class code, or null. */
  code: string | null;
  /** The last visitor check of the code failed with an API error (the menu shows '!'). */
  isInvalid: boolean;
  /** A typed or linked code is being checked. */
  isVerifying: boolean;
  /** Features from the engine: the user's, else the visitor check's, else none (SPEC §4 Class code). */
  features: readonly string[];
  /** Whether the engine has loaded (before that the stored code is shown). */
  isReady: boolean;
}

let engine: ReaderEngine | null = null;
let loading: Promise<ReaderEngine> | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Load and start the app's engine (once); views subscribed here follow it from then on. */
export function loadEngine(): Promise<ReaderEngine> {
  loading ??= import('../../engine/engine').then(({ getEngine }) => {
    engine = getEngine();
    // The engine lives as long as the page, and so does this one forwarding subscription.
    engine.subscribe(notify);
    notify();
    return engine;
  });
  return loading;
}

/** Send an event to the engine, loading it first when needed. */
export function sendToEngine(event: ReaderEngineEvent): Promise<void> {
  return loadEngine().then((e) => e.send(event));
}

function readStoredCode(): string | null {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(STORED_CLASS_CODE_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && isValidClassCode(value) ? value : null;
  } catch {
    return null;
  }
}

const EMPTY: readonly string[] = [];
let cached: ClassCodeView | null = null;

function same(a: ClassCodeView, b: ClassCodeView): boolean {
  return a.code === b.code && a.isInvalid === b.isInvalid && a.isVerifying === b.isVerifying && a.features === b.features && a.isReady === b.isReady;
}

function getView(): ClassCodeView {
  let next: ClassCodeView;
  if (engine) {
    const snapshot = engine.getSnapshot();
    const { code, lastCheckInvalid } = snapshot.classCode.context;
    next = {
      code,
      isInvalid: lastCheckInvalid,
      isVerifying: snapshot.classCode.matches('verifying'),
      features: snapshot.features,
      isReady: true,
    };
  } else {
    next = { code: readStoredCode(), isInvalid: false, isVerifying: false, features: EMPTY, isReady: false };
  }
  if (cached && same(cached, next)) return cached;
  cached = next;
  return next;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The class code, re-rendering when it changes. */
export function useClassCode(): ClassCodeView {
  return useSyncExternalStore(subscribe, getView, getView);
}

/** The class code now, outside React (the API client's X-Group-Code header). */
export function currentClassCode(): string | null {
  return getView().code;
}

/** The menu's 'Class Code: {code}' label, with '!' when the last check failed (SPEC §2 Right-hand menu). */
export function classCodeMenuLabel(view: Pick<ClassCodeView, 'code' | 'isInvalid'>): string | null {
  return view.code === null ? null : `Class Code: ${view.code}${view.isInvalid ? '!' : ''}`;
}

/** Test helper: forget the loaded engine and the cached view. */
export function resetClassCodeStateForTests(): void {
  engine = null;
  loading = null;
  cached = null;
}
