// @vitest-environment jsdom
/** The player's 'Narration info': it names the voice that speaks the passage. */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NarrationInfo } from '../../src/ui/screens/reader/AudioPlayerBar';

afterEach(cleanup);

// jsdom has no CSS.escape, which React Aria's popover uses; a minimal one for plain identifiers.
const css = ((globalThis as { CSS?: { escape?: (s: string) => string } }).CSS ??= {});
css.escape ??= (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (ch) => `\\${ch}`);

describe("the player's narration info", () => {
  it("says 'Voice: Flite slt' and the edition's length", async () => {
    render(<NarrationInfo voice="flite-slt" total="1h 5m" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Narration info' })));
    const dialog = await screen.findByRole('dialog', { name: 'Narration' });
    expect(dialog.textContent).toContain('Voice: Flite slt');
    expect(dialog.textContent).toContain('Whole edition: 1h 5m');
  });

  it('names an espeak voice', async () => {
    render(<NarrationInfo voice="espeak-es" total={null} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Narration info' })));
    expect((await screen.findByRole('dialog', { name: 'Narration' })).textContent).toBe('Voice: eSpeak es');
  });
});
