/**
 * The settings store on the storage port: every read validated against src/domain/settings.ts, older forms migrated
 * on read and written back in the current form.
 */
import type { StoragePort } from './ports';
import { LEGACY_KEYS, SETTINGS, storageKey, type SettingName, type SettingValue } from '../domain/settings';
import type { z } from 'zod';

export * from '../domain/settings';

export interface SettingsStore {
  get<K extends SettingName>(name: K): SettingValue<K>;
  set<K extends SettingName>(name: K, value: z.input<(typeof SETTINGS)[K]['schema']> | null): void;
  remove(name: SettingName): void;
}

export function createSettingsStore(storage: StoragePort, onProblem?: (message: string) => void): SettingsStore {
  const read = (key: string): unknown => {
    let raw: string | null = null;
    try {
      raw = storage.getItem(key);
    } catch {
      return undefined;
    }
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return Symbol.for('corrupt');
    }
  };
  // What this store last wrote under each key: writing the same text again is skipped, since a page turn writes
  // several settings and localStorage writes are synchronous (docs/performance.md "Page turn").
  const written = new Map<string, string>();
  const write = (key: string, value: unknown) => {
    const text = JSON.stringify(value);
    if (written.get(key) === text) return;
    try {
      storage.setItem(key, text);
      written.set(key, text);
    } catch (error) {
      onProblem?.(`Could not save ${key}: ${String(error)}`);
    }
  };
  return {
    get(name) {
      const spec = SETTINGS[name];
      let raw = read(storageKey(name));
      const legacyKey = LEGACY_KEYS[name];
      if (raw === undefined && legacyKey) {
        raw = read(legacyKey);
        if (raw !== undefined) {
          const migrated = spec.schema.safeParse(raw);
          if (migrated.success) write(storageKey(name), migrated.data);
          try {
            storage.removeItem(legacyKey);
          } catch {
            /* ignore */
          }
        }
      }
      if (raw === undefined) return spec.default as SettingValue<typeof name>;
      const parsed = spec.schema.safeParse(raw);
      if (!parsed.success) {
        onProblem?.(`Ignored an unreadable value for ${storageKey(name)}`);
        return spec.default as SettingValue<typeof name>;
      }
      return parsed.data as SettingValue<typeof name>;
    },
    set(name, value) {
      if (value === null) {
        this.remove(name);
        return;
      }
      const parsed = SETTINGS[name].schema.safeParse(value);
      if (!parsed.success) throw new Error(`Refusing to store an invalid ${name}`);
      write(storageKey(name), parsed.data);
    },
    remove(name) {
      written.delete(storageKey(name));
      try {
        storage.removeItem(storageKey(name));
      } catch {
        /* ignore */
      }
    },
  };
}

export function createMemoryStorage(initial: Record<string, string> = {}): StoragePort & { dump(): Record<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    dump: () => Object.fromEntries(map),
  };
}
