// @vitest-environment jsdom
/** The hint of a control (src/ui/components/Tooltip.tsx): shown on keyboard focus, describing its control, dismissed. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Button } from 'react-aria-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Hint } from '../../src/ui/components/Tooltip';

afterEach(cleanup);

async function focusWithKeyboard(element: HTMLElement) {
  await act(async () => {
    fireEvent.keyDown(document.body, { key: 'Tab' });
    fireEvent.keyUp(document.body, { key: 'Tab' });
    element.focus();
  });
}

function renderHinted(onPress = () => {}) {
  render(
    <Hint content="Tap a word to hear it">
      <Button onPress={onPress}>Words</Button>
    </Hint>,
  );
  return screen.getByRole('button', { name: 'Words' });
}

describe('a hint', () => {
  it('shows on keyboard focus and describes its control', async () => {
    const button = renderHinted();
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(button.getAttribute('aria-describedby')).toBeNull();
    await focusWithKeyboard(button);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip.textContent).toBe('Tap a word to hear it');
    expect(button.getAttribute('aria-describedby')).toBe(tooltip.id);
  });

  it('goes on Escape, on blur, and when its control is pressed, which still acts', async () => {
    const onPress = vi.fn();
    const button = renderHinted(onPress);
    await focusWithKeyboard(button);
    await screen.findByRole('tooltip');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    act(() => button.blur());
    await focusWithKeyboard(button);
    await screen.findByRole('tooltip');
    act(() => button.blur());
    expect(screen.queryByRole('tooltip')).toBeNull();

    await focusWithKeyboard(button);
    await screen.findByRole('tooltip');
    fireEvent.keyDown(button, { key: 'Enter' });
    fireEvent.keyUp(button, { key: 'Enter' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('does not show when its control takes focus from a pointer press', async () => {
    const button = renderHinted();
    await act(async () => {
      fireEvent.pointerDown(button, { pointerType: 'mouse' });
      fireEvent.mouseDown(button);
      button.focus();
    });
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
