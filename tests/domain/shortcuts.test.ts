import { describe, expect, it } from 'vitest';
import { currentShortcut, currentShortcutIndex } from '../../src/domain/shortcuts';
import type { Shortcut } from '../../src/domain/schemas';

const shortcuts = [
  { name: 'One', passage: 3 },
  { name: 'Two', passage: 7 },
  { name: 'Three', passage: 12 },
] satisfies Shortcut[];

describe('the current chapter', () => {
  it('is the last shortcut that starts at or before the position', () => {
    expect(currentShortcutIndex(shortcuts, 3)).toBe(0);
    expect(currentShortcutIndex(shortcuts, 6)).toBe(0);
    expect(currentShortcutIndex(shortcuts, 7)).toBe(1);
    expect(currentShortcutIndex(shortcuts, 40)).toBe(2);
    expect(currentShortcut(shortcuts, 11)).toBe(shortcuts[1]);
  });
  it('is none before the first shortcut, or without shortcuts', () => {
    expect(currentShortcutIndex(shortcuts, 2)).toBeNull();
    expect(currentShortcut(shortcuts, 1)).toBeNull();
    expect(currentShortcut([], 5)).toBeNull();
  });
});
