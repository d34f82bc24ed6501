/**
 * The reader's stored display settings (text size, columns) as React state. They live in the engine's settings
 * store (`readerSettings`); this adds the change notification the store does not have, so every view that
 * shows a setting updates when one control changes it.
 */
import { useSyncExternalStore } from 'react';
import type { ReaderSettings } from '../../../engine/settings';
import { getEngine } from '../../engine/engine';

const listeners = new Set<() => void>();
let cached: ReaderSettings | null = null;

function read(): ReaderSettings {
  cached ??= getEngine().settings.get('readerSettings') as ReaderSettings;
  return cached;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useReaderSettings(): ReaderSettings {
  return useSyncExternalStore(subscribe, read, read);
}

/** Store a change. The rest is read fresh, so a mode the engine saved meanwhile (decode) is kept. */
export function updateReaderSettings(patch: Partial<Omit<ReaderSettings, 'decodeEnabled'>>): void {
  const settings = getEngine().settings;
  settings.set('readerSettings', { ...(settings.get('readerSettings') as ReaderSettings), ...patch });
  cached = null;
  for (const l of [...listeners]) l();
}
