/**
 * The document tells the truth: the API contract, read from the served /api/v1/openapi.json.
 *
 * 1. The document: it has every route the server registers, every operation can be run from its examples (which
 *    its own schemas accept), every operation lists what they all share (400, 500; 403 and 413 on state-changing
 *    methods; 415 where there is a body), and the /events seconds rule is in its schema.
 * 2. Every operation's documented example, sent to a real server (signed in where the document says the session
 *    matters): the status is listed, and the body matches the listed schema (ajv, JSON Schema 2020-12).
 * 3. A table of malformed requests generated from the document (tests/support/openapiContract.ts): each gets a 4xx
 *    that the operation lists, in the Errors shape, never a 5xx.
 * 4. Unknown addresses under /api/: a JSON 404 in the Errors shape.
 *
 * What cannot come from the document is here, per operation: who asks and the values that exist only at run time
 * (an organization id, an invitation, a reset token), in PREPARE. A prepared context is reused until an answer is a
 * success (which may have spent it: a token, a session, an invitation), then prepared again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { RunningServer } from '../../server/server';
import { DEFAULT_LIMITS, type LimitRules } from '../../server/auth/limits';
import { setMembership } from '../../server/accounts/service';
import { TEST_PASSWORD, getJson, licensedTeacher, signUpUser, startFixtureServer } from './harness';
import { startSmtp } from './smtp';
import { sampleBundle, zipOf } from '../roster/fixtures';
import {
  STATE_CHANGING,
  answerProblems,
  closeAgent,
  createValidator,
  errorShapeProblems,
  exampleRequest,
  malformedCases,
  mediaExample,
  operationsOf,
  parameterExample,
  pathOf,
  send,
  type ApiAnswer,
  type ApiRequest,
  type Json,
  type MalformedCase,
  type OpenApiOperation,
  type RequestContext,
} from '../support/openapiContract';

// Budgets high enough that hundreds of requests never meet a rate limit (what each limit does when its store fails
// is kept); tests/server/rateLimits.test.ts covers the limits themselves.
const limits = Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((k) => [k, { max: 1_000_000 }])) as unknown as Partial<LimitRules>;

const smtp = await startSmtp();
const server: RunningServer = await startFixtureServer({
  accounts: { limits, env: { SMTP_URL: smtp.url, GOOGLE_CLIENT_ID: 'contract-google', GOOGLE_CLIENT_SECRET: 'contract-google-secret' } },
});
afterAll(async () => {
  closeAgent();
  await server?.stop();
  await smtp?.close();
});

const doc: Json = (await getJson(server, '/api/v1/openapi.json')).body;
const validator = createValidator(doc);
const operations = operationsOf(doc);
const byKey = new Map(operations.map((op) => [op.key, op]));

// ---- who asks, and what exists only at run time ---------------------------------------------------------------

const origin = server.url;
const api = (path: string, init: { method?: string; cookie?: string; body?: unknown } = {}) =>
  getJson(server, `/api/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { Origin: origin, ...(init.cookie ? { Cookie: init.cookie } : {}), ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

let counter = 0;
const unique = (name: string) => `${name}.${++counter}@contract.example.org`;

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => (value ??= make());
}

/** A teacher with every feature, admin of their own licensed school: the signed-in actor by default. */
const teacher = once(() => licensedTeacher(server));
/** A second one, whose uploads DELETE /uploads/{slug} removes. */
const uploader = once(() => licensedTeacher(server));

async function invite(email: string): Promise<string> {
  const t = await teacher();
  const res = await api('/auth/organization/invite-member', { cookie: t.cookie, body: { email, role: 'member', organizationId: t.org.id } });
  if (res.status !== 200) throw new Error(`invite-member answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

async function invitee(verified: boolean) {
  const account = await signUpUser(server, { email: unique('invitee') });
  if (verified) await server.database.db.execute(sql`update "user" set email_verified = true where email = ${account.email}`);
  return { ...account, invitationId: await invite(account.email) };
}

const documentedBody = (key: string) => mediaExample(Object.values<Json>(byKey.get(key)!.spec.requestBody.content)[0]) as Record<string, string>;

const PREPARE: Record<string, () => Promise<RequestContext>> = {
  'POST /auth/sign-up/email': async () => ({ body: { email: unique('sign-up') } }),
  // The documented account, with the harness's password, which the documented example uses.
  'POST /auth/sign-in/email': once(async () => {
    const { email, password } = documentedBody('POST /auth/sign-in/email');
    if (password !== TEST_PASSWORD) throw new Error("the sign-in example's password is not the harness's TEST_PASSWORD");
    await signUpUser(server, { email });
    return {};
  }),
  'POST /auth/sign-out': async () => ({ cookie: (await signUpUser(server, { email: unique('sign-out') })).cookie }),
  'POST /auth/change-password': async () => {
    if (documentedBody('POST /auth/change-password').currentPassword !== TEST_PASSWORD) throw new Error("the example's currentPassword is not TEST_PASSWORD");
    return { cookie: (await signUpUser(server, { email: unique('change-password') })).cookie };
  },
  'POST /auth/reset-password': async () => {
    const account = await signUpUser(server, { email: unique('reset') });
    const asked = await api('/auth/request-password-reset', { body: { email: account.email } });
    if (asked.status !== 200) throw new Error(`request-password-reset answered ${asked.status}`);
    const rows = (await server.database.db.execute(
      sql`select identifier from verification where value = ${account.userId} and identifier like 'reset-password:%' order by created_at desc limit 1`,
    )) as unknown as { rows: { identifier: string }[] };
    return { body: { token: rows.rows[0]!.identifier.slice('reset-password:'.length) } };
  },
  'GET /auth/verify-email': async () => {
    const account = await signUpUser(server, { email: unique('verify') });
    const newEmail = unique('verified');
    const asked = await api('/auth/change-email', { cookie: account.cookie, body: { newEmail, callbackURL: '/account' } });
    if (asked.status !== 200) throw new Error(`change-email answered ${asked.status}`);
    const mail = await smtp.mailTo(newEmail);
    const token = /verify-email\?token=([^&\s"]+)/.exec(mail.text ?? '')?.[1];
    if (!token) throw new Error('no verify-email link in the mail');
    return { query: { token } };
  },
  'GET /auth/organization/list-members': async () => ({ query: { organizationId: (await teacher()).org.id } }),
  'GET /auth/organization/list-invitations': async () => ({ query: { organizationId: (await teacher()).org.id } }),
  'POST /auth/organization/invite-member': async () => ({ body: { organizationId: (await teacher()).org.id } }),
  'POST /auth/organization/cancel-invitation': async () => ({ body: { invitationId: await invite(unique('cancelled')) } }),
  'POST /auth/organization/remove-member': async () => {
    const t = await teacher();
    const member = await signUpUser(server, { email: unique('member') });
    await setMembership(server.database.db, member.userId, t.org.id, 'member');
    return { body: { memberIdOrEmail: member.email, organizationId: t.org.id } };
  },
  'GET /auth/organization/get-invitation': async () => {
    const i = await invitee(false);
    return { cookie: i.cookie, query: { id: i.invitationId } };
  },
  'POST /auth/organization/accept-invitation': async () => {
    const i = await invitee(true);
    return { cookie: i.cookie, body: { invitationId: i.invitationId } };
  },
  'POST /invitations/{invitationId}/confirmation-email': async () => {
    const i = await invitee(false);
    return { cookie: i.cookie, params: { invitationId: i.invitationId } };
  },
  'DELETE /uploads/{slug}': async () => {
    const u = await uploader();
    const form = new FormData();
    form.append('file', new File(['A story to delete.\n\nIts second passage.'], 'to-delete.txt', { type: 'text/plain' }));
    const res = await fetch(`${server.url}/api/v1/uploads`, { method: 'POST', headers: { Origin: origin, Cookie: u.cookie }, body: form });
    if (res.status !== 201) throw new Error(`POST /uploads answered ${res.status}: ${await res.text()}`);
    return { cookie: u.cookie, params: { slug: ((await res.json()) as { slug: string }).slug } };
  },
  'GET /organizations/{organizationId}/roster': async () => ({ params: { organizationId: (await teacher()).org.id } }),
  'POST /organizations/{organizationId}/roster': async () => ({
    params: { organizationId: (await teacher()).org.id },
    rawBody: { type: 'application/zip', raw: zipOf(sampleBundle()) },
  }),
};

/** Whether the document says a session matters to the operation (security lists the session scheme). */
const wantsSession = (op: OpenApiOperation) => (op.spec.security ?? []).some((s: Json) => 'session' in s);

const prepared = new Map<string, RequestContext>();
async function contextFor(op: OpenApiOperation): Promise<RequestContext> {
  let ctx = prepared.get(op.key);
  if (!ctx) {
    const made = (await PREPARE[op.key]?.()) ?? {};
    ctx = { ...(wantsSession(op) && !made.cookie ? { cookie: (await teacher()).cookie } : {}), ...made };
    prepared.set(op.key, ctx);
  }
  return ctx;
}
/** After a success the context may be spent (a token, a session, an invitation): prepare a new one next time. */
function settle(op: OpenApiOperation, answer: ApiAnswer) {
  if (answer.status < 400) prepared.delete(op.key);
}

async function baseRequest(op: OpenApiOperation): Promise<ApiRequest> {
  const { request, missing } = exampleRequest(op, await contextFor(op), origin);
  if (missing.length) throw new Error(`${op.key}: no documented example for ${missing.join(', ')}`);
  return request;
}

const show = (request: ApiRequest, path: string) => {
  const body = request.body
    ? ` ${request.body.type} ${request.body.raw !== undefined ? (typeof request.body.raw === 'string' ? request.body.raw : `<${request.body.raw.byteLength} bytes>`) : JSON.stringify(request.body.value)}`
    : '';
  return `${request.method} ${path}${body}`.slice(0, 300);
};
const answered = (a: ApiAnswer) => `→ ${a.status} ${a.contentType.split(';')[0]} ${a.text.slice(0, 240)}`;

// ---- 1. the document -------------------------------------------------------------------------------------------

describe('the document', () => {
  it('is OpenAPI 3.1 with operations', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(operations.length).toBeGreaterThan(40);
  });

  it('has every route the server registers under /api/v1 (better-auth: the ones the app uses)', () => {
    const shape = (method: string, path: string) => `${method} ${path.replace(/:\w+(\{[^}]*\})?|\{\w+\}/g, '{}')}`;
    const documented = new Set(operations.map((op) => shape(op.method, op.path)));
    const registered = server.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/') && !r.path.startsWith('/api/v1/auth/'))
      .map((r) => shape(r.method, r.path.slice('/api/v1'.length)))
      // The missing-id fallbacks of decode answer only 400 (server/http/app.ts).
      .filter((route) => !/\/passages\/+decode$/.test(route));
    expect([...new Set(registered)].filter((route) => !documented.has(route))).toEqual([]);
  });

  it('lists 400 and 500 everywhere, 403 and 413 on state-changing methods and 415 where there is a body', () => {
    const gaps: string[] = [];
    for (const op of operations) {
      const listed = Object.keys(op.spec.responses);
      const need = ['400', '500', ...(STATE_CHANGING.has(op.method) ? ['403', '413'] : []), ...(op.spec.requestBody ? ['415'] : [])];
      for (const status of need) if (!listed.includes(status)) gaps.push(`${op.key} does not list ${status}`);
      for (const status of listed.filter((s) => Number(s) >= 400)) {
        const schema = op.spec.responses[status].content?.['application/json']?.schema;
        if (schema?.$ref !== '#/components/schemas/Errors') gaps.push(`${op.key} ${status} is not the Errors schema`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('gives every operation a runnable example (the contexts of this file add only run-time values)', () => {
    const missing = operations.flatMap((op) => exampleRequest(op, {}, origin).missing.map((m) => `${op.key}: ${m}`));
    // Binary bodies (a roster zip) come from this file; every other part comes from the document.
    expect(missing.filter((m) => !/application\/(zip|x-zip-compressed|octet-stream) body$/.test(m))).toEqual([]);
  });

  it("has examples that its own schemas accept", () => {
    const wrong: string[] = [];
    for (const op of operations) {
      for (const p of op.spec.parameters ?? []) {
        const example = parameterExample(p);
        if (example !== undefined) wrong.push(...validator.problems(p.schema, example).map((e) => `${op.key} ${p.in} ${p.name}: ${e}`));
      }
      for (const [type, media] of Object.entries<Json>(op.spec.requestBody?.content ?? {})) {
        const example = mediaExample(media);
        if (example !== undefined) wrong.push(...validator.problems(media.schema, example).map((e) => `${op.key} ${type} body: ${e}`));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has the /events seconds rule in its schema', () => {
    const schema = { $ref: '#/components/schemas/AnalyticsBatch' };
    const batch = (event: object) => ({ clientId: '0b6f8a52-3c1d-4f7e-9a2b-5d4c3b2a1f0e', events: [{ at: '2026-03-02T09:15:00Z', ...event }] });
    expect(validator.valid(schema, batch({ name: 'Paused Audio', seconds: 12 }))).toBe(true);
    expect(validator.valid(schema, batch({ name: 'Closed Audio Player', seconds: 0 }))).toBe(true);
    expect(validator.valid(schema, batch({ name: 'Viewed Passage' }))).toBe(true);
    expect(validator.valid(schema, batch({ name: 'Viewed Passage', seconds: 12 }))).toBe(false);
  });
});

// ---- 2. every operation's documented example -------------------------------------------------------------------

describe('every operation answers its documented example as documented', () => {
  for (const op of operations) {
    it(op.key, async () => {
      const request = await baseRequest(op);
      const path = pathOf(request);
      const answer = await send(server.url, request, path);
      settle(op, answer);
      const where = `${show(request, path)}\n${answered(answer)}`;
      expect(answer.status, `a documented example must succeed\n${where}`).toBeLessThan(400);
      expect(answerProblems(validator, op, answer), where).toEqual([]);
      // An answer with an ETag, asked again with If-None-Match: a 304 the operation lists.
      const etag = answer.headers.etag;
      if (op.method === 'GET' && answer.status === 200 && typeof etag === 'string') {
        const again = await send(server.url, { ...request, headers: { ...request.headers, 'If-None-Match': etag } }, path);
        const whereAgain = `${show(request, path)} If-None-Match: ${etag}\n${answered(again)}`;
        expect(again.status, whereAgain).toBe(304);
        expect(answerProblems(validator, op, again), whereAgain).toEqual([]);
      }
    });
  }
});

// ---- 3. malformed requests ---------------------------------------------------------------------------------------

function expectationProblems(op: OpenApiOperation, c: MalformedCase, answer: ApiAnswer): string[] {
  const problems = errorShapeProblems(validator, answer);
  // A path trick may make an address that is no operation at all: then the document's rule, a 404 not_found.
  const noOperation = c.expect.kind === 'path-trick' && answer.status === 404 && !op.spec.responses['404'];
  if (c.expect.kind !== 'unlisted-4xx' && !noOperation) problems.push(...answerProblems(validator, op, answer));
  if (c.expect.kind === 'status') {
    if (answer.status !== c.expect.status) problems.push(`status ${answer.status}, expected ${c.expect.status}`);
    const code = (answer.json as { errors?: { code?: string }[] } | undefined)?.errors?.[0]?.code;
    if (c.expect.code && code !== c.expect.code) problems.push(`code ${code}, expected ${c.expect.code}`);
  }
  return [...new Set(problems)];
}

describe('malformed requests get a listed 4xx in the Errors shape, never a 5xx', () => {
  for (const op of operations) {
    describe(op.key, () => {
      for (const c of malformedCases(validator, doc, op)) {
        it(c.name, async () => {
          const request = c.mutate(await baseRequest(op));
          const path = pathOf(request);
          const answer = await send(server.url, request, path);
          settle(op, answer);
          expect(expectationProblems(op, c, answer), `${show(request, path)}\n${answered(answer)}`).toEqual([]);
        });
      }
    });
  }
});

// ---- 4. unknown addresses ----------------------------------------------------------------------------------------

describe('unknown addresses under /api/ answer a JSON 404 in the Errors shape', () => {
  const paths: Array<[string, string]> = [
    ['GET', '/api/v2/x'],
    ['GET', '/api/v2/publications'],
    ['POST', '/api/v2/events'],
    ['GET', '/api/x'],
    ['GET', '/api/'],
    ['GET', '/api/v1/no/such/route'],
    ['DELETE', '/api/v1/no/such/route'],
    ['GET', '/api/v1/x/../../etc/passwd'],
    ['GET', '/api/v1/../../etc/passwd'],
    ['GET', '/api/v1/%2e%2e/%2e%2e/etc/passwd'],
    ['GET', '/api/v1/publications/alpha-owls/../../../../etc/passwd'],
    ['GET', '/api/..%2f..%2fetc%2fpasswd'],
    ['GET', '/api/v1/uploads/cover.svg/../../../etc/passwd'],
  ];
  for (const [method, path] of paths) {
    it(`${method} ${path}`, async () => {
      const request: ApiRequest = { method, template: '', params: {}, query: [], headers: { Origin: origin } };
      const answer = await send(server.url, request, path);
      const problems = errorShapeProblems(validator, answer);
      if (answer.status !== 404) problems.unshift(`status ${answer.status}, expected 404`);
      expect(problems, `${method} ${path}\n${answered(answer)}`).toEqual([]);
    });
  }
});
