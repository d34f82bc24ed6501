// @vitest-environment jsdom
/** The Listen toggle's three faces (SPEC §2 each passage column; §8 Tooltips), rendered with React Aria in jsdom. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListenToggle } from '../../src/ui/screens/reader/ListenToggle';

afterEach(cleanup);

/** React Aria shows a tooltip when its trigger gets keyboard focus. */
async function tooltipOf(button: HTMLElement) {
  await act(async () => {
    fireEvent.keyDown(document.body, { key: 'Tab' });
    fireEvent.keyUp(document.body, { key: 'Tab' });
    button.focus();
  });
  return (await screen.findByRole('tooltip')).textContent;
}

describe('the Listen toggle', () => {
  it("explains 'Highlight text as audio plays', and toggles", async () => {
    const onChange = vi.fn();
    render(<ListenToggle audioEnabled isSelected={false} onChange={onChange} />);
    const button = screen.getByRole('button', { name: 'Listen' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(await tooltipOf(button)).toBe('Highlight text as audio plays');
    fireEvent.click(button);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it("says 'Audio not available' and does nothing for an edition without narration", async () => {
    const onChange = vi.fn();
    render(<ListenToggle audioEnabled={false} isSelected={false} onChange={onChange} />);
    const button = screen.getByRole('button', { name: 'Listen' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(await tooltipOf(button)).toBe('Audio not available');
    fireEvent.click(button);
    expect(onChange).not.toHaveBeenCalled();
  });

  it("offers the upgrade when a license gate withholds audio: 'Upgrade to access additional audio features'", async () => {
    const onChange = vi.fn();
    const onUpgrade = vi.fn();
    render(<ListenToggle audioEnabled audioLocked isSelected={false} onChange={onChange} onUpgrade={onUpgrade} />);
    const button = screen.getByRole('button', { name: 'Listen' });
    expect(await tooltipOf(button)).toBe('Upgrade to access additional audio features');
    fireEvent.click(button);
    expect(onUpgrade).toHaveBeenCalledTimes(1);
    expect(onChange).not.toHaveBeenCalled();
  });
});
