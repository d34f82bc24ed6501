/**
 * The class code as the views see it (SPEC §4 Class code). The engine's classCode machine owns it; this module
 * only reads its snapshot and sends it events. The engine is a lazy chunk (the catalog's entry JS does not carry
 * it), so until it has loaded the views read the code the machine stored at an earlier visit, which is what the
 * machine itself starts from. The main layout loads the engine after the first paint (`loadEngine`).
 */
import type { ReaderEngineSnapshot } from '../../../engine/createReaderEngine';
import { readStoredClassCode } from '../../platform/storedClassCode';
import { useEngineView } from '../../engine/store';

export { STORED_CLASS_CODE_KEY } from '../../platform/storedClassCode';
export { loadEngine, sendToEngine, sendToEngineChild } from '../../engine/store';

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

const EMPTY: readonly string[] = [];
/** The same features, in the same order: the engine lists them afresh in each snapshot (a page turn makes one). */
const sameFeatures = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((f, i) => f === b[i]));
function same(a: ClassCodeView, b: ClassCodeView): boolean {
  return a.code === b.code && a.isInvalid === b.isInvalid && a.isVerifying === b.isVerifying && sameFeatures(a.features, b.features) && a.isReady === b.isReady;
}

/** The class code from the engine's snapshot, or the stored one before the engine has loaded. */
function classCodeView(snapshot: ReaderEngineSnapshot | null): ClassCodeView {
  if (!snapshot) return { code: readStoredClassCode(), isInvalid: false, isVerifying: false, features: EMPTY, isReady: false };
  const { code, lastCheckInvalid } = snapshot.classCode.context;
  return { code, isInvalid: lastCheckInvalid, isVerifying: snapshot.classCode.matches('verifying'), features: snapshot.features, isReady: true };
}

/** The class code, re-rendering when it changes. */
export function useClassCode(): ClassCodeView {
  return useEngineView(classCodeView, same);
}

/** The class code now, outside React (the API client's X-Group-Code header). */
export function currentClassCode(): string | null {
  return readStoredClassCode();
}

/** The menu's 'Class Code: {code}' label, with '!' when the last check failed (SPEC §2 Right-hand menu). */
export function classCodeMenuLabel(view: Pick<ClassCodeView, 'code' | 'isInvalid'>): string | null {
  return view.code === null ? null : `Class Code: ${view.code}${view.isInvalid ? '!' : ''}`;
}

/** Test helper: forget the loaded engine. */
export { resetEngineStoreForTests as resetClassCodeStateForTests } from '../../engine/store';
