/**
 * The edge check of every API request (docs/decisions.md "Input at the edge"): the text rule
 * of src/domain/textRules.ts applied to everything a request carries, before any route, any session lookup and any
 * database call, so that no route can miss it:
 *
 * - each path segment and each query parameter (name and value, every value of a repeated one): no U+0000, no lone
 *   surrogate, no control character, at most MAX_TEXT_LENGTH characters;
 * - a JSON body (also a `text/plain` body that is JSON: the analytics beacon) and a form body: every string and key
 *   without U+0000 or lone surrogates and within its length, nesting at most MAX_NESTING_DEPTH deep; the body itself
 *   at most EDGE_MAX_BODY_BYTES (413);
 * - a field with a meaning under its own kind of the rule: better-auth's fields by name (`fieldKinds`, from
 *   server/auth/http.ts), in its query strings and bodies; our own routes' fields in their zod schemas.
 *
 * A problem answers 400 `invalid_parameter` listing every problem. A body read here is handed on as bytes
 * (`c.req.raw` is replaced), so routes and better-auth read it as before. A body that is not JSON is left for its
 * route to refuse in its own words.
 *
 * `apiPathTricks` answers the JSON 404 for an address sent under /api/ with dot segments (`/api/v1/x/../../etc/passwd`),
 * which the URL parser would otherwise resolve to an address outside the API (the web app's HTML).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { invalidParameters } from './errors';
import { incomingOf, mayHaveBody, readBodyUpTo } from './body';
import { TEXT_RULES, textProblem, textProblems, MAX_LISTED_PROBLEMS, type TextKind } from '../../src/domain/textRules';

/** The largest JSON, text or form body any API route reads. Not in the spec. @default 1 MiB */
export const EDGE_MAX_BODY_BYTES = 1024 * 1024;

export const EDGE_MESSAGES = {
  tooLarge: `The body is larger than ${EDGE_MAX_BODY_BYTES / (1024 * 1024)} MB.`,
  apiNotFound: 'No API route for this address.',
} as const;

/** Content types whose bodies the edge reads and checks: JSON, text (a beacon's JSON) and forms. */
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const CHECKED_TYPES = (type: string) => JSON_TYPE.test(type) || type === 'text/plain' || type === 'application/x-www-form-urlencoded';

/** The media type of a request, lower-cased and without parameters ('' when absent). */
export function mediaTypeOf(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether the media type is JSON (`application/json` or `application/…+json`). */
export function isJsonType(type: string): boolean {
  return JSON_TYPE.test(type);
}

/**
 * A path segment or query component decoded as the routes see it, or null when its percent-escapes are bytes that are
 * not UTF-8 (`%ED%A0%80`, a surrogate's). A '%' not followed by two hex digits stays as it is, as Hono keeps it.
 */
function decodeStrict(raw: string): string | null {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    try {
      return decodeURIComponent(raw.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
    } catch {
      return null;
    }
  }
}

/**
 * The kinds of a route's known fields, by field name, for the path of a request (better-auth's: server/auth/http.ts
 * AUTH_FIELD_KINDS), so that one pass finds every problem; undefined when the path has none.
 */
export type FieldKinds = (path: string) => Readonly<Record<string, TextKind>> | undefined;

const NOT_UTF8 = 'must be UTF-8 (its percent-escapes are not)';

/** Problems of the address: each path segment and each query parameter, decoded as the routes will see them. */
function addressProblems(c: Context, kinds: Readonly<Record<string, TextKind>> | undefined): string[] {
  const problems: string[] = [];
  const url = new URL(c.req.url);
  for (const segment of url.pathname.split('/')) {
    const decoded = decodeStrict(segment);
    const problem = decoded === null ? NOT_UTF8 : textProblem(decoded, TEXT_RULES.line);
    if (problem) problems.push(`The address ${problem}`);
  }
  for (const pair of url.search.slice(1).split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const [rawName, rawValue] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    const name = decodeStrict(rawName.replace(/\+/g, ' '));
    const value = decodeStrict(rawValue.replace(/\+/g, ' '));
    const nameProblem = name === null ? NOT_UTF8 : textProblem(name, TEXT_RULES.line);
    if (nameProblem) {
      problems.push(`A query parameter name ${nameProblem}`);
      continue;
    }
    const problem = value === null ? NOT_UTF8 : textProblem(value, TEXT_RULES[kinds?.[name!] ?? 'line']);
    if (problem) problems.push(`${name} ${problem}`);
  }
  return problems;
}

/** The parsed body when it is JSON (or a form), else undefined (its route refuses it in its own words). */
function parsedBody(type: string, text: string): unknown {
  if (type === 'application/x-www-form-urlencoded') {
    const fields: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const before = fields[k];
      fields[k] = before === undefined ? v : [...(Array.isArray(before) ? before : [before]), v];
    }
    return fields;
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const invalid = (problems: string[]) => invalidParameters(problems.slice(0, MAX_LISTED_PROBLEMS));

/** The edge check of the API router (see the module comment); `fieldKinds` names the rules of known fields. */
export function edgeInput({ fieldKinds }: { fieldKinds?: FieldKinds } = {}): MiddlewareHandler {
  return async (c, next) => {
    const kinds = fieldKinds?.(c.req.path);
    const problems = addressProblems(c, kinds);
    const type = mediaTypeOf(c);
    if (mayHaveBody(c.req.method) && CHECKED_TYPES(type) && c.req.raw.body && !c.req.raw.bodyUsed) {
      const bytes = await readBodyUpTo(c.req.raw, EDGE_MAX_BODY_BYTES);
      if (!bytes) {
        // The rest of the body was drained, or cut off past DRAIN_MAX_BYTES: the connection closes after this answer
        // (server/kit/body.ts).
        return c.json({ errors: [{ code: 'payload_too_large', message: EDGE_MESSAGES.tooLarge }] }, 413, { Connection: 'close' });
      }
      c.req.raw = new Request(c.req.raw, { body: bytes as Uint8Array<ArrayBuffer> });
      const parsed = parsedBody(type, new TextDecoder().decode(bytes));
      if (parsed !== undefined) problems.push(...textProblems(parsed, (key) => kinds?.[key]));
    }
    if (problems.length) throw invalid(problems);
    await next();
  };
}

/** The path as the client sent it, before the URL parser resolved dot segments; null when unknown (`app.fetch`). */
function rawPath(c: Context): string | null {
  const target = incomingOf(c)?.url;
  if (target === undefined) return null;
  const path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0]!;
  return path;
}

/** A dot segment, also percent-encoded ('..', '.', '%2e%2E'). */
const DOT_SEGMENT = /(^|\/)(?:\.|%2e){1,2}(?=\/|$)/i;

/** The JSON 404 for an address sent under /api/ with dot segments (see the module comment). */
export function apiPathTricks(): MiddlewareHandler {
  return async (c, next) => {
    const path = rawPath(c);
    if (path !== null && /^\/+api(?:\/|$)/i.test(path) && DOT_SEGMENT.test(path)) {
      return c.json({ errors: [{ code: 'not_found', message: EDGE_MESSAGES.apiNotFound }] }, 404);
    }
    await next();
  };
}
