/** The key-value store over the browser's storage (src/ui/platform/storage.ts): `set` says whether the value will outlast the page. */
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/ui/platform/storage';

/** A Storage over a Map (enough of the interface for the store). */
function mapStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('createStore', () => {
  it("stores under the prefix in the browser's storage, and says so", () => {
    const backend = mapStorage();
    const store = createStore(() => backend);
    expect(store.set('flag', '1')).toBe(true);
    expect(backend.getItem('lectern.flag')).toBe('1');
    expect(store.get('flag')).toBe('1');
  });

  it('keeps the value in memory, and says it will not outlast the page, without storage or when storage refuses', () => {
    const none = createStore(() => undefined);
    expect(none.set('flag', '1')).toBe(false);
    expect(none.get('flag')).toBe('1');
    const full = createStore(() => ({ ...mapStorage(), setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } }) as Storage);
    expect(full.set('flag', '1')).toBe(false);
    expect(full.get('flag')).toBe('1');
    const blocked = createStore(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(blocked.set('flag', '1')).toBe(false);
  });
});
