// @vitest-environment jsdom
/**
 * 'Share to Google Classroom' and 'Share to Microsoft Teams' as the share dialog and the title page
 * render them: plain links in a new tab to each service's share address, carrying the magic link or the title's
 * reader address the app builds.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { magicLink } from '../../src/ui/screens/classroom/classroom';
import { ShareToClassLinks } from '../../src/ui/screens/classroom/ShareToClassLinks';
import { titleReaderLink } from '../../src/ui/screens/publication/publicationView';

afterEach(cleanup);

function shared(name: string, param: string): string | null {
  const href = screen.getByRole('link', { name }).getAttribute('href') ?? '';
  return new URL(href).searchParams.get(param);
}

describe('ShareToClassLinks', () => {
  it('posts the magic link to Google Classroom and Microsoft Teams, in a new tab, without the opener', () => {
    const link = magicLink('http://127.0.0.1:3000/', 'ABCD1234');
    render(<ShareToClassLinks link={link} />);
    expect(screen.getByRole('list', { name: 'Share to a class stream' })).toBeTruthy();
    const classroom = screen.getByRole('link', { name: 'Share to Google Classroom' });
    const teams = screen.getByRole('link', { name: 'Share to Microsoft Teams' });
    expect(classroom.getAttribute('href')).toMatch(/^https:\/\/classroom\.google\.com\/share\?url=/);
    expect(teams.getAttribute('href')).toMatch(/^https:\/\/teams\.microsoft\.com\/share\?href=/);
    for (const a of [classroom, teams]) {
      expect(a.getAttribute('target')).toBe('_blank');
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
      expect(a.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    }
    expect(shared('Share to Google Classroom', 'url')).toBe('http://127.0.0.1:3000/classroom-catalog?groupCode=ABCD1234');
    expect(shared('Share to Microsoft Teams', 'href')).toBe('http://127.0.0.1:3000/classroom-catalog?groupCode=ABCD1234');
  });

  it("posts a title's reader address, with the title as Teams' message", () => {
    const link = titleReaderLink('http://127.0.0.1:3000', 'how-bees-make-honey', 'v1');
    render(<ShareToClassLinks link={link} text="How Bees Make Honey" />);
    expect(shared('Share to Google Classroom', 'url')).toBe('http://127.0.0.1:3000/how-bees-make-honey/v1/read');
    expect(shared('Share to Microsoft Teams', 'href')).toBe('http://127.0.0.1:3000/how-bees-make-honey/v1/read');
    expect(shared('Share to Microsoft Teams', 'msgText')).toBe('How Bees Make Honey');
  });
});
