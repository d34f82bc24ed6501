import { describe, expect, it } from 'vitest';
import { ApiError, apiErrorFromBody, apiErrorFromResponse, errorTypeForStatus, toApiError } from '../../src/api/errors';
import { createApiClient, cleanParams } from '../../src/api/client';

describe('error mapping (SPEC §8)', () => {
  it('uses the first error message of the body', () => {
    const e = apiErrorFromBody(404, { errors: [{ code: 'not_found', message: 'Passage not found' }, { code: 'x', message: 'second' }] });
    expect(e.message).toBe('Passage not found');
    expect(e.code).toBe('not_found');
    expect(e.errors).toHaveLength(2);
    expect(e.status).toBe(404);
    expect(e.type).toBe('general');
  });

  it("falls back to 'Something went wrong, please try again!' when the body has no errors", () => {
    for (const body of [undefined, null, 'oops', {}, { errors: [] }, { errors: 'nope' }, { errors: [{ nope: 1 }] }]) {
      expect(apiErrorFromBody(500, body).message).toBe('Something went wrong, please try again!');
    }
  });

  it('maps 401 to unauthorized, 403 to forbidden and everything else to general', () => {
    expect(errorTypeForStatus(401)).toBe('unauthorized');
    expect(errorTypeForStatus(403)).toBe('forbidden');
    for (const s of [0, 400, 404, 429, 500, 502]) expect(errorTypeForStatus(s)).toBe('general');
    expect(apiErrorFromBody(401, {}).type).toBe('unauthorized');
    expect(apiErrorFromBody(403, {}).type).toBe('forbidden');
  });

  it('reads a Response body, and survives a body that is not JSON', async () => {
    const ok = await apiErrorFromResponse(new Response(JSON.stringify({ errors: [{ code: 'c', message: 'm' }] }), { status: 400 }));
    expect(ok.message).toBe('m');
    const html = await apiErrorFromResponse(new Response('<html>bad gateway</html>', { status: 502 }));
    expect(html.message).toBe('Something went wrong, please try again!');
    expect(html.status).toBe(502);
  });

  it('maps a network failure to a general error with the default message', async () => {
    const e = await toApiError(new TypeError('fetch failed'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.type).toBe('general');
    expect(e.message).toBe('Something went wrong, please try again!');
  });
});

describe('api client', () => {
  function recordingFetch(responses: Response[]) {
    const requests: Request[] = [];
    const fetchDouble = (async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Request(input, init));
      const next = responses.shift();
      if (!next) throw new Error('no more responses');
      return next;
    }) as typeof fetch;
    return { requests, fetchDouble };
  }

  it('drops undefined query parameters', () => {
    expect(cleanParams({ a: 1, b: undefined, c: null, d: 'x', e: false })).toEqual({ a: '1', d: 'x', e: 'false' });
  });

  it('sends the client id, token and group code, and drops undefined params', async () => {
    const { requests, fetchDouble } = recordingFetch([
      new Response(JSON.stringify({ items: [], total: 0, page: 1, pageSize: 16 }), { headers: { 'content-type': 'application/json' } }),
    ]);
    const api = createApiClient({
      baseUrl: 'http://api.test/api/v1',
      clientId: () => 'client-123',
      accessToken: () => 'tok',
      groupCode: () => 'ABCD1234',
      fetch: fetchDouble,
    });
    await api.listPublications({ search: 'bee', page: undefined });
    expect(requests).toHaveLength(1);
    const url = new URL(requests[0].url);
    expect(url.pathname).toBe('/api/v1/publications');
    expect([...url.searchParams.keys()]).toEqual(['search']);
    expect(requests[0].headers.get('x-client-id')).toBe('client-123');
    expect(requests[0].headers.get('authorization')).toBe('Bearer tok');
    expect(requests[0].headers.get('x-group-code')).toBe('ABCD1234');
  });

  it('does not retry, and throws an ApiError with the server message', async () => {
    const { requests, fetchDouble } = recordingFetch([
      new Response(JSON.stringify({ errors: [{ code: 'not_found', message: 'Passage not found' }] }), { status: 500 }),
      new Response('{}', { status: 200 }),
    ]);
    const api = createApiClient({ baseUrl: 'http://api.test/api/v1', clientId: () => 'c', fetch: fetchDouble });
    await expect(api.getPassage(1, 0)).rejects.toMatchObject({ name: 'ApiError', message: 'Passage not found', status: 500 });
    expect(requests).toHaveLength(1);
  });

  it('rejects a response that breaks the contract', async () => {
    const { fetchDouble } = recordingFetch([new Response(JSON.stringify({ url: 42 }), { status: 200 })]);
    const api = createApiClient({ baseUrl: 'http://api.test/api/v1', clientId: () => 'c', fetch: fetchDouble });
    await expect(api.getQrTarget('abc')).rejects.toBeInstanceOf(ApiError);
  });
});
