// @vitest-environment jsdom
/**
 * The reader's dropdowns mount React Aria's Select only on the first sign they are wanted (DeferredMenu with
 * `popup: 'listbox'`; docs/performance.md, tenth session). Until then a stand-in button is drawn and named as the
 * Select's trigger is; a press on it opens the dropdown, focus on it moves to the loaded trigger, and the toolbar
 * hears that the dropdown opened.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);
// jsdom has no CSS.escape, which React Aria's popover uses (a meta tag lookup).
if (typeof globalThis.CSS === 'undefined') Object.assign(globalThis, { CSS: { escape: (value: string) => value, supports: () => false } });
// Each test loads the pickers afresh: a woken dropdown stays woken for the module's life.
beforeEach(() => vi.resetModules());

const press = (element: Element) => {
  fireEvent.pointerDown(element, { pointerType: 'mouse', pointerId: 1, button: 0, isPrimary: true });
  fireEvent.pointerUp(element, { pointerType: 'mouse', pointerId: 1, button: 0, isPrimary: true });
  fireEvent.click(element);
};

async function levelPicker(props: { onChange?: (level: string) => void; onOpenChange?: (open: boolean) => void; onHover?: () => void } = {}) {
  const { LevelPicker } = await import('../../src/ui/screens/reader/LevelPicker');
  render(
    <LevelPicker
      label="Reading level"
      level="ORIGINAL"
      levels={['GOLD', 'SILVER', 'ORIGINAL']}
      onChange={props.onChange ?? (() => {})}
      onOpenChange={props.onOpenChange}
      onHover={props.onHover}
    />,
  );
  return screen.getByRole('button', { name: 'Original Reading level' });
}

describe('a deferred dropdown (the reading-level picker)', () => {
  it('stands in with a button named and marked as the Select trigger, without a Select or its listbox', async () => {
    const button = await levelPicker();
    expect(button.getAttribute('aria-haspopup')).toBe('listbox');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.textContent).toBe('Original');
    // React Aria's Select names its trigger by aria-labelledby (value and label); the stand-in has none.
    expect(button.hasAttribute('aria-labelledby')).toBe(false);
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens the dropdown when the stand-in is pressed, tells onOpenChange, and a choice reaches onChange', async () => {
    const onChange = vi.fn();
    const onOpenChange = vi.fn();
    const button = await levelPicker({ onChange, onOpenChange });
    await act(async () => press(button));
    const listbox = await waitFor(() => { const found = document.querySelector('[role="listbox"][aria-label="Reading levels"]'); expect(found).toBeTruthy(); return found!; });
    expect(onOpenChange).toHaveBeenCalledWith(true);
    // The loaded trigger sits behind the open popover (aria-hidden), as React Aria's modal popovers hide the page.
    const trigger = screen.getByRole('button', { name: /Reading level/, hidden: true });
    expect(trigger.getAttribute('aria-labelledby')).toBeTruthy();
    const silver = [...listbox.querySelectorAll('[role="option"]')].find((o) => o.textContent?.includes('Silver'));
    expect(silver).toBeTruthy();
    await act(async () => press(silver!));
    expect(onChange).toHaveBeenCalledWith('SILVER');
  });

  it('gives focus to the loaded trigger when the stand-in takes focus, without opening', async () => {
    const onHover = vi.fn();
    const button = await levelPicker({ onHover });
    await act(async () => button.focus());
    expect(onHover).toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement?.hasAttribute('aria-labelledby')).toBe(true));
    expect(document.activeElement?.getAttribute('aria-haspopup')).toBe('listbox');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('opens on the down arrow pressed on the stand-in before the dropdown has loaded', async () => {
    const button = await levelPicker();
    await act(async () => {
      button.focus();
      fireEvent.keyDown(button, { key: 'ArrowDown' });
      fireEvent.keyUp(button, { key: 'ArrowDown' });
    });
    await waitFor(() => expect(document.querySelector('[role="listbox"][aria-label="Reading levels"]')).toBeTruthy());
  });

});
