// @vitest-environment jsdom
/**
 * The reader's toolbar renders the variant its width shows (SPEC §2 Reader screen: from medium widths the decode
 * and word-mode toggles, the text menu and the ruler; on small screens one 'Reader controls menu'), and only that
 * one: the hidden variant's dropdowns cost the reader's first render (docs/performance.md "Ninth session").
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderToolbar } from '../../src/ui/screens/reader/ReaderToolbar';

afterEach(cleanup);

/** A window whose width answers `(min-width: …px)` queries, and can change. */
function setWidth(width: number): () => void {
  const listeners = new Set<() => void>();
  window.matchMedia = ((query: string) => {
    const min = Number(/min-width:\s*(\d+)px/.exec(query)?.[1] ?? 0);
    return {
      matches: width >= min,
      media: query,
      addEventListener: (_: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    };
  }) as unknown as typeof window.matchMedia;
  return () => listeners.forEach((listener) => listener());
}

const noop = () => {};

function toolbar() {
  return (
    <ReaderToolbar
      shortcuts={[{ name: 'Chapter 1', passage: 1 }]}
      shortcutLanguage="en"
      currentShortcut={null}
      onShortcut={noop}
      fontSize="default"
      onFontSize={noop}
      ruler="off"
      onRuler={noop}
      readingType={{ readingFont: 'default', textSpacing: 'default', pageTint: 'white' }}
      onReadingType={noop}
      wordMode={false}
      onWordMode={noop}
      columns="one-column"
      onColumns={noop}
      showColumns
    />
  );
}

describe('the reader toolbar', () => {
  it('on a small screen renders the controls menu and not the wide row', () => {
    setWidth(400);
    render(toolbar());
    expect(screen.getByRole('button', { name: 'Reader controls menu' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reading ruler/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Decode/ })).toBeNull();
    expect(screen.getByRole('button', { name: /Go to section/ })).toBeTruthy();
  });

  it('from medium widths renders the wide row and not the controls menu, and follows a change of width', () => {
    const changed = setWidth(1280);
    render(toolbar());
    expect(screen.getByRole('button', { name: /Reading ruler/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Columns/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reader controls menu' })).toBeNull();

    setWidth(500);
    act(() => changed());
    expect(screen.getByRole('button', { name: 'Reader controls menu' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Reading ruler/ })).toBeNull();
  });
});
