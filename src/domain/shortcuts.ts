/**
 * The current chapter (SPEC §2 Reader screen, top toolbar: the shortcut dropdown of named sections): the last
 * shortcut, in the edition's order, that starts at or before the position. Null before the first one.
 */
import type { Shortcut } from './schemas';

/** The index of the shortcut a position is in, or null. */
export function currentShortcutIndex(shortcuts: readonly Shortcut[], position: number): number | null {
  for (let i = shortcuts.length - 1; i >= 0; i--) if (shortcuts[i].passage <= position) return i;
  return null;
}

/** The shortcut a position is in, or null. */
export function currentShortcut(shortcuts: readonly Shortcut[], position: number): Shortcut | null {
  const index = currentShortcutIndex(shortcuts, position);
  return index === null ? null : shortcuts[index];
}
