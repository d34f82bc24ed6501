// @vitest-environment jsdom
/**
 * 'Passage not found' (SPEC §5 Passage position, §8 Reader error panel) is the reader's error panel: position 0 in
 * the reader, an edition or position the listen and teaser pages do not find, and a missing edition that cannot be
 * created all show 'Not found', 'Passage not found' and 'Please choose another passage or Contact Support' with its
 * mailto link, from one component.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it } from 'vitest';
import { SUPPORT_EMAIL } from '../../src/domain/constants';
import { ErrorPanel, PassageNotFound } from '../../src/ui/screens/reader/PassageStates';

afterEach(cleanup);

function inRouter(node: React.ReactNode) {
  const { hook } = memoryLocation({ path: '/the-fox-who-counted-stars/v1/en:original/0' });
  return render(<Router hook={hook}>{node}</Router>);
}

/** What a reader meets in the panel: its heading, its texts and its links. */
function panelFacts(panel: HTMLElement) {
  const view = within(panel);
  return {
    heading: view.getByRole('heading', { level: 2 }).textContent,
    text: panel.textContent,
    links: view.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]),
  };
}

describe('PassageNotFound', () => {
  it("is the reader's error panel: 'Not found', 'Passage not found' and Contact Support", () => {
    inRouter(<PassageNotFound />);
    const panel = screen.getByRole('alert');
    expect(panelFacts(panel)).toEqual({
      heading: 'Not found',
      text: 'Not foundPassage not foundPlease choose another passage or Contact Support',
      links: [['Contact Support', `mailto:${SUPPORT_EMAIL}`]],
    });
  });

  it("renders exactly what the error panel of a missing edition renders (one component)", () => {
    const { container: notFound } = inRouter(<PassageNotFound />);
    const first = notFound.innerHTML;
    cleanup();
    const { container: missing } = inRouter(<ErrorPanel title="Not found" detail="Passage not found" />);
    expect(missing.innerHTML).toBe(first);
  });

  it("outside the reader, it also leads back to the title's page", () => {
    inRouter(<PassageNotFound publication={{ slug: 'the-fox-who-counted-stars', version: 'v1' }} />);
    const panel = screen.getByRole('alert');
    expect(panelFacts(panel)).toMatchObject({
      heading: 'Not found',
      links: [
        ['Contact Support', `mailto:${SUPPORT_EMAIL}`],
        ['About this book', '/the-fox-who-counted-stars/v1'],
      ],
    });
  });
});
