/**
 * The roster calls: the zip's bytes go as they are (Content-Type: application/zip), with ?dryRun=true
 * for the check and without for the apply; answers are checked with the shared roster schemas, and refusals come
 * back as ApiErrors with the server's message.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../src/api';
import { createOrganizationApi } from '../../src/api/organization';
import type { RosterReport } from '../../src/domain/rosterSchemas';

const BASE = 'http://api.test/api/v1';

function rosterWith(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const api = createApiClient({ baseUrl: BASE, clientId: () => 'client-1', fetch });
  return { organization: createOrganizationApi(api), requests };
}

const report: RosterReport = {
  dryRun: true,
  applied: false,
  counts: { add: 1, update: 0, unchanged: 0, disable: 0, skippedRoles: 2, enrollments: 0, classes: 0 },
  staff: [{ sourcedId: 't1', email: 'ada@hillside.org', givenName: 'Ada', familyName: 'Lovelace', role: 'teacher', enabled: true, action: 'add' }],
  problems: [],
};

const zipBytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

describe('roster calls', () => {
  it('checks a zip: its bytes, as application/zip, with dryRun=true', async () => {
    const { organization, requests } = rosterWith(200, report);
    expect(await organization.checkRoster('org 1', new Blob([zipBytes]))).toEqual(report);
    const request = requests[0]!;
    const url = new URL(request.url);
    expect(request.method).toBe('POST');
    expect(url.pathname).toBe('/api/v1/organizations/org%201/roster');
    expect(request.headers.get('X-Client-Id')).toBe('client-1');
    expect(url.searchParams.get('dryRun')).toBe('true');
    expect(request.headers.get('Content-Type')).toBe('application/zip');
    expect(new Uint8Array(await request.arrayBuffer())).toEqual(zipBytes);
  });

  it('applies the same bytes without dryRun', async () => {
    const { organization, requests } = rosterWith(200, { ...report, dryRun: false, applied: true });
    expect((await organization.applyRoster('org-1', new Blob([zipBytes]))).applied).toBe(true);
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe('/api/v1/organizations/org-1/roster');
    expect(url.searchParams.has('dryRun')).toBe(false);
    expect(new Uint8Array(await requests[0]!.arrayBuffer())).toEqual(zipBytes);
  });

  it("raises a refused apply as an ApiError with the server's message", async () => {
    const { organization } = rosterWith(422, { errors: [{ code: 'roster_invalid', message: 'users.csv line 3: not an email address' }] });
    const failure = await organization.applyRoster('org-1', new Blob([zipBytes])).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(422);
    expect((failure as ApiError).code).toBe('roster_invalid');
    expect((failure as ApiError).message).toBe('users.csv line 3: not an email address');
  });

  it('fails loudly on an answer that is not a report', async () => {
    const { organization } = rosterWith(200, { dryRun: true });
    await expect(organization.checkRoster('org-1', new Blob([zipBytes]))).rejects.toBeInstanceOf(ApiError);
  });

  it('lists the roster staff with their status', async () => {
    const staff = [{ sourcedId: 't1', email: 'ada@hillside.org', givenName: 'Ada', familyName: 'Lovelace', role: 'teacher', enabled: true, status: 'pending' }];
    const { organization, requests } = rosterWith(200, { staff });
    expect(await organization.listRosterStaff('org-1')).toEqual(staff);
    expect(requests[0]!.method).toBe('GET');
    expect(new URL(requests[0]!.url).pathname).toBe('/api/v1/organizations/org-1/roster');
    expect(requests[0]!.headers.get('X-Client-Id')).toBe('client-1');
  });
});
