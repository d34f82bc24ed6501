/**
 * Primed answers (src/api/primed.ts): the API client takes a page's primed body once, by its key, uses it at once,
 * and checks it when the validation module is in.
 */
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, createPrimedResponses } from '../../src/api';
import { primedKey } from '../../src/domain/primed';

const session = null;
const passage = {
  id: 7,
  editionId: 25,
  position: 3,
  text: '<p>Bees dance.</p>',
  textDecoded: null,
  partName: null,
  sectionName: null,
  imageUrl: null,
  imageAlt: null,
  audio: null,
  licenseRequired: false,
  groupCodeRequired: false,
};

function clientWith(bodies: Record<string, unknown>, groupCode: string | null = null) {
  const asked: string[] = [];
  const mismatches: { path: string; issues: string[] }[] = [];
  const api = createApiClient({
    baseUrl: 'http://api.test/api/v1',
    clientId: () => 'client-1',
    groupCode: () => groupCode,
    primed: createPrimedResponses(bodies),
    onPrimedMismatch: (path, error) => mismatches.push({ path, issues: error.issues.map((i) => i.path.join('.')) }),
    fetch: async (input, init) => {
      const request = new Request(input, init);
      asked.push(new URL(request.url).pathname + new URL(request.url).search);
      return new Response(JSON.stringify(request.url.includes('passages') ? { ...passage, text: '<p>From the server.</p>' } : session), {
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { api, asked, mismatches };
}

describe('primed answers', () => {
  it('keys a GET by its path and its query sorted by name', () => {
    expect(primedKey('/passages', { position: '3', editionId: '25' })).toBe('passages?editionId=25&position=3');
    expect(primedKey('auth/get-session')).toBe('auth/get-session');
  });

  it('answers the first matching GET from the page, then asks the server', async () => {
    const { api, asked } = clientWith({ 'passages?editionId=25&position=3': passage, 'auth/get-session': null });
    expect(await api.getPassage(25, 3)).toMatchObject({ text: '<p>Bees dance.</p>' });
    expect(await api.getSession()).toBeNull();
    expect(asked).toEqual([]);
    expect(await api.getPassage(25, 3)).toMatchObject({ text: '<p>From the server.</p>' });
    expect(asked).toEqual(['/api/v1/passages?editionId=25&position=3']);
  });

  it('checks a primed body once the validation module is in, and reports one that does not match', async () => {
    const { api, mismatches } = clientWith({ 'passages?editionId=25&position=3': { ...passage, position: 'three' }, 'auth/get-session': null });
    // Used at once (the page's first data does not wait for zod)…
    expect(await api.getPassage(25, 3)).toMatchObject({ position: 'three' });
    expect(await api.getSession()).toBeNull();
    // …and checked: the passage is reported, the valid session is not.
    await vi.waitFor(() => expect(mismatches).toEqual([{ path: 'passages', issues: ['position'] }]));
    // An answer from the server is validated before it is used, as always.
    const server = createApiClient({
      baseUrl: 'http://api.test/api/v1',
      clientId: () => 'client-1',
      fetch: async () => new Response(JSON.stringify({ ...passage, position: 'three' }), { headers: { 'content-type': 'application/json' } }),
    });
    await expect(server.getPassage(25, 3)).rejects.toBeInstanceOf(ApiError);
  });

  it('is not used with a class code: the page was primed for a visitor without one', async () => {
    const { api, asked } = clientWith({ 'passages?editionId=25&position=3': passage }, 'ABCD2345');
    expect(await api.getPassage(25, 3)).toMatchObject({ text: '<p>From the server.</p>' });
    expect(asked).toHaveLength(1);
  });
});
