/**
 * The staff roster against a real server on PGlite: POST and GET /organizations/{id}/roster with the
 * sample roster (docs/examples/oneroster), bad bundles that change nothing, 200 generated staff in one dry run and one
 * apply, claimRosterStaff at sign-in, re-imports that keep claimed memberships in step, and `npm run admin -- roster
 * import`. Reading the CSVs themselves is tested in tests/roster/oneroster.test.ts.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { getJson, signUpUser, startFixtureServer } from './harness';
import type { RunningServer } from '../../server/server';
import { runAdmin } from '../../server/admin/commands';
import { claimRosterStaff } from '../../server/roster/service';
import { createOrganization, getRole, makeOrgAdmin, organizationRoleOf, setMembership } from '../../server/accounts/service';
import { ROSTER_MAX_UPLOAD_BYTES } from '../../src/domain/rosterSchemas';
import { SAMPLE_DIR, bundleOf, generatedStaff, sampleBundle, zipOf, type Person } from '../roster/fixtures';

let server: RunningServer;
beforeAll(async () => {
  server = await startFixtureServer({ accounts: { env: { TRUST_PROXY: 'true' } } });
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const db = () => server.database.db;

function roster(organizationId: string, init: { cookie?: string; body?: Uint8Array<ArrayBuffer> | string; type?: string; dryRun?: string } = {}) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': `203.0.113.${1 + (n++ % 200)}` };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.body !== undefined) headers['Content-Type'] = init.type ?? 'application/zip';
  const search = init.dryRun === undefined ? '' : `?dryRun=${init.dryRun}`;
  const pathname = `/api/v1/organizations/${encodeURIComponent(organizationId)}/roster${search}`;
  return getJson(server, pathname, { method: init.body === undefined ? 'GET' : 'POST', headers, body: init.body });
}

/** A new school and a signed-in admin of it. */
async function school() {
  const org = await createOrganization(db(), `Roster School ${Date.now()} ${n++}`);
  const admin = await signUpUser(server, { name: 'Ada Admin', ip: `198.51.100.${1 + (n++ % 200)}` });
  await makeOrgAdmin(db(), admin.email, org.slug);
  return { org, admin };
}

/** A signed-up account with this address, verified (as a provider's sign-in leaves it). */
async function verifiedAccount(email: string) {
  const account = await signUpUser(server, { email, ip: `198.51.100.${1 + (n++ % 200)}` });
  await db().execute(sql`update "user" set email_verified = true where id = ${account.userId}`);
  return { id: account.userId, email, emailVerified: true };
}

const statuses = async (organizationId: string, cookie: string) =>
  (await roster(organizationId, { cookie })).body.staff.map((s: { sourcedId: string; status: string }) => `${s.sourcedId}:${s.status}`);

describe('who may use the roster routes', () => {
  it('answers 401 without a session, 403 to a member who is not an admin and for an unknown organization', async () => {
    const { org, admin } = await school();
    const zip = zipOf(sampleBundle());
    expect((await roster(org.id)).status).toBe(401);
    expect((await roster(org.id, { body: zip })).body.errors[0].code).toBe('unauthorized');
    const teacher = await signUpUser(server, { ip: '198.51.100.250' });
    await setMembership(db(), teacher.userId, org.id, 'member');
    for (const res of [await roster(org.id, { cookie: teacher.cookie }), await roster(org.id, { cookie: teacher.cookie, body: zip, dryRun: 'true' })]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toEqual({ code: 'forbidden', message: "Only the organization's admins can see and import its roster." });
    }
    expect((await roster('no-such-organization', { cookie: admin.cookie })).status).toBe(403);
    expect((await roster('no-such-organization', { cookie: admin.cookie, body: zip })).status).toBe(403);
  });
});

describe('importing the sample roster', () => {
  it('dry-runs without a change, applies, lists, and re-imports as unchanged', async () => {
    const { org, admin } = await school();
    const empty = await roster(org.id, { cookie: admin.cookie });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ staff: [] });
    expect(empty.headers.get('cache-control')).toBe('no-store');

    const zip = zipOf(sampleBundle());
    const dry = await roster(org.id, { cookie: admin.cookie, body: zip, dryRun: 'true' });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, applied: false, problems: [] });
    expect(dry.body.counts).toEqual({ add: 5, update: 0, unchanged: 0, disable: 1, skippedRoles: 2, enrollments: 5, classes: 2 });
    expect(dry.body.staff[0]).toEqual({ sourcedId: 't-1001', email: 'ana.wren@hillside.example.org', givenName: 'Ana', familyName: 'Wren', role: 'teacher', enabled: true, action: 'add' });
    expect(dry.body.staff.find((s: { sourcedId: string }) => s.sourcedId === 't-1005').action).toBe('disable');
    expect((await roster(org.id, { cookie: admin.cookie })).body.staff).toEqual([]);

    const applied = await roster(org.id, { cookie: admin.cookie, body: zip, type: 'application/x-zip-compressed' });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body).toMatchObject({ dryRun: false, applied: true, counts: { add: 5, disable: 1 } });
    const listed = await roster(org.id, { cookie: admin.cookie });
    expect(listed.body.staff.map((s: { familyName: string }) => s.familyName)).toEqual(['Grant', 'Li', 'Morgan', 'Okafor', 'Ruiz', 'Wren']);
    expect(listed.body.staff[2]).toEqual({ sourcedId: 'a-2001', email: 'eli.morgan@hillside.example.org', givenName: 'Eli', familyName: 'Morgan', role: 'admin', enabled: true, status: 'pending' });
    expect(await statuses(org.id, admin.cookie)).toEqual(['t-1005:disabled', 't-1003:pending', 'a-2001:pending', 't-1002:pending', 't-1004:pending', 't-1001:pending']);

    const again = await roster(org.id, { cookie: admin.cookie, body: zip, type: 'application/octet-stream' });
    expect(again.body.counts).toMatchObject({ add: 0, update: 0, unchanged: 6, disable: 0 });
  });
});

describe('bad input changes nothing', () => {
  it('lists the problems on a dry run, answers 422 on an apply, and leaves the roster as it was', async () => {
    const { org, admin } = await school();
    await roster(org.id, { cookie: admin.cookie, body: zipOf(bundleOf([{ sourcedId: 't1', givenName: 'Ana', familyName: 'Wren', email: 'ana@s.org', role: 'teacher' }])) });
    const broken = bundleOf([
      { sourcedId: 't1', givenName: 'Ana', familyName: 'Renamed', email: 'ana@s.org', role: 'teacher' },
      { sourcedId: 't2', givenName: 'Ben', familyName: 'Okafor', email: 'ben@s.org', role: 'teacher' },
      { sourcedId: 't3', givenName: 'Cy', familyName: 'Li', email: 'not an address', role: 'teacher', enabledUser: 'yes' },
    ]);
    const dry = await roster(org.id, { cookie: admin.cookie, body: zipOf(broken), dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.problems).toEqual([
      { file: 'users.csv', line: 4, message: "email 'not an address' is not a valid address (sourcedId 't3')." },
      { file: 'users.csv', line: 4, message: "enabledUser must be true or false, not 'yes' (sourcedId 't3')." },
    ]);
    expect(dry.body.counts).toMatchObject({ add: 1, update: 1 });
    const applied = await roster(org.id, { cookie: admin.cookie, body: zipOf(broken) });
    expect(applied.status).toBe(422);
    expect(applied.body.errors).toEqual([
      { code: 'roster_invalid', message: "users.csv line 4: email 'not an address' is not a valid address (sourcedId 't3')." },
      { code: 'roster_invalid', message: "users.csv line 4: enabledUser must be true or false, not 'yes' (sourcedId 't3')." },
    ]);
    const { 'roles.csv': _roles, ...noRoles } = broken;
    const missing = await roster(org.id, { cookie: admin.cookie, body: zipOf(noRoles) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].message).toBe('roles.csv: The file is missing: a staff import needs manifest.csv, orgs.csv, users.csv, roles.csv.');
    // A NUL in a cell is a problem like any other: 422 on an apply, never a database error.
    const nul = await roster(org.id, { cookie: admin.cookie, body: zipOf(bundleOf([{ sourcedId: 't1', givenName: 'A\u0000na', familyName: 'Wren', email: 'ana@s.org', role: 'teacher' }])) });
    expect(nul.status).toBe(422);
    expect(nul.body.errors).toEqual([{ code: 'roster_invalid', message: "users.csv line 2: The value of 'givenName' must not contain U+0000 or unpaired surrogates." }]);
    expect((await roster(org.id, { cookie: admin.cookie })).body.staff).toEqual([expect.objectContaining({ sourcedId: 't1', familyName: 'Wren' })]);
  });

  it('answers 400 for what is not a zip, a bomb and an unsafe path; 415 for another type; 413 over the cap', async () => {
    const { org, admin } = await school();
    const post = (body: Uint8Array<ArrayBuffer> | string, type?: string) => roster(org.id, { cookie: admin.cookie, body, type, dryRun: 'true' });
    const bad = async (body: Uint8Array<ArrayBuffer> | string, message: RegExp) => {
      const res = await post(body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errors[0].code).toBe('roster_invalid');
      expect(res.body.errors[0].message).toMatch(message);
    };
    await bad('sourcedId,status\n', /^This is not a readable zip file/);
    await bad(new Uint8Array(0), /^The body is empty/);
    await bad(new Uint8Array(zipSync({ 'manifest.csv': strToU8('x'), 'users.csv': new Uint8Array(50 * 1024 * 1024) }, { level: 9 })), /would unpack to 50 MB; the most is 20 MB\. This is a zip bomb/);
    await bad(zipOf({ ...sampleBundle(), '../../etc/cron.d/x': 'x' }), /unsafe path '\.\.\/\.\.\/etc\/cron\.d\/x'/);
    const text = await post(zipOf(sampleBundle()), 'text/csv');
    expect(text.status).toBe(415);
    expect(text.body.errors[0].code).toBe('unsupported_media_type');
    expect((await roster(org.id, { cookie: admin.cookie, body: zipOf(sampleBundle()), dryRun: 'maybe' })).status).toBe(400);
    const huge = await post(new Uint8Array(ROSTER_MAX_UPLOAD_BYTES + 1));
    expect(huge.status).toBe(413);
    expect(huge.body.errors[0]).toEqual({ code: 'payload_too_large', message: 'The zip is too large: a roster upload may be at most 10 MB.' });
    // Without a Content-Length (a stream), the running count stops it.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 11; i++) controller.enqueue(new Uint8Array(1024 * 1024));
        controller.close();
      },
    });
    const chunked = await fetch(`${server.url}/api/v1/organizations/${org.id}/roster?dryRun=true`, {
      method: 'POST',
      headers: { Origin: server.url, Cookie: admin.cookie, 'Content-Type': 'application/zip' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});

describe('200 staff', () => {
  it('imports in one dry run and one apply', async () => {
    const { org, admin } = await school();
    const zip = zipOf(bundleOf(generatedStaff(200)));
    const started = Date.now();
    const dry = await roster(org.id, { cookie: admin.cookie, body: zip, dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.counts).toEqual({ add: 200, update: 0, unchanged: 0, disable: 0, skippedRoles: 200, enrollments: 0, classes: 0 });
    const applied = await roster(org.id, { cookie: admin.cookie, body: zip });
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toBe(true);
    const listed = (await roster(org.id, { cookie: admin.cookie })).body.staff;
    expect(listed).toHaveLength(200);
    expect(listed.filter((s: { role: string }) => s.role === 'admin')).toHaveLength(20);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('claiming at sign-in, and re-imports after it', () => {
  const staff = (domain: string): Person[] => [
    { sourcedId: 't1', givenName: 'Ana', familyName: 'Wren', email: `ana@${domain}`, role: 'teacher' },
    { sourcedId: 'a1', givenName: 'Eli', familyName: 'Morgan', email: `eli@${domain}`, role: 'principal' },
    { sourcedId: 't2', givenName: 'Fay', familyName: 'Grant', email: `fay@${domain}`, role: 'teacher', enabledUser: 'false' },
    { sourcedId: 'o1', givenName: 'Olga', familyName: 'Owner', email: `olga@${domain}`, role: 'teacher' },
  ];

  it('completes enabled rows for a verified address only, in every organization, never downgrading', async () => {
    const domain = `claim${Date.now()}.example.org`;
    const first = await school();
    const second = await school();
    await roster(first.org.id, { cookie: first.admin.cookie, body: zipOf(bundleOf(staff(domain))) });
    await roster(second.org.id, { cookie: second.admin.cookie, body: zipOf(bundleOf(staff(domain).slice(0, 1))) });

    // Unverified: nothing.
    const unverified = await signUpUser(server, { email: `ana@${domain}`, ip: '198.51.100.251' });
    await claimRosterStaff(db(), { id: unverified.userId, email: `ana@${domain}`, emailVerified: false });
    expect(await organizationRoleOf(db(), unverified.userId, first.org.id)).toBeNull();
    // Verified (the address in another case): a member with TEACHER in both organizations.
    await db().execute(sql`update "user" set email_verified = true where id = ${unverified.userId}`);
    await claimRosterStaff(db(), { id: unverified.userId, email: `ANA@${domain.toUpperCase()}`, emailVerified: true });
    expect(await organizationRoleOf(db(), unverified.userId, first.org.id)).toBe('member');
    expect(await organizationRoleOf(db(), unverified.userId, second.org.id)).toBe('member');
    expect(await getRole(db(), unverified.userId)).toBe('TEACHER');

    const eli = await verifiedAccount(`eli@${domain}`);
    await claimRosterStaff(db(), eli);
    expect(await organizationRoleOf(db(), eli.id, first.org.id)).toBe('admin');
    expect(await getRole(db(), eli.id)).toBeNull();

    const fay = await verifiedAccount(`fay@${domain}`);
    await claimRosterStaff(db(), fay);
    expect(await organizationRoleOf(db(), fay.id, first.org.id)).toBeNull();

    const olga = await verifiedAccount(`olga@${domain}`);
    await setMembership(db(), olga.id, first.org.id, 'owner');
    await claimRosterStaff(db(), olga);
    expect(await organizationRoleOf(db(), olga.id, first.org.id)).toBe('owner');
    expect(await getRole(db(), olga.id)).toBe('TEACHER');

    expect(await statuses(first.org.id, first.admin.cookie)).toEqual(['t2:disabled', 'a1:active', 'o1:active', 't1:active']);

    // A re-import: Ana disabled (loses the membership), Eli a teacher now (member, TEACHER), the owner disabled (kept).
    const changed = staff(domain).map((p) =>
      p.sourcedId === 't1' || p.sourcedId === 'o1' ? { ...p, enabledUser: 'false' } : p.sourcedId === 'a1' ? { ...p, role: 'teacher' } : p,
    );
    const res = await roster(first.org.id, { cookie: first.admin.cookie, body: zipOf(bundleOf(changed)) });
    expect(res.body.counts).toMatchObject({ update: 1, disable: 2, unchanged: 1 });
    expect(await organizationRoleOf(db(), unverified.userId, first.org.id)).toBeNull();
    expect(await organizationRoleOf(db(), unverified.userId, second.org.id)).toBe('member');
    expect(await organizationRoleOf(db(), eli.id, first.org.id)).toBe('member');
    expect(await getRole(db(), eli.id)).toBe('TEACHER');
    expect(await organizationRoleOf(db(), olga.id, first.org.id)).toBe('owner');

    // Enabled again: the claimed member is back, without signing in again.
    await roster(first.org.id, { cookie: first.admin.cookie, body: zipOf(bundleOf(staff(domain))) });
    expect(await organizationRoleOf(db(), unverified.userId, first.org.id)).toBe('member');
    expect(await organizationRoleOf(db(), eli.id, first.org.id)).toBe('admin');
  });
});

describe('npm run admin -- roster import', () => {
  async function admin(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const cwd = path.resolve(SAMPLE_DIR, '../../..');
    const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), contentDir: cwd, cwd, database: server.database });
    return { code, out, err };
  }

  it('prints the plan on a dry run, applies, and exits 1 on problems or an unknown organization', async () => {
    const { org, admin: orgAdmin } = await school();
    const dry = await admin('roster', 'import', org.slug, 'docs/examples/oneroster', '--dry-run');
    expect(dry.code, dry.err.join('\n')).toBe(0);
    expect(dry.out[0]).toBe(`Dry run for ${org.slug} (nothing was changed):`);
    expect(dry.out[1]).toMatch(/^ {2}ACTION\s+SOURCEDID\s+ROLE\s+ENABLED\s+NAME\s+EMAIL$/);
    expect(dry.out).toContainEqual(expect.stringMatching(/^ {2}add\s+a-2001\s+admin\s+yes\s+Morgan, Eli\s+eli\.morgan@hillside\.example\.org$/));
    expect(dry.out.at(-1)).toBe('5 to add, 0 to update, 0 unchanged, 1 to disable; 2 other role(s) skipped (students and others are not imported); 5 enrollment(s) and 2 class(es) counted.');
    expect(await statuses(org.id, orgAdmin.cookie)).toEqual([]);

    const applied = await admin('roster', 'import', org.slug, 'docs/examples/oneroster');
    expect(applied.code).toBe(0);
    expect(applied.out.at(-1)).toMatch(/^5 added, 0 updated, 0 unchanged, 1 disabled;/);
    const again = await admin('roster', 'import', org.slug, 'docs/examples/oneroster');
    expect(again.out).toEqual([`Imported the roster into ${org.slug}:`, expect.stringMatching(/^0 added, 0 updated, 6 unchanged, 0 disabled;/)]);

    const noOrg = await admin('roster', 'import', 'no-such-school', 'docs/examples/oneroster');
    expect(noOrg.code).toBe(1);
    expect(noOrg.err).toEqual(["error: No organization 'no-such-school'. Create it with: org create <name>"]);
    const noFile = await admin('roster', 'import', org.slug, 'docs/examples/none.zip');
    expect(noFile.code).toBe(1);
    expect(noFile.err[0]).toMatch(/^error: There is no file or folder at .*docs\/examples\/none\.zip\.$/);
    const broken = await admin('roster', 'import', org.slug, 'tests', '--dry-run');
    expect(broken.code).toBe(1);
    expect(broken.err[0]).toBe('4 problem(s); nothing was changed:');
    expect(broken.err[1]).toMatch(/^ {2}manifest\.csv: The file is missing/);
  });
});

describe('the OpenAPI document', () => {
  it('lists the roster routes', async () => {
    const doc = (await getJson(server, '/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/organizations/{organizationId}/roster']).sort()).toEqual(['get', 'post']);
    expect(doc.components.schemas.RosterReport).toBeTruthy();
  });
});
