/**
 * Random bad input to every API endpoint never gets a 500. Every 4xx JSON answer has the shape
 * {errors:[{code,message}]}, and no body carries a stack trace or an internal path. Seeded, so a failure replays.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server';
import { startFixtureServer } from './harness';

const SEED = 620261122;
const RUNS = 60;

let server: RunningServer;
let cookie = '';

beforeAll(async () => {
  server = await startFixtureServer();
  const res = await fetch(`${server.url}/api/v1/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ email: `fuzz.${Date.now()}@example.org`, password: 'violet-harbor-lantern', name: 'Fuzz Reader' }),
  });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

/** Every route under /api/v1; `:x` segments are replaced by fuzzed path params. */
const ROUTES: Array<[string, string]> = [
  ['GET', '/ping'],
  ['GET', '/openapi.json'],
  ['GET', '/health'],
  ['GET', '/health/ready'],
  ['GET', '/features/me'],
  ['GET', '/visitors/me'],
  ['GET', '/publications'],
  ['GET', '/publications/:slug'],
  ['GET', '/publications/:slug/editions/passage'],
  ['POST', '/publications/:slug/sources/on-demand'],
  ['GET', '/passages'],
  ['GET', '/passages/audioOnly'],
  ['GET', '/passages/:id/decode'],
  ['GET', '/passages/:id/audio'],
  ['GET', '/passages/:id/audioOnly/onDemand'],
  ['GET', '/passages/:id/speechMarks'],
  ['GET', '/qr/:code'],
  ['GET', '/users/me'],
  ['PATCH', '/users/me/role'],
  ['POST', '/users/me/group-code'],
  ['GET', '/users/titles'],
  ['PATCH', '/users/titles/:id/visibility'],
  ['GET', '/uploads'],
  ['POST', '/uploads'],
  ['DELETE', '/uploads/:slug'],
  ['POST', '/events'],
  ['GET', '/auth/get-session'],
  ['POST', '/auth/sign-up/email'],
  ['POST', '/auth/sign-in/email'],
  ['POST', '/auth/sign-out'],
  ['GET', '/no/such/route'],
];

const weird = fc.oneof(
  fc.constantFrom('', '..', '%00', '%2e%2e', '-1', '0', '9'.repeat(40), '1e309', 'NaN', 'null', '%ff', '%', 'alpha-owls', '1', '2', 'owls-1', 'assigned', 'unassigned', 'ZZZZ9999', '\u202e', '💥'),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ minLength: 500, maxLength: 3000 }),
);
const pathParam = weird.map((s) => (/^%/.test(s) ? s : encodeURIComponent(s)));
const query = fc.array(fc.tuple(fc.constantFrom('slug', 'edition', 'editionId', 'filter', 'position', 'page', 'limit', 'offset', 'q', 'language', 'level', 'sort', 'passageId', 'from', 'to', 'left', 'right', 'x'), weird), { maxLength: 5 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
const jsonish = fc.oneof(fc.jsonValue(), fc.object(), fc.record({ role: fc.oneof(fc.string(), fc.constantFrom('TEACHER', 'STUDENT', 'INDIVIDUAL'), fc.integer()), code: weird, hidden: fc.jsonValue(), email: weird, password: weird, name: weird }, { requiredKeys: [] }));
const body = fc.oneof(
  jsonish.map((v) => ({ text: JSON.stringify(v), type: 'application/json' })),
  fc.string({ maxLength: 200 }).map((t) => ({ text: t, type: 'application/json' })),
  fc.constantFrom('{', '{"a":', '[]', 'null', '"', '\u0000', '{"__proto__":{"x":1}}').map((t) => ({ text: t, type: 'application/json' })),
  fc.tuple(fc.string({ maxLength: 200 }), fc.constantFrom('text/plain', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/xml', '', 'application/json; charset=utf-9')).map(([t, type]) => ({ text: t, type })),
  fc.constant(null),
);
const headers = fc.record(
  {
    clientId: weird,
    groupCode: weird,
    junkCookie: fc.string({ maxLength: 80 }),
    signedIn: fc.boolean(),
    sameOrigin: fc.boolean(),
  },
  { requiredKeys: ['signedIn', 'sameOrigin'] },
);

const LEAKS = /\bat \S+ \(|node_modules|\/work\/|\/server\/|\.ts:\d+|Error: |stack/;

function headerSafe(s: string): string {
  // fetch refuses header values with control characters or non-Latin-1; keep what a real client could send.
  return s.replace(/[^\x20-\x7e]/g, '?');
}

describe('random bad input to every API route (fuzzing)', () => {
  for (const [method, route] of ROUTES) {
    it(`${method} ${route}`, async () => {
      await fc.assert(
        fc.asyncProperty(pathParam, query, headers, body, async (param, qs, h, b) => {
          const url = `${server.url}/api/v1${route.replace(/:[a-z]+/g, param)}${qs ? `?${qs}` : ''}`;
          const init: Record<string, string> = {};
          if (h.clientId !== undefined) init['X-Client-Id'] = headerSafe(h.clientId);
          if (h.groupCode !== undefined) init['X-Group-Code'] = headerSafe(h.groupCode);
          const cookies = [h.signedIn ? cookie : '', h.junkCookie !== undefined ? headerSafe(h.junkCookie) : ''].filter(Boolean);
          if (cookies.length) init.Cookie = cookies.join('; ');
          if (h.sameOrigin) init.Origin = server.url;
          const hasBody = method !== 'GET' && b !== null;
          if (hasBody && b.type) init['Content-Type'] = b.type;
          const res = await fetch(url, { method, headers: init, body: hasBody ? b.text : undefined });
          const text = await res.text();
          const where = `${method} ${url} ${JSON.stringify(init)} body=${hasBody ? b.text.slice(0, 200) : ''}\n→ ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          if (!(res.headers.get('content-type') ?? '').includes('json')) return;
          if (route === '/openapi.json') return;
          expect(text, where).not.toMatch(LEAKS);
          if (res.status >= 400) {
            const json = JSON.parse(text);
            expect(Array.isArray(json.errors) && json.errors.length > 0, where).toBe(true);
            for (const e of json.errors) {
              expect(typeof e.code === 'string' && e.code.length > 0, where).toBe(true);
              expect(typeof e.message === 'string' && e.message.length > 0, where).toBe(true);
            }
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }, 60_000);
  }
});
