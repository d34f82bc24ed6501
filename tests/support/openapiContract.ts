/**
 * The OpenAPI contract, read from the served document (tests/server/contract.test.ts): the operations, a request
 * built from each one's documented examples, a table of malformed variants generated from the document (so a new
 * route is covered without editing the table), a sender that keeps the path exactly as written (no dot-segment
 * normalisation, unlike fetch), and the check of an answer against the listed statuses and their schemas (ajv,
 * JSON Schema 2020-12 as OpenAPI 3.1 uses it). Deterministic: no randomness anywhere.
 */
import http from 'node:http';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

export interface OpenApiOperation {
  /** `METHOD /path` as the document writes it, e.g. `GET /publications/{publicationSlug}`. */
  key: string;
  method: string;
  path: string;
  spec: Json;
}

/** Every operation of the document, in its order. */
export function operationsOf(doc: Json): OpenApiOperation[] {
  const ops: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, spec] of Object.entries<Json>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      ops.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, spec });
    }
  }
  return ops;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// ---- schemas ------------------------------------------------------------------------------------------------------

const DOC_ID = 'https://lectern.test/openapi.json';

/** Point the document's `#/components/...` references at the components added under DOC_ID. */
function rooted(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(rooted);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rooted(v)]),
    );
  }
  return schema;
}

export interface Validator {
  /** Problems of `value` against `schema` (a schema of the document), or [] when it is valid. */
  problems(schema: Json, value: unknown): string[];
  valid(schema: Json, value: unknown): boolean;
  /** The document's Errors schema. */
  readonly errorsSchema: Json;
}

export function createValidator(doc: Json): Validator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addKeyword({ keyword: 'example' });
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const compiled = new Map<string, ValidateFunction>();
  const compile = (schema: Json) => {
    const key = JSON.stringify(schema);
    let fn = compiled.get(key);
    if (!fn) {
      fn = ajv.compile(rooted(schema));
      compiled.set(key, fn);
    }
    return fn;
  };
  return {
    problems(schema, value) {
      const fn = compile(schema);
      if (fn(value)) return [];
      return (fn.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    },
    valid(schema, value) {
      return compile(schema)(value) === true;
    },
    errorsSchema: { $ref: '#/components/schemas/Errors' },
  };
}

// ---- requests -----------------------------------------------------------------------------------------------------

export interface ApiRequest {
  method: string;
  /** The path template of the operation, e.g. `/publications/{publicationSlug}`. */
  template: string;
  /** Path parameters, already percent-encoded (a case may put raw `%00` or `..` here). */
  params: Record<string, string>;
  /** Query parameters, already percent-encoded. */
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** The body: JSON-ish values for JSON, text and multipart media types, bytes for binary ones, or raw text. */
  body?: { type: string; value?: unknown; raw?: string | Uint8Array };
}

/** The documented example of a parameter, if any. */
export function parameterExample(parameter: Json): unknown {
  return parameter.example ?? parameter.schema?.example ?? parameter.schema?.examples?.[0];
}

/** The documented example of a media type, if any. */
export function mediaExample(media: Json): unknown {
  if (media.example !== undefined) return media.example;
  const first = media.examples && Object.values<Json>(media.examples)[0];
  return first?.value ?? media.schema?.example ?? media.schema?.examples?.[0];
}

const enc = (value: unknown) => encodeURIComponent(String(value));

/** What a test adds to an operation's examples: who asks, and values that exist only at run time. */
export interface RequestContext {
  cookie?: string;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Merged over the documented body example. */
  body?: Record<string, unknown>;
  /** Instead of the documented body: the media type and its bytes (a zip). */
  rawBody?: { type: string; raw: Uint8Array };
}

function merge(base: unknown, over: Record<string, unknown> | undefined): unknown {
  if (!over) return base;
  if (!base || typeof base !== 'object' || Array.isArray(base)) return over;
  return { ...(base as object), ...over };
}

/** A request of the operation from its examples and the context; `missing` names what had no example. */
export function exampleRequest(op: OpenApiOperation, ctx: RequestContext, origin: string): { request: ApiRequest; missing: string[] } {
  const missing: string[] = [];
  const request: ApiRequest = { method: op.method, template: op.path, params: {}, query: [], headers: { Origin: origin } };
  for (const p of op.spec.parameters ?? []) {
    const given = p.in === 'path' ? ctx.params?.[p.name] : p.in === 'query' ? ctx.query?.[p.name] : undefined;
    const value = given ?? parameterExample(p);
    if (value === undefined) {
      if (p.required) missing.push(`${p.in} ${p.name}`);
      continue;
    }
    if (p.in === 'path') request.params[p.name] = enc(value);
    else if (p.in === 'query') request.query.push([p.name, enc(value)]);
    else if (p.in === 'header') request.headers[p.name] = String(value);
  }
  Object.assign(request.headers, ctx.headers);
  if (ctx.cookie) request.headers.Cookie = ctx.cookie;
  const content = op.spec.requestBody?.content;
  if (ctx.rawBody) {
    request.body = { type: ctx.rawBody.type, raw: ctx.rawBody.raw };
  } else if (content) {
    const [type, media] = Object.entries<Json>(content)[0]!;
    const example = mediaExample(media);
    if (example === undefined) missing.push(`${type} body`);
    else request.body = { type, value: merge(example, ctx.body) };
  }
  return { request, missing };
}

export function pathOf(request: ApiRequest, base = '/api/v1'): string {
  const path = request.template.replace(/\{([^}]+)\}/g, (_, name: string) => request.params[name] ?? '');
  const query = request.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  return `${base}${path}${query ? `?${query}` : ''}`;
}

function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json') || type === 'text/plain';
}

/** The bytes and Content-Type of a body. */
async function serialise(body: NonNullable<ApiRequest['body']>): Promise<{ type: string; bytes: Uint8Array }> {
  if (body.raw !== undefined) return { type: body.type, bytes: typeof body.raw === 'string' ? new TextEncoder().encode(body.raw) : body.raw };
  if (body.type === 'multipart/form-data') {
    const form = new FormData();
    for (const [k, v] of Object.entries((body.value ?? {}) as Record<string, unknown>)) {
      if (k === 'file' && typeof v === 'string') form.append(k, new File([v], 'story.txt', { type: 'text/plain' }));
      else form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const encoded = new Request('http://form.invalid/', { method: 'POST', body: form });
    return { type: encoded.headers.get('content-type')!, bytes: new Uint8Array(await encoded.arrayBuffer()) };
  }
  if (isJsonType(body.type)) return { type: body.type, bytes: new TextEncoder().encode(JSON.stringify(body.value)) };
  return { type: body.type, bytes: new TextEncoder().encode(String(body.value)) };
}

export interface ApiAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
  headers: http.IncomingHttpHeaders;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** Send a request with its path exactly as written (node:http does not resolve `..` the way fetch does). */
export async function send(baseUrl: string, request: ApiRequest, path = pathOf(request)): Promise<ApiAnswer> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...request.headers };
  let bytes: Uint8Array | undefined;
  if (request.body) {
    const s = await serialise(request.body);
    bytes = s.bytes;
    if (s.type) headers['Content-Type'] = s.type;
    headers['Content-Length'] = bytes.byteLength;
  } else if (STATE_CHANGING.has(request.method)) {
    headers['Content-Length'] = 0;
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: request.method, path, headers, agent, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, json, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(bytes);
  });
}

export function closeAgent(): void {
  agent.destroy();
}

// ---- answers ------------------------------------------------------------------------------------------------------

/** The response object the document lists for a status (exact, then `4XX`, then `default`). */
export function listedResponse(op: OpenApiOperation, status: number): Json | undefined {
  const r = op.spec.responses ?? {};
  return r[String(status)] ?? r[`${String(status)[0]}XX`] ?? r.default;
}

/** What is wrong with an answer against the operation's listed statuses and schemas. */
export function answerProblems(v: Validator, op: OpenApiOperation, answer: ApiAnswer): string[] {
  const listed = listedResponse(op, answer.status);
  if (!listed) return [`status ${answer.status} is not listed (listed: ${Object.keys(op.spec.responses).join(', ')})`];
  if (!listed.content) return [];
  const type = answer.contentType.split(';')[0]!.trim().toLowerCase();
  const media = listed.content[type];
  if (!media) return [`Content-Type '${answer.contentType}' is not listed for ${answer.status} (listed: ${Object.keys(listed.content).join(', ')})`];
  if (!media.schema || !type.includes('json')) return [];
  if (answer.json === undefined && answer.text !== 'null') return [`the body is not JSON: ${answer.text.slice(0, 120)}`];
  return v.problems(media.schema, answer.json ?? null).map((p) => `body ${p}`);
}

/** What is wrong with an error answer: a 4xx, JSON, in the Errors shape. */
export function errorShapeProblems(v: Validator, answer: ApiAnswer): string[] {
  const problems: string[] = [];
  if (answer.status < 400 || answer.status >= 500) problems.push(`status ${answer.status}, not a 4xx`);
  if (!answer.contentType.includes('json')) problems.push(`Content-Type '${answer.contentType}', not JSON`);
  else problems.push(...v.problems(v.errorsSchema, answer.json ?? null).map((p) => `not the Errors shape: ${p}`));
  return problems;
}

// ---- the malformed table ------------------------------------------------------------------------------------------

/** What a malformed case must get. */
export type Expectation =
  | { kind: '4xx' }
  | { kind: 'status'; status: number; code?: string }
  /** Not an operation of the document (another method on its path): a 4xx in the Errors shape. */
  | { kind: 'unlisted-4xx' }
  /** A path trick: the operation's listed 4xx, or the 404 of an address that is no operation (the document's rule). */
  | { kind: 'path-trick' };

export interface MalformedCase {
  name: string;
  mutate: (request: ApiRequest) => ApiRequest;
  expect: Expectation;
}

/** 100 KB: a huge string in a body. */
export const HUGE = 'x'.repeat(100_000);
/**
 * 9 KB: a huge string in a path or query, over the longest any parameter may be. Node's HTTP server refuses a
 * request line over 16 KB with a bare 431 (no body) before the application sees it, so longer ones test Node.
 */
export const LONG_IN_URL = 'x'.repeat(9_000);
/** Deep nesting: arrays this deep in a field, and a whole body of them (JSON.parse is iterative in V8). */
const NEST_DEPTH = 1_000;
const nested = (depth: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const DEEP_BODY = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

const clone = (r: ApiRequest): ApiRequest => structuredClone(r);

type Path = Array<string | number>;

function leaves(value: unknown, path: Path = []): Array<{ path: Path; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [{ path, value }];
}

function objects(value: unknown, path: Path = []): Array<{ path: Path; value: Record<string, unknown> }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => objects(v, [...path, i]));
  if (value && typeof value === 'object') {
    return [{ path, value: value as Record<string, unknown> }, ...Object.entries(value).flatMap(([k, v]) => objects(v, [...path, k]))];
  }
  return [];
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = structuredClone(root);
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k];
  at[path.at(-1)!] = value;
  return copy;
}

function deleteAt(root: unknown, path: Path): unknown {
  const copy: any = structuredClone(root);
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k];
  if (Array.isArray(at)) at.splice(Number(path.at(-1)), 1);
  else delete at[path.at(-1)!];
  return copy;
}

const label = (path: Path) => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '');

/** Values of another type than `value`, first ones first. */
function otherTypes(value: unknown): unknown[] {
  if (typeof value === 'string') return [12345, true, null, {}];
  if (typeof value === 'number') return ['12', null, true];
  if (typeof value === 'boolean') return ['yes', 1];
  if (Array.isArray(value)) return [{}, 'x'];
  if (value && typeof value === 'object') return [[], 'x'];
  return ['x', 1];
}

/** A query or path value as the document's schema would read it (numbers for numeric types). */
function asSchemaValue(schema: Json, raw: string): unknown {
  const types = [schema?.type].flat();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?(e\d+)?$/i.test(raw)) return Number(raw);
  return raw;
}

/** Shape-breaking values for a parameter: the first few its schema rejects. */
const PARAMETER_CANDIDATES = ['abc', '1.5', '-5', 'zz-unknown', 'Not A Slug!', ''];

/**
 * The malformed variants of an operation, generated from the document and its examples: every string parameter and
 * field with U+0000, a lone surrogate and a huge value; values its schema rejects (other types, enum misses,
 * patterns); required parts left out; an extra field where the schema forbids them; deep nesting; a body that is not
 * JSON; a Content-Type the operation does not list (415); a malformed X-Client-Id; a cross-site Origin on a
 * state-changing method (403 csrf_rejected); path tricks; and a method the path does not have.
 */
export function malformedCases(v: Validator, doc: Json, op: OpenApiOperation): MalformedCase[] {
  const cases: MalformedCase[] = [];
  const add = (name: string, mutate: MalformedCase['mutate'], expect: Expectation = { kind: '4xx' }) =>
    cases.push({ name, mutate: (r) => mutate(clone(r)), expect });

  for (const p of op.spec.parameters ?? []) {
    const schema = p.schema ?? {};
    if (p.in === 'header') {
      // Header values cannot carry U+0000 over HTTP at all; what the schema rejects is what there is to send.
      for (const bad of ['bad id!', 'x'.repeat(65), '']) {
        if (v.valid(schema, bad)) continue;
        add(`header ${p.name}: ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 8)}…(${bad.length})` : bad)}`, (r) => ({
          ...r,
          headers: { ...r.headers, [p.name]: bad },
        }));
      }
      continue;
    }
    if (p.in !== 'path' && p.in !== 'query') continue;
    const example = parameterExample(p);
    const base = example === undefined ? 'x' : enc(example);
    const put = (value: string) => (r: ApiRequest): ApiRequest => {
      if (p.in === 'path') return { ...r, params: { ...r.params, [p.name]: value } };
      return { ...r, query: [...r.query.filter(([k]) => k !== p.name), [p.name, value]] };
    };
    const where = `${p.in} ${p.name}`;
    add(`${where} holds U+0000`, put(`${base}%00`));
    // A lone surrogate has no UTF-8 form: in an address it comes as the bytes of one, which are not UTF-8.
    add(`${where} is not UTF-8 (a surrogate's bytes)`, put(`${base}%ED%A0%80`));
    add(`${where} is 9 KB`, put(LONG_IN_URL));
    let shapes = 0;
    for (const raw of PARAMETER_CANDIDATES) {
      if (shapes >= 3 || (raw === '' && p.in === 'path')) continue;
      if (v.valid(schema, asSchemaValue(schema, raw))) continue;
      shapes++;
      add(`${where} = ${JSON.stringify(raw)} (the schema rejects it)`, put(enc(raw)));
    }
    if (p.in === 'path') {
      for (const trick of ['..', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f%2e%2e%2fping', '.%2e/.%2e/health']) {
        add(`${where} = '${trick}' (a path trick)`, put(trick), { kind: 'path-trick' });
      }
    }
    if (p.in === 'query' && p.required) {
      add(`${where} is missing (required)`, (r) => ({ ...r, query: r.query.filter(([k]) => k !== p.name) }));
    }
  }

  const content = op.spec.requestBody?.content as Record<string, Json> | undefined;
  if (content) {
    const [type, media] = Object.entries(content)[0]!;
    const schema = media.schema;
    const example = mediaExample(media);
    const structured = type === 'multipart/form-data' || isJsonType(type);
    const setBody = (value: unknown) => (r: ApiRequest): ApiRequest => ({ ...r, body: { type, value } });
    if (structured && example !== undefined) {
      const bodyOf = (r: ApiRequest) => r.body?.value ?? example;
      for (const { path, value } of leaves(example)) {
        const at = `body.${label(path)}`;
        const binary = type === 'multipart/form-data' && schema?.properties?.[path[0] as string]?.format === 'binary';
        if (typeof value === 'string' && !binary) {
          add(`${at} holds U+0000`, (r) => setBody(setAt(bodyOf(r), path, `${value}\u0000`))(r));
          // A form field is sent as UTF-8, which has no lone surrogates (FormData would send U+FFFD): JSON only.
          if (type !== 'multipart/form-data') add(`${at} holds a lone surrogate`, (r) => setBody(setAt(bodyOf(r), path, `${value}\ud800`))(r));
          add(`${at} is 100 KB`, (r) => setBody(setAt(bodyOf(r), path, HUGE))(r));
        }
        if (type !== 'multipart/form-data') {
          const wrong = otherTypes(value).find((w) => !v.valid(schema, setAt(example, path, w)));
          if (wrong !== undefined) add(`${at} = ${JSON.stringify(wrong)} (another type)`, (r) => setBody(setAt(bodyOf(r), path, wrong))(r));
        } else if (!binary) {
          const wrong = PARAMETER_CANDIDATES.find((w) => !v.valid(schema, setAt(example, path, w)));
          if (wrong !== undefined) add(`${at} = ${JSON.stringify(wrong)} (the schema rejects it)`, (r) => setBody(setAt(bodyOf(r), path, wrong))(r));
        }
      }
      for (const { path, value } of objects(example)) {
        for (const key of Object.keys(value)) {
          const without = deleteAt(example, [...path, key]);
          if (v.valid(schema, without)) continue;
          add(`body.${label([...path, key])} is missing (required)`, (r) => setBody(deleteAt(bodyOf(r), [...path, key]))(r));
        }
        const extra = setAt(example, [...path, 'zzExtra'], 'x');
        if (!v.valid(schema, extra)) add(`body${path.length ? `.${label(path)}` : ''} has an extra field (the schema is strict)`, (r) => setBody(setAt(bodyOf(r), [...path, 'zzExtra'], 'x'))(r));
      }
      if (type !== 'multipart/form-data') {
        const first = leaves(example)[0];
        if (first && !v.valid(schema, setAt(example, first.path, nested(NEST_DEPTH)))) {
          add(`body.${label(first.path)} is nested ${NEST_DEPTH} arrays deep`, (r) => setBody(setAt(bodyOf(r), first.path, nested(NEST_DEPTH)))(r));
        }
        add('the body is not JSON', (r) => ({ ...r, body: { type, raw: '{"unfinished":' } }));
        add('the body is 100,000 nested arrays', (r) => ({ ...r, body: { type, raw: DEEP_BODY } }));
        for (const whole of [[], null, 'x']) {
          if (!v.valid(schema, whole)) add(`the body is ${JSON.stringify(whole)}`, setBody(whole));
        }
      }
    }
    if (op.spec.requestBody.required) add('the body is missing', (r) => ({ ...r, body: undefined }));
    // Another media type than the listed ones: 415.
    const listed = Object.keys(content);
    const others = structured && type !== 'multipart/form-data'
      ? [listed.includes('text/plain') ? 'application/xml' : 'text/plain', 'application/x-www-form-urlencoded']
      : ['application/json'];
    for (const other of others) {
      add(
        `Content-Type ${other} (not listed)`,
        (r) => ({ ...r, body: { type: other, raw: type === 'multipart/form-data' || !structured ? '{}' : JSON.stringify(r.body?.value ?? example) } }),
        { kind: 'status', status: 415 },
      );
    }
  }

  if (STATE_CHANGING.has(op.method)) {
    add('a cross-site Origin', (r) => ({ ...r, headers: { ...r.headers, Origin: 'https://attacker.example' } }), {
      kind: 'status',
      status: 403,
      code: 'csrf_rejected',
    });
  }
  const methods = Object.keys(doc.paths[op.path]).map((m) => m.toUpperCase());
  const other = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((m) => !methods.includes(m));
  if (other && methods[0] === op.method) {
    add(`${other}, a method the path does not have`, (r) => ({ ...r, method: other, body: undefined }), { kind: 'unlisted-4xx' });
  }
  return cases;
}
