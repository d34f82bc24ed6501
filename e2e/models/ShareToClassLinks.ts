import { expect, type Locator, type Page } from '@playwright/test';

/** The address a share link posts, decoded from the service's share address. */
export interface SharedAddress {
  /** The share address's own origin and path (`https://classroom.google.com/share`). */
  service: string;
  /** The link it posts: Classroom's `url`, Teams' `href`. */
  link: string | null;
  /** Teams' optional message. */
  message: string | null;
}

/**
 * 'Share to Google Classroom' and 'Share to Microsoft Teams', in the 'Share with Students' dialog or
 * on a title's page: links in a new tab to each service's public share address.
 */
export class ShareToClassLinks {
  readonly list: Locator;
  readonly classroom: Locator;
  readonly teams: Locator;

  constructor(scope: Page | Locator) {
    this.list = scope.getByRole('list', { name: 'Share to a class stream' });
    this.classroom = scope.getByRole('link', { name: 'Share to Google Classroom' });
    this.teams = scope.getByRole('link', { name: 'Share to Microsoft Teams' });
  }

  /** Both links open a new tab without an opener or a referrer. */
  async expectNewTabLinks() {
    for (const link of [this.classroom, this.teams]) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }

  async classroomAddress(): Promise<SharedAddress> {
    return decode(this.classroom, 'url');
  }

  async teamsAddress(): Promise<SharedAddress> {
    return decode(this.teams, 'href');
  }
}

async function decode(link: Locator, param: string): Promise<SharedAddress> {
  const href = await link.getAttribute('href');
  expect(href).toBeTruthy();
  const url = new URL(href!);
  return { service: `${url.origin}${url.pathname}`, link: url.searchParams.get(param), message: url.searchParams.get('msgText') };
}
