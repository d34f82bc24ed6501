/**
 * A small key-value store over the browser's localStorage or sessionStorage, under the 'lectern.' prefix.
 * Storage can be missing or throw (private modes, quotas, disabled cookies), so every call is guarded and
 * falls back to memory for the rest of the session.
 */
export interface KeyValueStore {
  get(key: string): string | null;
  /** Stores the value; true when the browser's storage holds it, false when only memory does (this page only). */
  set(key: string, value: string): boolean;
  remove(key: string): void;
}

export const STORAGE_PREFIX = 'lectern.';

function memoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    get: (key) => values.get(key) ?? null,
    set: (key, value) => {
      values.set(key, value);
      return false;
    },
    remove: (key) => void values.delete(key),
  };
}

export function createStore(backend: () => Storage | undefined, prefix = STORAGE_PREFIX): KeyValueStore {
  const fallback = memoryStore();
  const storage = (): Storage | undefined => {
    try {
      return backend();
    } catch {
      return undefined;
    }
  };
  return {
    get(key) {
      try {
        const value = storage()?.getItem(prefix + key);
        return value ?? fallback.get(key);
      } catch {
        return fallback.get(key);
      }
    },
    set(key, value) {
      fallback.set(key, value);
      try {
        const backend = storage();
        backend?.setItem(prefix + key, value);
        return backend !== undefined;
      } catch {
        return false; // keep the in-memory copy
      }
    },
    remove(key) {
      fallback.remove(key);
      try {
        storage()?.removeItem(prefix + key);
      } catch {
        /* nothing stored */
      }
    },
  };
}

/** Survives reloads and visits: client id and, later, reader settings. */
export const localStore = createStore(() => (typeof window === 'undefined' ? undefined : window.localStorage));
/** Lasts for the tab: small view preferences such as the catalog sort. */
export const sessionStore = createStore(() => (typeof window === 'undefined' ? undefined : window.sessionStorage));
