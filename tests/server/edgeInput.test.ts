/**
 * On a real server: hostile input gets a 4xx in the error shape and never reaches the database; a
 * route that takes JSON refuses other types with 415; sign-out needs no body; unknown addresses under /api/ (path
 * tricks sent raw included) answer the JSON 404, never the web app; refusals reach a real client streaming a real
 * file over a real socket; and the log tells faults from client errors and keeps health probes out of info.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { count } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server';
import { user, session as sessionTable } from '../../server/db/authSchema';
import { rateLimits } from '../../server/db/schema';
import { cookiesOf, licensedTeacher, signUpUser, TEST_PASSWORD, writeFixtureLibrary } from './harness';
import { MAX_NAME_LENGTH, MAX_NESTING_DEPTH } from '../../src/domain/textRules';
import { ROSTER_MAX_UPLOAD_BYTES } from '../../src/domain/rosterSchemas';

/** Every log line the server writes, parsed. */
const logLines: { level: number; msg: string; path?: string; status?: number }[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

const APP_HTML = '<!doctype html><html><head><title>Lectern web app</title></head><body><div id="root"></div></body></html>';
let server: RunningServer;
let dist: string;
let tmp: string;
let member: { cookie: string; email: string };
let teacher: { cookie: string; email: string; org: { id: string } };
let docxFile: string;
let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter++ % 250) + 1}`;

/** A real Word document (an OOXML zip with one paragraph), about 1 KB. */
function writeDocx(file: string): void {
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
  fs.writeFileSync(
    file,
    zipSync(
      {
        '[Content_Types].xml': strToU8(
          `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
        ),
        '_rels/.rels': strToU8(
          `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
        ),
        'word/document.xml': strToU8(
          `${xml}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>The river carried small boats past the old mill.</w:t></w:r></w:p></w:body></w:document>`,
        ),
      },
      { level: 9 },
    ),
  );
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-edge-'));
  dist = path.join(tmp, 'dist');
  fs.mkdirSync(dist);
  fs.writeFileSync(path.join(dist, 'index.html'), APP_HTML);
  docxFile = path.join(tmp, 'lesson-plan.docx');
  writeDocx(docxFile);
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: 'memory://',
    contentDir: writeFixtureLibrary(0),
    distDir: dist,
    translationProvider: null,
    logger: pino({ level: 'debug' }, capture),
    accounts: { env: { TRUST_PROXY: 'true' } },
    // A route that fails as a fault does, for the log levels.
    extraRoutes: (app) =>
      app.get('/fault-for-test', () => {
        throw new Error('a fault for the test');
      }),
  });
  member = await signUpUser(server, { name: 'Edge Reader', ip: freshIp() });
  teacher = await licensedTeacher(server, ['USER_UPLOAD'], { ip: freshIp() });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const LEAKS = /\bat \S+ \(|node_modules|\/work\/|\/server\/|\.ts:\d+|Error: |stack/;

interface Hostile {
  name: string;
  method: string;
  path: string;
  /** A JSON value (sent as application/json unless `type` says otherwise), or raw text. */
  json?: unknown;
  text?: string;
  type?: string;
  headers?: Record<string, string>;
  /** With the session of a reader (true) or of the licensed teacher. */
  signedIn?: boolean | 'teacher';
  status?: number;
  code?: string;
}

/** JSON text of objects nested `depth` deep (as text: a deep value would overflow the test's own stack). */
const nestedJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const big = 'x'.repeat(100 * 1024);
const signUp = (fields: Record<string, unknown>) => ({ email: `edge.${Math.random().toString(36).slice(2)}@example.org`, password: TEST_PASSWORD, name: 'Edge', ...fields });
const event = { name: 'Opened Publication', at: new Date().toISOString() };

/** The table of hostile requests: each gets a 4xx in the error shape, none reaches the database. */
const HOSTILE: Hostile[] = [
  // U+0000 in bodies, queries and paths.
  { name: 'NUL in the sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'Ann\u0000Lee' }), status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the sign-up email', method: 'POST', path: '/auth/sign-up/email', json: signUp({ email: 'ann\u0000@example.org' }), status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the sign-up password', method: 'POST', path: '/auth/sign-up/email', json: signUp({ password: 'violet-\u0000harbor' }), status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the sign-in email (not a rate-limit 503)', method: 'POST', path: '/auth/sign-in/email', json: { email: 'ann\u0000@example.org', password: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in a body key', method: 'POST', path: '/auth/sign-in/email', json: { 'em\u0000ail': 'ann@example.org', password: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the reset-password token', method: 'POST', path: '/auth/reset-password', json: { token: 'abc\u0000def', newPassword: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the password-reset email', method: 'POST', path: '/auth/request-password-reset', json: { email: 'ann\u0000@example.org' }, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the new email', method: 'POST', path: '/auth/change-email', json: { newEmail: 'new\u0000@example.org' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in update-user name', method: 'POST', path: '/auth/update-user', json: { name: 'Ann\u0000' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in an invitation id (organization plugin)', method: 'POST', path: '/auth/organization/accept-invitation', json: { invitationId: 'inv\u0000' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the organization id to activate', method: 'POST', path: '/auth/organization/set-active', json: { organizationId: 'org\u0000' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the verify-email token (query)', method: 'GET', path: '/auth/verify-email?token=abc%00def', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in get-invitation id (query)', method: 'GET', path: '/auth/organization/get-invitation?id=%00', signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the reset link token (path)', method: 'GET', path: '/auth/reset-password/abc%00def?callbackURL=%2Freset', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in an invitation id (path)', method: 'POST', path: '/invitations/%00/confirmation-email', signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in a slug (path)', method: 'GET', path: '/publications/alpha%00owls', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in an upload slug (DELETE)', method: 'DELETE', path: '/uploads/my%00upload', signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the catalog search', method: 'GET', path: '/publications?search=owl%00s', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in a query parameter name', method: 'GET', path: '/publications?se%00arch=owls', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the role', method: 'PATCH', path: '/users/me/role', json: { role: 'TEACHER\u0000' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in a beacon (text/plain)', method: 'POST', path: '/events', text: JSON.stringify({ clientId: 'abc\u0000', events: [event] }), type: 'text/plain', status: 400, code: 'invalid_parameter' },
  { name: 'NUL in the school email (SSO)', method: 'POST', path: '/sso/sign-in', json: { email: 'ann\u0000@school.org' }, status: 400, code: 'invalid_parameter' },
  { name: 'NUL in an on-demand version', method: 'POST', path: '/publications/alpha-owls/sources/on-demand', json: { version: 'v1\u0000', languageCode: 'es', level: 'GOLD' }, status: 400, code: 'invalid_parameter' },
  // Lone surrogates.
  { name: 'a lone high surrogate in the sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'Ann \uD800' }), status: 400, code: 'invalid_parameter' },
  { name: 'a lone low surrogate in the sign-in email', method: 'POST', path: '/auth/sign-in/email', json: { email: '\uDC00ann@example.org', password: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'a lone surrogate in a nested organization field', method: 'POST', path: '/auth/organization/update', json: { organizationId: 'x', data: { name: 'School \uDBFF' } }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'a lone surrogate in a role update', method: 'PATCH', path: '/users/me/role', json: { role: '\uD83D' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  // Percent-escapes that are not UTF-8 (a surrogate's bytes), and fields of text that hold something else.
  { name: "a surrogate's bytes in the search", method: 'GET', path: '/publications?search=owls%ED%A0%80', status: 400, code: 'invalid_parameter' },
  { name: "a surrogate's bytes in the verify-email token", method: 'GET', path: '/auth/verify-email?token=abc%ED%B0%80', status: 400, code: 'invalid_parameter' },
  { name: 'bytes that are not UTF-8 in a path segment', method: 'GET', path: '/qr/owls%FF%FE', status: 400, code: 'invalid_parameter' },
  { name: 'a number for the update-user name', method: 'POST', path: '/auth/update-user', json: { name: 12345 }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'an object for the sign-in email', method: 'POST', path: '/auth/sign-in/email', json: { email: { $ne: '' }, password: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  // Control characters where they make no sense.
  { name: 'a bell (C0) in the sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'Ann\u0007' }), status: 400, code: 'invalid_parameter' },
  { name: 'a line break in the sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'Ann\nLee' }), status: 400, code: 'invalid_parameter' },
  { name: 'NEL (C1) in the sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'Ann\u0085' }), status: 400, code: 'invalid_parameter' },
  { name: 'DEL in the update-user name', method: 'POST', path: '/auth/update-user', json: { name: 'Ann\u007F' }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'a tab in the sign-up email', method: 'POST', path: '/auth/sign-up/email', json: signUp({ email: 'ann\t@example.org' }), status: 400, code: 'invalid_parameter' },
  { name: 'an escape in the reset token', method: 'POST', path: '/auth/reset-password', json: { token: 'abc\u001bdef', newPassword: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'a control character in a QR code (path)', method: 'GET', path: '/qr/owls%071', status: 400, code: 'invalid_parameter' },
  { name: 'a control character in a path segment', method: 'GET', path: '/passages/%1b/decode', status: 400, code: 'invalid_parameter' },
  { name: 'a control character in the verify-email callback', method: 'GET', path: '/auth/verify-email?token=abc&callbackURL=%2F%0Aset-cookie', status: 400, code: 'invalid_parameter' },
  { name: 'NEL in X-Client-Id', method: 'GET', path: '/publications', headers: { 'X-Client-Id': 'client\u0085' }, status: 400, code: 'invalid_header' },
  // Huge strings.
  { name: 'a 100 KB sign-up name', method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: big }), status: 400, code: 'invalid_parameter' },
  { name: `a ${MAX_NAME_LENGTH + 1}-character sign-up name`, method: 'POST', path: '/auth/sign-up/email', json: signUp({ name: 'n'.repeat(MAX_NAME_LENGTH + 1) }), status: 400, code: 'invalid_parameter' },
  { name: 'a 100 KB update-user name', method: 'POST', path: '/auth/update-user', json: { name: big }, signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'a 100 KB sign-in email', method: 'POST', path: '/auth/sign-in/email', json: { email: `${big}@example.org`, password: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'a 100 KB reset token', method: 'POST', path: '/auth/reset-password', json: { token: big, newPassword: TEST_PASSWORD }, status: 400, code: 'invalid_parameter' },
  { name: 'a 10 KB search', method: 'GET', path: `/publications?search=${'s'.repeat(10_000)}`, status: 400, code: 'invalid_parameter' },
  { name: 'a 100 KB on-demand version', method: 'POST', path: '/publications/alpha-owls/sources/on-demand', json: { version: big, languageCode: 'es', level: 'GOLD' }, status: 400, code: 'invalid_parameter' },
  { name: 'a 100 KB string in an analytics batch', method: 'POST', path: '/events', json: { clientId: 'abc', events: [{ ...event, publication: big }] }, status: 400, code: 'invalid_parameter' },
  { name: 'a 60 KB analytics batch of short strings', method: 'POST', path: '/events', json: { clientId: 'abc', events: Array.from({ length: 1000 }, () => event) }, status: 413, code: 'payload_too_large' },
  { name: 'a 2 MB JSON body', method: 'POST', path: '/auth/sign-in/email', json: { email: 'ann@example.org', password: TEST_PASSWORD, padding: 'p'.repeat(2 * 1024 * 1024) }, status: 413, code: 'payload_too_large' },
  // Deep nesting.
  { name: 'a sign-in body nested 5000 deep', method: 'POST', path: '/auth/sign-in/email', text: `{"email":"ann@example.org","password":"${TEST_PASSWORD}","extra":${nestedJson(5000)}}`, type: 'application/json', status: 400, code: 'invalid_parameter' },
  { name: `a role body nested ${MAX_NESTING_DEPTH + 1} deep`, method: 'PATCH', path: '/users/me/role', text: `{"role":${nestedJson(MAX_NESTING_DEPTH)}}`, type: 'application/json', signedIn: true, status: 400, code: 'invalid_parameter' },
  { name: 'an on-demand body nested 50000 deep', method: 'POST', path: '/publications/alpha-owls/sources/on-demand', text: '['.repeat(50_000) + ']'.repeat(50_000), type: 'application/json', status: 400, code: 'invalid_parameter' },
  // Wrong content types on routes that take JSON.
  { name: 'sign-in as text/plain', method: 'POST', path: '/auth/sign-in/email', text: JSON.stringify({ email: 'ann@example.org', password: TEST_PASSWORD }), type: 'text/plain', status: 415, code: 'unsupported_media_type' },
  { name: 'sign-in as a form', method: 'POST', path: '/auth/sign-in/email', text: 'email=ann%40example.org&password=x', type: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type' },
  { name: 'sign-up as multipart', method: 'POST', path: '/auth/sign-up/email', text: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nann@example.org\r\n--b--\r\n', type: 'multipart/form-data; boundary=b', status: 415, code: 'unsupported_media_type' },
  { name: 'reset-password with a body and no Content-Type', method: 'POST', path: '/auth/reset-password', text: '{"token":"abc","newPassword":"x"}', type: '', status: 415, code: 'unsupported_media_type' },
  { name: 'the role as text/plain', method: 'PATCH', path: '/users/me/role', text: '{"role":"TEACHER"}', type: 'text/plain', signedIn: true, status: 415, code: 'unsupported_media_type' },
  { name: 'title visibility as XML', method: 'PATCH', path: '/users/titles/1/visibility', text: '<status>ASSIGNED</status>', type: 'application/xml', signedIn: 'teacher', status: 415, code: 'unsupported_media_type' },
  { name: 'SSO sign-in as text/plain', method: 'POST', path: '/sso/sign-in', text: '{"email":"ann@school.org"}', type: 'text/plain', status: 415, code: 'unsupported_media_type' },
  { name: 'an on-demand edition as a form', method: 'POST', path: '/publications/alpha-owls/sources/on-demand', text: 'version=v1&languageCode=es&level=GOLD', type: 'application/x-www-form-urlencoded', status: 415, code: 'unsupported_media_type' },
  { name: 'events as XML', method: 'POST', path: '/events', text: '<events/>', type: 'application/xml', status: 415, code: 'unsupported_media_type' },
  // Unknown addresses under /api/ and path tricks fetch can send.
  { name: 'another API version', method: 'GET', path: '/../v2/publications', status: 404, code: 'not_found' },
  { name: 'an unknown v1 address', method: 'GET', path: '/nope', status: 404, code: 'not_found' },
  { name: 'a POST to an unknown v1 address', method: 'POST', path: '/nope', json: {}, status: 404, code: 'not_found' },
  { name: 'an encoded traversal in a slug', method: 'GET', path: '/publications/..%2F..%2Fetc%2Fpasswd', status: 400, code: 'invalid_parameter' },
];

async function send(row: Hostile) {
  const headers: Record<string, string> = { Origin: server.url, 'X-Forwarded-For': freshIp(), ...row.headers };
  if (row.signedIn) headers.Cookie = row.signedIn === 'teacher' ? teacher.cookie : member.cookie;
  let body: string | undefined;
  if (row.json !== undefined) {
    body = JSON.stringify(row.json);
    headers['Content-Type'] = row.type ?? 'application/json';
  } else if (row.text !== undefined) {
    body = row.text;
    if (row.type) headers['Content-Type'] = row.type;
  }
  const res = await fetch(`${server.url}/api/v1${row.path}`, { method: row.method, headers, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function rowCounts() {
  const db = server.database.db;
  const [[users], [sessions], [limits]] = await Promise.all([
    db.select({ n: count() }).from(user),
    db.select({ n: count() }).from(sessionTable),
    db.select({ n: count() }).from(rateLimits),
  ]);
  return { users: users!.n, sessions: sessions!.n, rateLimits: limits!.n };
}

function expectErrorShape(where: string, answer: { status: number; type: string; text: string }) {
  expect(answer.status, where).toBeGreaterThanOrEqual(400);
  expect(answer.status, where).toBeLessThan(500);
  expect(answer.type, where).toContain('application/json');
  expect(answer.text, where).not.toMatch(LEAKS);
  const json = JSON.parse(answer.text);
  expect(Array.isArray(json.errors) && json.errors.length > 0, where).toBe(true);
  for (const e of json.errors) {
    expect(typeof e.code === 'string' && e.code.length > 0, where).toBe(true);
    expect(typeof e.message === 'string' && e.message.length > 0, where).toBe(true);
  }
  return json as { errors: { code: string; message: string }[] };
}

describe('hostile requests: a 4xx in the error shape, before any database call', () => {
  it('answers every row of the table with its 4xx, and nothing reaches the database', async () => {
    const before = await rowCounts();
    const logStart = logLines.length;
    for (const row of HOSTILE) {
      const answer = await send(row);
      const where = `${row.name}: ${row.method} ${row.path.slice(0, 80)} → ${answer.status} ${answer.text.slice(0, 300)}`;
      const json = expectErrorShape(where, answer);
      if (row.status) expect(answer.status, where).toBe(row.status);
      if (row.code) expect(json.errors[0]!.code, where).toBe(row.code);
    }
    // No account, session or rate-limit counter was made or touched by any of them.
    expect(await rowCounts()).toEqual(before);
    // Client errors are not faults: nothing at error level, and no rate-limit store failure.
    const errors = logLines.slice(logStart).filter((l) => l.level >= 50 || /rate-limit store failed/.test(l.msg));
    expect(errors).toEqual([]);
  }, 60_000);

  it('lists every problem of a body, each naming its field', async () => {
    const answer = await send({ name: 'several', method: 'POST', path: '/auth/sign-up/email', json: { email: 'a\u0000@example.org', password: TEST_PASSWORD, name: 'n'.repeat(101) } });
    const json = expectErrorShape('several problems', answer);
    expect(json.errors.map((e) => e.message)).toEqual([
      'email must not contain U+0000 or unpaired surrogates',
      `name must be at most ${MAX_NAME_LENGTH} characters`,
    ]);
  });

  it("keeps a '%' that escapes nothing, as the routes always read it", async () => {
    const res = await fetch(`${server.url}/api/v1/publications?search=100%`);
    expect(res.status).toBe(200);
  });

  it('keeps names of up to 100 characters, with letters of any script and emoji', async () => {
    const name = `Zoë 李 ${'🦉'.repeat(MAX_NAME_LENGTH - 6)}`;
    const account = await signUpUser(server, { name, ip: freshIp() });
    const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { Cookie: account.cookie } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { name: string }).name).toBe(name);
  });

  it('keys the rate limits safely: a strange forwarded address still counts, and a store error means the store', async () => {
    const logStart = logLines.length;
    const res = await fetch(`${server.url}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': 'proxy\u0085\u00ff%00' },
      body: JSON.stringify({ email: `nobody.${Date.now()}@example.org`, password: 'wrong-password-1' }),
    });
    expect(res.status).toBe(401);
    const keys = (await server.database.db.select().from(rateLimits)).map((r) => r.key);
    expect(keys.some((k) => /^signInFailuresPerIp:sha256:[0-9a-f]{64}$/.test(k))).toBe(true);
    expect(logLines.slice(logStart).filter((l) => /rate-limit store failed/.test(l.msg))).toEqual([]);
  });
});

describe('the document tells the truth: 415, sign-out without a body, the JSON 404', () => {
  it('signs out with no body and no Content-Type', async () => {
    const account = await signUpUser(server, { ip: freshIp() });
    const out = await fetch(`${server.url}/api/v1/auth/sign-out`, { method: 'POST', headers: { Cookie: account.cookie, Origin: server.url } });
    expect(out.status, await out.clone().text()).toBe(200);
    const me = await fetch(`${server.url}/api/v1/users/me`, { headers: { Cookie: account.cookie } });
    expect(me.status).toBe(401);
  });

  it('still signs in with JSON that names its charset, and signs out with an empty JSON body', async () => {
    const account = await signUpUser(server, { ip: freshIp() });
    const signIn = await fetch(`${server.url}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', Origin: server.url, 'X-Forwarded-For': freshIp() },
      body: JSON.stringify({ email: account.email, password: TEST_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const out = await fetch(`${server.url}/api/v1/auth/sign-out`, {
      method: 'POST',
      headers: { Cookie: cookiesOf(signIn.headers), Origin: server.url, 'Content-Type': 'application/json' },
    });
    expect(out.status).toBe(200);
  });

  it('answers the JSON 404 for unknown addresses under /api/, never the web app', async () => {
    for (const address of ['/api', '/api/', '/api/v2/publications', '/api/v1/nope', '/api/v0', '/api/v1/publications/alpha-owls/nope/deeper']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await fetch(server.url + address, { method, headers: { Origin: server.url } });
        const text = await res.text();
        const where = `${method} ${address} → ${res.status} ${text.slice(0, 120)}`;
        expect(res.status, where).toBe(404);
        expectErrorShape(where, { status: res.status, type: res.headers.get('content-type') ?? '', text });
        expect(text, where).not.toContain('Lectern web app');
      }
    }
    // The web app itself is still served at its own addresses.
    expect(await (await fetch(`${server.url}/catalog`)).text()).toContain('Lectern web app');
  });

  it('answers the JSON 404 for path tricks sent raw, and no file leaks', async () => {
    for (const target of [
      '/api/v1/x/../../etc/passwd',
      '/api/v1/x/%2e%2e/%2e%2e/etc/passwd',
      '/api/v1/../../../../etc/passwd',
      '/api/../index.html',
      '/api/v1/./publications/../../../etc/passwd',
      '//api/v1/x/../../etc/passwd',
    ]) {
      const answer = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      const where = `${target} → ${answer.slice(0, 300)}`;
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head, where).toMatch(/^HTTP\/1\.1 404 /);
      expect(head.toLowerCase(), where).toContain('content-type: application/json');
      expect(JSON.parse(body).errors[0].code, where).toBe('not_found');
      expect(body, where).not.toMatch(/root:|Lectern web app/);
    }
  });
});

/** A request written byte for byte to a socket, and everything the server sends back until it closes. */
function rawRequest(request: string | Buffer): Promise<string> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.end(request);
  });
}

interface Streamed {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** An error the client saw while sending (EPIPE, ECONNRESET): the refusal did not reach it cleanly. */
  sendError: string | null;
}

/**
 * A real client: node:http streaming `parts` (strings, buffers, or a file path as `{ file }`) as the request body,
 * optionally in slow pieces. It settles once the whole body was sent (or sending failed) and the answer was read,
 * so a connection cut off while the client still sends shows as `sendError`.
 */
function stream(
  pathname: string,
  headers: Record<string, string | number>,
  parts: (string | Buffer | { file: string })[],
  { pieceBytes = 0, pieceGapMs = 0 } = {},
): Promise<Streamed> {
  const { port } = new URL(server.url);
  let sendError: string | null = null;
  const fail = (e: Error) => (sendError ??= (e as NodeJS.ErrnoException).code ?? e.message);
  const req = http.request({ host: '127.0.0.1', port, path: `/api/v1${pathname}`, method: 'POST', headers: { Origin: server.url, ...headers } });
  const answered = new Promise<Omit<Streamed, 'sendError'>>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', fail);
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('close', () => resolve({ status: 0, headers: {}, body: '' }));
  });
  req.on('error', fail);
  const write = (chunk: Buffer) => new Promise<void>((done) => req.write(chunk, (e) => (e ? (fail(e), done()) : done())));
  const sent = (async () => {
    // Cut off: a piece was left unsent because the connection had closed. A connection that closes after the last
    // piece (an answer with `Connection: close` once the whole body arrived) is not.
    const cutOff = () => new Error('the server closed the connection before the body was sent');
    for (const part of parts) {
      if (typeof part === 'object' && !Buffer.isBuffer(part)) {
        // A real file, streamed from disk (in pieces of pieceBytes when given).
        for await (const chunk of fs.createReadStream(part.file, pieceBytes ? { highWaterMark: pieceBytes } : {})) {
          if (req.destroyed) throw cutOff();
          await write(chunk as Buffer);
          if (pieceGapMs) await new Promise((r) => setTimeout(r, pieceGapMs));
        }
        continue;
      }
      const bytes = Buffer.from(part);
      const step = pieceBytes || bytes.length;
      for (let at = 0; at < bytes.length; at += step) {
        if (req.destroyed) throw cutOff();
        await write(bytes.subarray(at, at + step));
        if (pieceGapMs) await new Promise((r) => setTimeout(r, pieceGapMs));
      }
    }
    if (!req.destroyed) await new Promise<void>((done) => req.end(() => done()));
  })().catch(fail);
  return Promise.all([answered, sent]).then(([answer]) => ({ ...answer, sendError }));
}

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A multipart form around one file: the parts to stream and the headers that go with them. */
function multipart(fileName: string, file: { file: string } | Buffer, size: number, type = DOCX_TYPE) {
  const boundary = `----lectern-edge-${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return {
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': Buffer.byteLength(head) + size + Buffer.byteLength(tail) },
    parts: [head, file, tail],
  };
}

describe('refusals reach a real client sending a real file', () => {
  it('a 1 KB Word document streamed to POST /uploads is read into an upload (201)', async () => {
    const size = fs.statSync(docxFile).size;
    expect(size).toBeGreaterThan(500);
    expect(size).toBeLessThan(2048);
    const form = multipart('lesson-plan.docx', { file: docxFile }, size);
    const answer = await stream('/uploads', { ...form.headers, Cookie: teacher.cookie, 'X-Forwarded-For': freshIp() }, form.parts);
    expect(answer.sendError).toBeNull();
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ title: 'lesson plan', passageCount: 1, notes: [] });
  });

  it('the same bytes named as an old Word document (.doc) get the 415 that says how to upload it', async () => {
    const size = fs.statSync(docxFile).size;
    const form = multipart('lesson-plan.doc', { file: docxFile }, size);
    const answer = await stream('/uploads', { ...form.headers, Cookie: teacher.cookie, 'X-Forwarded-For': freshIp() }, form.parts);
    expect(answer.sendError).toBeNull();
    expect(answer.status, answer.body).toBe(415);
    expect(JSON.parse(answer.body).errors[0]).toEqual({
      code: 'unsupported_file_type',
      message: 'Old Word documents (.doc) cannot be read: save it as a Word document (.docx) and upload that.',
    });
  });

  it('the same .docx sent as the raw body (not multipart) gets the 415 that says so', async () => {
    const size = fs.statSync(docxFile).size;
    const answer = await stream('/uploads', { 'Content-Type': DOCX_TYPE, 'Content-Length': size, Cookie: teacher.cookie }, [{ file: docxFile }]);
    expect(answer.sendError).toBeNull();
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body).errors[0].code).toBe('unsupported_media_type');
  });

  it('a refusal given before the body is read waits for a slow body instead of cutting it off', async () => {
    // 160 KB in 8 KB pieces every 60 ms: well over a second on the wire after the 401 is decided.
    const content = Buffer.alloc(160 * 1024, 0x61);
    const form = multipart('notes.txt', content, content.length, 'text/plain');
    const answer = await stream('/uploads', { ...form.headers, 'X-Forwarded-For': freshIp() }, form.parts, { pieceBytes: 8 * 1024, pieceGapMs: 60 });
    expect(answer.sendError).toBeNull();
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).errors[0].code).toBe('unauthorized');
    expect(answer.headers.connection).not.toBe('close');
  });

  it('a cross-site upload is refused (403) only after its body arrived', async () => {
    const size = fs.statSync(docxFile).size;
    const form = multipart('lesson-plan.docx', { file: docxFile }, size);
    const answer = await stream('/uploads', { ...form.headers, Origin: 'https://elsewhere.example', Cookie: teacher.cookie }, form.parts, { pieceBytes: 256, pieceGapMs: 150 });
    expect(answer.sendError).toBeNull();
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body).errors[0].code).toBe('csrf_rejected');
  });

  it('an upload over the cap gets its 413 and the connection closes after it', async () => {
    const content = Buffer.alloc(2 * 1024 * 1024, 0x62);
    const form = multipart('big.txt', content, content.length, 'text/plain');
    const answer = await stream('/uploads', { ...form.headers, Cookie: teacher.cookie }, form.parts);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).errors[0].code).toBe('file_too_large');
    expect(answer.headers.connection).toBe('close');
  });

  it('a body over its cap, sent in slow pieces, gets its 413 once it has arrived, not a reset connection', async () => {
    // A roster zip declared one byte over 10 MB, and a 2 MB JSON body to a route capped at 1 MB: each sent in 1 MB
    // pieces 30 ms apart, long after the answer was decided from the Content-Length.
    const zip = Buffer.alloc(ROSTER_MAX_UPLOAD_BYTES + 1, 0x63);
    const roster = await stream(`/organizations/${teacher.org.id}/roster?dryRun=true`, { 'Content-Type': 'application/zip', 'Content-Length': zip.length, Cookie: teacher.cookie }, [zip], { pieceBytes: 1024 * 1024, pieceGapMs: 30 });
    expect(roster.sendError).toBeNull();
    expect(roster.status).toBe(413);
    expect(JSON.parse(roster.body).errors[0].code).toBe('payload_too_large');
    const json = Buffer.from(JSON.stringify({ email: 'ann@example.org', password: TEST_PASSWORD, padding: 'p'.repeat(2 * 1024 * 1024) }));
    const signIn = await stream('/auth/sign-in/email', { 'Content-Type': 'application/json', 'Content-Length': json.length, 'X-Forwarded-For': freshIp() }, [json], { pieceBytes: 1024 * 1024, pieceGapMs: 30 });
    expect(signIn.sendError).toBeNull();
    expect(signIn.status).toBe(413);
    expect(JSON.parse(signIn.body).errors[0].code).toBe('payload_too_large');
  });

  it('the roster upload: the .docx as the wrong type gets 415, as a zip that is no roster 422, and anonymously 401', async () => {
    const size = fs.statSync(docxFile).size;
    const roster = `/organizations/${teacher.org.id}/roster?dryRun=true`;
    const wrongType = await stream(roster, { 'Content-Type': DOCX_TYPE, 'Content-Length': size, Cookie: teacher.cookie }, [{ file: docxFile }]);
    expect(wrongType.sendError).toBeNull();
    expect(wrongType.status, wrongType.body).toBe(415);
    expect(JSON.parse(wrongType.body).errors[0].code).toBe('unsupported_media_type');
    const notARoster = await stream(roster.replace('?dryRun=true', ''), { 'Content-Type': 'application/zip', 'Content-Length': size, Cookie: teacher.cookie }, [{ file: docxFile }]);
    expect(notARoster.sendError).toBeNull();
    expect(notARoster.status, notARoster.body).toBe(422);
    expect(JSON.parse(notARoster.body).errors[0].code).toBe('roster_invalid');
    const anonymous = await stream(roster, { 'Content-Type': 'application/zip', 'Content-Length': size }, [{ file: docxFile }], { pieceBytes: 256, pieceGapMs: 150 });
    expect(anonymous.sendError).toBeNull();
    expect(anonymous.status).toBe(401);
  });
});

describe('logs an operator can use', () => {
  const requestLines = (from: number, path: string) => logLines.slice(from).filter((l) => l.msg === 'request' && l.path === path);

  it('health probes that pass are logged at debug, not info', async () => {
    const from = logLines.length;
    for (const probe of ['/health', '/health/ready', '/ping']) expect((await fetch(`${server.url}/api/v1${probe}`)).status).toBe(200);
    for (const probe of ['/health', '/health/ready', '/ping']) {
      const lines = requestLines(from, `/api/v1${probe}`);
      expect(lines.length, probe).toBe(1);
      expect(lines[0]!.level, probe).toBe(20);
    }
  });

  it('client errors at info, faults at error', async () => {
    const from = logLines.length;
    expect((await fetch(`${server.url}/api/v1/publications/nope`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/users/me`)).status).toBe(401);
    expect((await fetch(`${server.url}/fault-for-test`)).status).toBe(500);
    expect(requestLines(from, '/api/v1/publications/nope')[0]!.level).toBe(30);
    expect(requestLines(from, '/api/v1/users/me')[0]!.level).toBe(30);
    expect(requestLines(from, '/fault-for-test')[0]!.level).toBe(50);
    expect(logLines.slice(from).some((l) => l.level === 50 && l.msg === 'unhandled error')).toBe(true);
  });

  it("better-auth's refusals (a 415, a weak password) are not logged as faults", async () => {
    const from = logLines.length;
    const weak = await fetch(`${server.url}/api/v1/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': freshIp() },
      body: JSON.stringify({ email: `weak.${Date.now()}@example.org`, password: 'short', name: 'Weak' }),
    });
    expect(weak.status).toBe(400);
    const wrong = await fetch(`${server.url}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: server.url, 'X-Forwarded-For': freshIp() },
      body: JSON.stringify({ email: member.email, password: 'not-the-password' }),
    });
    expect(wrong.status).toBe(401);
    expect(logLines.slice(from).filter((l) => l.level >= 50)).toEqual([]);
  });
});
