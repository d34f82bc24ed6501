// @vitest-environment jsdom
/**
 * The reader's gating views in jsdom with React Aria (SPEC §2 Reading level dropdown, Dialogs; §6 Feature gates,
 * Content gating): locked levels, greyed languages, the 'Unlock Premium {feature}' dialog on the app's engine, and
 * the license and class-code panels. The views only render what the engine's locks say; these tests give them
 * locks and check what a reader meets.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageInfo } from '../../src/domain/languages';
import { getEngine } from '../../src/ui/engine/engine';
import { LanguagePicker } from '../../src/ui/screens/reader/LanguagePicker';
import { LevelPicker } from '../../src/ui/screens/reader/LevelPicker';
import { GroupCodePanel, LicensePanel } from '../../src/ui/screens/reader/PassageStates';
import { PremiumDialog } from '../../src/ui/screens/reader/ReaderOverlays';

afterEach(() => {
  act(() => getEngine().getChild('premiumDialog')!.send({ type: 'premiumDialog.close' }));
  cleanup();
});

// jsdom has no CSS.escape, which React Aria's popover uses; a minimal one for plain identifiers.
const css = ((globalThis as { CSS?: { escape?: (s: string) => string } }).CSS ??= {});
css.escape ??= (value: string) => value.replace(/[^a-zA-Z0-9_-]/g, (ch) => `\\${ch}`);

const LOCKED_TOOLTIP = 'Upgrade to access additional reading levels';

function inRouter(node: React.ReactNode, path = '/fox/v1/en:gold/2') {
  const { hook } = memoryLocation({ path });
  return render(<Router hook={hook}>{node}</Router>);
}

/** React Aria shows a tooltip when its trigger gets keyboard focus. */
async function focusWithKeyboard(element: HTMLElement) {
  await act(async () => {
    fireEvent.keyDown(document.body, { key: 'Tab' });
    fireEvent.keyUp(document.body, { key: 'Tab' });
    element.focus();
  });
}

/**
 * Open a dropdown from the keyboard, as jsdom has no real pointer. Its trigger is found by name each time: the
 * stand-in button gives way to React Aria's Select once the dropdown is wanted (src/ui/components/DeferredMenu.tsx).
 */
async function openSelect(name: RegExp) {
  const trigger = screen.getByRole('button', { name });
  await act(async () => {
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    fireEvent.keyUp(trigger, { key: 'ArrowDown' });
  });
}

function description(option: HTMLElement): string {
  const ids = option.getAttribute('aria-describedby');
  return ids ? ids.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ') : '';
}

describe('the level dropdown', () => {
  it("marks locked levels with 'Upgrade to access additional reading levels' and still sends the choice", async () => {
    const onChange = vi.fn();
    render(<LevelPicker label="Reading level" level="ORIGINAL" levels={['SILVER', 'GOLD', 'ORIGINAL']} lockedLevels={['SILVER', 'GOLD']} onChange={onChange} />);
    // The level shown is free: no tooltip on the trigger.
    await focusWithKeyboard(screen.getByRole('button', { name: /Reading level/ }));
    expect(screen.queryByRole('tooltip')).toBeNull();
    await openSelect(/Reading level/);
    const listbox = await screen.findByRole('listbox', { name: /^Reading levels/ });
    const silver = within(listbox).getByRole('option', { name: /^Silver/ });
    expect(description(silver)).toBe(LOCKED_TOOLTIP);
    expect(description(within(listbox).getByRole('option', { name: /^Gold/ }))).toBe(LOCKED_TOOLTIP);
    expect(description(within(listbox).getByRole('option', { name: /^Original/ }))).toBe('');
    // Still offered: the engine answers a locked choice with the upgrade dialog.
    expect(silver.getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.click(silver);
    expect(onChange).toHaveBeenCalledWith('SILVER');
  });

  it('shows the tooltip on the trigger when the level shown is locked', async () => {
    render(<LevelPicker label="Reading level" level="GOLD" levels={['GOLD', 'ORIGINAL']} lockedLevels={['GOLD']} onChange={() => {}} />);
    await focusWithKeyboard(screen.getByRole('button', { name: /Reading level/ }));
    expect((await screen.findByRole('tooltip')).textContent).toBe(LOCKED_TOOLTIP);
  });

  it('has no locks for a licensed reader', async () => {
    render(<LevelPicker label="Reading level" level="GOLD" levels={['GOLD', 'ORIGINAL']} onChange={() => {}} />);
    await openSelect(/Reading level/);
    const listbox = await screen.findByRole('listbox', { name: /^Reading levels/ });
    for (const option of within(listbox).getAllByRole('option')) expect(description(option)).toBe('');
  });
});

describe('the language dropdown', () => {
  it("greys the languages outside the free list with 'Premium', and they can still be chosen", async () => {
    const onChange = vi.fn();
    render(
      <LanguagePicker
        label="Language"
        current={{ code: 'en', name: 'English' }}
        languages={['en', 'es', 'pt', 'ru'].map((c) => languageInfo(c as 'en'))}
        recentCodes={[]}
        lockedCodes={['pt', 'ru']}
        onChange={onChange}
      />,
    );
    await openSelect(/Language/);
    const listbox = await screen.findByRole('listbox', { name: /^Languages/ });
    const portuguese = within(listbox).getByRole('option', { name: /^Portuguese/ });
    expect(description(portuguese)).toBe('Premium');
    expect(portuguese.hasAttribute('data-locked')).toBe(true);
    expect(description(within(listbox).getByRole('option', { name: /^Spanish/ }))).toBe('');
    expect(portuguese.getAttribute('aria-disabled')).not.toBe('true');
    fireEvent.click(portuguese);
    expect(onChange).toHaveBeenCalledWith('pt');
  });
});

describe("the 'Unlock Premium {feature}' dialog", () => {
  it('names the feature, says it requires a School License, and has Learn More and Sign In back here', async () => {
    inRouter(<PremiumDialog />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => getEngine().getChild('premiumDialog')!.send({ type: 'premiumDialog.open', feature: 'Levels' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Premium Levels' });
    expect(dialog.textContent).toContain('Additional reading levels require a School License.');
    expect(within(dialog).getByRole('link', { name: 'Learn More' }).getAttribute('href')).toMatch(/^mailto:/);
    expect(within(dialog).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe(`/sign-in?redirectUrl=${encodeURIComponent('/fox/v1/en:gold/2')}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(getEngine().getSnapshot().premiumDialog).toBeNull();
  });

  it.each([
    ['Decode', 'Decode Mode requires a school license.'],
    ['Novels', 'Premium Novels require a School License.'],
    ['Audio', 'Additional audio features require a School License.'],
    ['Languages', 'Additional languages require a School License.'],
  ] as const)("'Unlock Premium %s' says: %s", async (feature, message) => {
    inRouter(<PremiumDialog />);
    act(() => getEngine().getChild('premiumDialog')!.send({ type: 'premiumDialog.open', feature }));
    const dialog = await screen.findByRole('dialog', { name: `Unlock Premium ${feature}` });
    expect(dialog.textContent).toContain(message);
  });

  it('following Sign In closes it, so it does not come back with the reader', async () => {
    inRouter(<PremiumDialog />);
    act(() => getEngine().getChild('premiumDialog')!.send({ type: 'premiumDialog.open', feature: 'Audio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock Premium Audio' });
    fireEvent.click(within(dialog).getByRole('link', { name: 'Sign In' }));
    expect(getEngine().getSnapshot().premiumDialog).toBeNull();
  });
});

describe('the gated passage panels', () => {
  it("license panel: 'This content requires a School License', a licensing link, blurred placeholder text", () => {
    const { container } = render(<LicensePanel />);
    const panel = screen.getByRole('region', { name: 'This content requires a School License' });
    expect(within(panel).getByRole('link', { name: 'Learn about School Licenses' }).getAttribute('href')).toMatch(/^mailto:/);
    const placeholder = container.querySelector('[aria-hidden="true"].blur-\\[6px\\]');
    expect(placeholder?.textContent?.length).toBeGreaterThan(100);
  });

  it("class-code panel: 'Enter Class Code or Sign In', Submit, and Sign In / free account carrying redirectUrl", () => {
    const onSubmit = vi.fn();
    inRouter(<GroupCodePanel here="/fox/v1/en:gold/2?x=1" isSubmitting={false} onSubmit={onSubmit} />);
    const panel = screen.getByRole('region', { name: 'Enter Class Code or Sign In' });
    const here = encodeURIComponent('/fox/v1/en:gold/2?x=1');
    expect(within(panel).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe(`/sign-in?redirectUrl=${here}`);
    expect(within(panel).getByRole('link', { name: 'free account' }).getAttribute('href')).toBe(`/sign-up?redirectUrl=${here}`);
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Class Code' }), { target: { value: 'abc' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith('abc');
  });

  it('two panels on one page have distinct names (two columns)', () => {
    render(
      <>
        <LicensePanel />
        <LicensePanel />
      </>,
    );
    expect(screen.getAllByRole('region', { name: 'This content requires a School License' })).toHaveLength(2);
  });
});
