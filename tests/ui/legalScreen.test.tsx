// @vitest-environment jsdom
/** /terms and /privacy render the Markdown of content/legal/ as headings, paragraphs, lists and links. */
import { cleanup, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it } from 'vitest';
import { LegalScreen, type LegalKind } from '../../src/ui/screens/misc/LegalScreen';

afterEach(cleanup);

describe.each([
  ['terms', 'Terms of Service', 'Privacy Policy', '/privacy'],
  ['privacy', 'Privacy Policy', 'Terms of Service', '/terms'],
] as const)('LegalScreen %s', (kind, title, otherName, otherHref) => {
  it('renders the text with its headings and a link to the other page, with no Markdown markers', () => {
    const { hook } = memoryLocation({ path: `/${kind}` });
    const { container } = render(
      <Router hook={hook}>
        <LegalScreen kind={kind as LegalKind} />
      </Router>,
    );
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).length).toBeGreaterThanOrEqual(4);
    expect(container.querySelectorAll('ul li').length).toBeGreaterThan(2);
    expect(screen.getByRole('link', { name: otherName }).getAttribute('href')).toBe(otherHref);
    expect(container.textContent).not.toMatch(/\*\*|`|\]\(|(^|\n)#/);
    expect(document.title).toContain(title);
  });
});
