/** The organization calls go through the typed client: better-auth's paths, bodies, and errors as ApiError. */
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/api';
import { createOrganizationApi } from '../../src/api/organization';

function organizationWith(status: number, body: unknown) {
  const requests: Request[] = [];
  const api = createApiClient({
    baseUrl: 'http://api.test/api/v1',
    clientId: () => 'client-1',
    fetch: async (input, init) => {
      requests.push(new Request(input, init));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { organization: createOrganizationApi(api), requests };
}

const invitation = {
  id: 'inv-1',
  email: 'ada@example.org',
  role: 'member',
  status: 'pending',
  organizationId: 'org-1',
  expiresAt: '2027-01-01T00:00:00.000Z',
};

describe('organization calls', () => {
  it('lists members with the organization id in the query, and answers the members', async () => {
    const member = { id: 'm-1', role: 'admin', userId: 'u-1', user: { id: 'u-1', name: 'Ada', email: 'ada@example.org' } };
    const { organization, requests } = organizationWith(200, { members: [member], total: 1 });
    expect(await organization.listMembers('org-1')).toEqual([member]);
    const url = new URL(requests[0]!.url);
    expect(requests[0]!.method).toBe('GET');
    expect(url.pathname).toBe('/api/v1/auth/organization/list-members');
    expect(url.searchParams.get('organizationId')).toBe('org-1');
    expect(requests[0]!.headers.get('X-Client-Id')).toBe('client-1');
  });

  it('invites with a JSON body and parses the invitation (its expiry as a date)', async () => {
    const { organization, requests } = organizationWith(200, invitation);
    const created = await organization.invite('org-1', 'ada@example.org', 'member');
    expect(created.expiresAt).toBeInstanceOf(Date);
    expect(requests[0]!.method).toBe('POST');
    expect(new URL(requests[0]!.url).pathname).toBe('/api/v1/auth/organization/invite-member');
    expect(await requests[0]!.json()).toEqual({ organizationId: 'org-1', email: 'ada@example.org', role: 'member' });
  });

  it('asks for an invitation by id', async () => {
    const { organization, requests } = organizationWith(200, { ...invitation, organizationName: 'Hillside', organizationSlug: 'hillside', inviterEmail: 'admin@example.org' });
    expect((await organization.getInvitation('inv-1')).organizationName).toBe('Hillside');
    expect(new URL(requests[0]!.url).searchParams.get('id')).toBe('inv-1');
  });

  it('raises a refusal as an ApiError with the server message and code', async () => {
    const { organization } = organizationWith(403, { errors: [{ code: 'not_invitation_recipient', message: 'This invitation is for another email address' }] });
    const failure = await organization.acceptInvitation('inv-1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(403);
    expect((failure as ApiError).code).toBe('not_invitation_recipient');
    expect((failure as ApiError).message).toBe('This invitation is for another email address');
  });
});
