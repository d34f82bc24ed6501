/** The classroom calls of the API client (SPEC §7): per-call class code, the teacher's filter, visibility, user titles. */
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api';

function clientWith(body: unknown, configured?: string) {
  const requests: Request[] = [];
  const api = createApiClient({
    baseUrl: 'http://api.test/api/v1',
    clientId: () => 'client-1',
    groupCode: () => configured,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      requests.push(request);
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    },
  });
  return { api, requests };
}

const summary = {
  id: 3,
  slug: 'how-bees-make-honey',
  version: 'v1',
  title: 'How Bees Make Honey',
  author: 'Theo Marchbank',
  thumbnailImageUrl: '/media/x.svg',
  badges: [],
  createdAt: '2024-01-01T00:00:00.000Z',
  renderingMode: 'DEFAULT',
  levels: ['ORIGINAL'],
  languages: [],
};

describe('classroom calls', () => {
  it('GET /publications sends the filter and a per-call class code', async () => {
    const { api, requests } = clientWith({ items: [summary], total: 1, page: 1, pageSize: 16 });
    await api.listPublications({ page: 1, filter: 'assigned' }, { groupCode: 'ABCD1234' });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/api/v1/publications');
    expect(url.searchParams.get('filter')).toBe('assigned');
    expect(requests[0]!.headers.get('X-Group-Code')).toBe('ABCD1234');
  });

  it('a per-call class code wins over the configured one; without one the configured one is sent', async () => {
    const { api, requests } = clientWith({ items: [] }, 'STORED99');
    await api.getUserTitles({ groupCode: 'ABCD1234' });
    await api.getUserTitles();
    expect(requests.map((r) => r.headers.get('X-Group-Code'))).toEqual(['ABCD1234', 'STORED99']);
  });

  it('PATCH /users/titles/{id}/visibility sends the status and parses the user title', async () => {
    const { api, requests } = clientWith({ id: 1, titleId: 3, status: 'BLOCKED', title: summary });
    const row = await api.setTitleVisibility(3, 'BLOCKED');
    expect(row.status).toBe('BLOCKED');
    expect(requests[0]!.method).toBe('PATCH');
    expect(new URL(requests[0]!.url).pathname).toBe('/api/v1/users/titles/3/visibility');
    expect(await requests[0]!.json()).toEqual({ status: 'BLOCKED' });
  });

  it('a user-titles answer that drifts from the schema fails', async () => {
    const { api } = clientWith({ items: [{ id: 1, titleId: 3, status: 'HIDDEN', title: summary }] });
    await expect(api.getUserTitles()).rejects.toThrow();
  });

  it('GET /users/me/class-activity parses counts, and fails on 27 days or a sixth title', async () => {
    const week = { from: '2026-11-20', to: '2026-11-26', passagesRead: 3, secondsListened: 60 };
    const days = Array.from({ length: 28 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, passagesRead: i === 27 ? 3 : 0 }));
    const top = { title: 'How Bees Make Honey', slug: 'how-bees-make-honey', passagesRead: 3 };
    const body = { thisWeek: week, lastWeek: { ...week, passagesRead: 0 }, topTitles: [top], days };
    const { api, requests } = clientWith(body);
    expect(await api.getClassActivity()).toEqual(body);
    expect(new URL(requests[0]!.url).pathname).toBe('/api/v1/users/me/class-activity');
    await expect(clientWith({ ...body, days: days.slice(1) }).api.getClassActivity()).rejects.toThrow();
    await expect(clientWith({ ...body, topTitles: new Array(6).fill(top) }).api.getClassActivity()).rejects.toThrow();
  });
});
