/**
 * The accepted class code as the engine stored it, read straight from storage: the API client's X-Group-Code
 * header, and what the views show before the engine has loaded (the engine starts from the same value).
 */
import { isValidClassCode } from '../../machines/classCode/classCode.rules';

/**
 * The engine's storage key for the accepted code (src/domain/settings.ts `storageKey('groupCode')`; a test keeps
 * the two in step). Read here without importing the settings store, which would pull XState into the entry chunk.
 */
export const STORED_CLASS_CODE_KEY = 'lectern.v1.groupCode';

export function readStoredClassCode(): string | null {
  try {
    const raw = typeof window === 'undefined' ? null : window.localStorage.getItem(STORED_CLASS_CODE_KEY);
    if (raw === null) return null;
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' && isValidClassCode(value) ? value : null;
  } catch {
    return null;
  }
}
