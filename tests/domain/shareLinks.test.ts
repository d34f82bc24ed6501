/** The share addresses of Google Classroom and Microsoft Teams, built in src/domain/shareLinks.ts. */
import { describe, expect, it } from 'vitest';
import { classroomShareUrl, shareTargets, teamsShareUrl } from '../../src/domain/shareLinks';

/** The one query value `name` of `address`, decoded as a browser (or the service) decodes it. */
function param(address: string, name: string): string | null {
  return new URL(address).searchParams.get(name);
}

describe('classroomShareUrl', () => {
  it("is Google Classroom's share address with the link in `url`", () => {
    expect(classroomShareUrl('https://lectern.example/how-bees-make-honey/v1/read')).toBe(
      'https://classroom.google.com/share?url=https%3A%2F%2Flectern.example%2Fhow-bees-make-honey%2Fv1%2Fread',
    );
  });

  it("keeps a link's own query string and fragment inside `url`, not beside it", () => {
    const link = 'https://lectern.example/classroom-catalog?groupCode=ABCD1234&tab=a b#top';
    const address = classroomShareUrl(link);
    expect(address).toBe(
      'https://classroom.google.com/share?url=https%3A%2F%2Flectern.example%2Fclassroom-catalog%3FgroupCode%3DABCD1234%26tab%3Da%20b%23top',
    );
    const parsed = new URL(address);
    expect([...parsed.searchParams.keys()]).toEqual(['url']);
    expect(parsed.hash).toBe('');
    expect(param(address, 'url')).toBe(link);
  });

  it('percent-encodes non-ASCII characters as UTF-8, and decodes back to the same link', () => {
    const link = 'https://lectern.example/el-niño/v1/read?título=Ñandú&ru=Пчёлы&zh=蜜蜂';
    const address = classroomShareUrl(link);
    expect(address).toMatch(/^https:\/\/classroom\.google\.com\/share\?url=[\x21-\x7e]+$/);
    expect(address).toContain('el-ni%C3%B1o');
    expect(address).toContain('%E8%9C%9C%E8%9C%82');
    expect(param(address, 'url')).toBe(link);
  });
});

describe('teamsShareUrl', () => {
  it("is Microsoft Teams' share address with the link in `href`", () => {
    expect(teamsShareUrl('https://lectern.example/classroom-catalog?groupCode=ABCD1234')).toBe(
      'https://teams.microsoft.com/share?href=https%3A%2F%2Flectern.example%2Fclassroom-catalog%3FgroupCode%3DABCD1234',
    );
  });

  it('adds `msgText` only when there is a message, encoded the same way', () => {
    const link = 'https://lectern.example/pip/v1/read?x=1&y=2';
    expect(teamsShareUrl(link, '')).toBe(teamsShareUrl(link));
    expect(teamsShareUrl(link, '   ')).toBe(teamsShareUrl(link));
    const address = teamsShareUrl(link, ' Pip & the Paper Moon: ¿Dónde? ');
    const parsed = new URL(address);
    expect([...parsed.searchParams.keys()]).toEqual(['href', 'msgText']);
    expect(parsed.searchParams.get('href')).toBe(link);
    expect(parsed.searchParams.get('msgText')).toBe('Pip & the Paper Moon: ¿Dónde?');
  });

  it('round-trips non-ASCII links', () => {
    const link = 'https://lectern.example/كتاب/v1/read?q=বই';
    expect(param(teamsShareUrl(link), 'href')).toBe(link);
  });
});

describe('shareTargets', () => {
  it('names each link as the views show it, Classroom first, Teams with the message', () => {
    const link = 'http://127.0.0.1:3000/how-bees-make-honey/v1/read';
    expect(shareTargets(link, 'How Bees Make Honey')).toEqual([
      { service: 'classroom', label: 'Share to Google Classroom', href: classroomShareUrl(link) },
      { service: 'teams', label: 'Share to Microsoft Teams', href: teamsShareUrl(link, 'How Bees Make Honey') },
    ]);
  });
});
