/**
 * The one rule for text the API accepts (docs/decisions.md "Input at the edge"):
 *
 * - **No string contains U+0000 or a lone surrogate.** PostgreSQL cannot store the first, and UTF-8 cannot encode
 *   the second; either one failed deep inside a query before this rule.
 * - **Single-line values contain no control characters** (C0, DEL and C1): names, emails, codes, tokens, slugs, ids,
 *   addresses, and every query parameter and path segment. Free text may hold tab and line breaks.
 * - **Every string has a maximum length**, counted in characters (code points): a name at most 100.
 *
 * The server applies it at its edge to every JSON body, form body, query string and path (server/http/edgeInput.ts)
 * and, by field name, to better-auth's bodies and query strings (server/auth/http.ts); a schema that takes text can
 * use `textSchema`. No framework here: the client may use the same functions.
 */
import { z } from 'zod';

/** A person's or an organization's name. @default 100 */
export const MAX_NAME_LENGTH = 100;
/** An email address (RFC 5321's longest forward path, less the brackets). @default 254 */
export const MAX_EMAIL_LENGTH = 254;
/** An id, a slug, a role or a provider name. @default 200 */
export const MAX_IDENTIFIER_LENGTH = 200;
/** A signed token or an authorization code (a provider's code can be over 1 KB). @default 4096 */
export const MAX_TOKEN_LENGTH = 4096;
/** A web address or a path to go back to. @default 2048 */
export const MAX_URL_LENGTH = 2048;
/** A title the user gives (an upload's). @default 200 */
export const MAX_TITLE_LENGTH = 200;
/** Free text, and every query parameter and path segment. @default 8192 */
export const MAX_TEXT_LENGTH = 8192;
/**
 * Any other string of a body: one whose field the edge knows nothing more about. Above every route's own body cap
 * (the analytics beacon's 10 KB), so that a route's rule or its 413 answers first, in its own words. @default 65536
 */
export const MAX_ANY_LENGTH = 65_536;
/** How deep a JSON body may nest arrays and objects. @default 32 */
export const MAX_NESTING_DEPTH = 32;
/** How many problems one answer lists at most (a body of a thousand bad strings gets the first ones). @default 20 */
export const MAX_LISTED_PROBLEMS = 20;

/** What one kind of text may hold. */
export interface TextRule {
  /** Longest value, in characters (code points). */
  max: number;
  /** No control characters at all (C0, DEL, C1); otherwise tab, line feed and carriage return are allowed. */
  singleLine: boolean;
  /**
   * Whether control characters are checked at all: false for a string whose meaning the edge does not know (any
   * string of a JSON body), where only U+0000, lone surrogates and the length are refused. @default true
   */
  checkControls?: boolean;
}

export const TEXT_RULES = {
  name: { max: MAX_NAME_LENGTH, singleLine: true },
  email: { max: MAX_EMAIL_LENGTH, singleLine: true },
  identifier: { max: MAX_IDENTIFIER_LENGTH, singleLine: true },
  token: { max: MAX_TOKEN_LENGTH, singleLine: true },
  url: { max: MAX_URL_LENGTH, singleLine: true },
  title: { max: MAX_TITLE_LENGTH, singleLine: true },
  /** A query parameter or a path segment. */
  line: { max: MAX_TEXT_LENGTH, singleLine: true },
  /** Free text a person writes: tab and line breaks allowed. */
  freeText: { max: MAX_TEXT_LENGTH, singleLine: false },
  /** Any string of a JSON body the edge knows nothing more about. */
  any: { max: MAX_ANY_LENGTH, singleLine: false, checkControls: false },
} as const satisfies Record<string, TextRule>;

export type TextKind = keyof typeof TEXT_RULES;

// eslint-disable-next-line no-control-regex
const NUL_OR_LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Whether the string holds U+0000 or a surrogate that is not half of a pair. */
export function hasNulOrLoneSurrogate(value: string): boolean {
  return NUL_OR_LONE_SURROGATE.test(value);
}

/** Length in characters (code points), stopping early once past `max`. */
function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  let count = 0;
  for (const _ of value) if (++count > max) return true;
  return false;
}

/** What is wrong with `value` under `rule`, as the end of a sentence ('must be at most 100 characters'), or null. */
export function textProblem(value: string, rule: TextRule): string | null {
  if (hasNulOrLoneSurrogate(value)) return 'must not contain U+0000 or unpaired surrogates';
  if (rule.checkControls !== false && (rule.singleLine ? ANY_CONTROL : CONTROL_BUT_LINE_BREAKS).test(value)) {
    return 'must not contain control characters';
  }
  if (longerThan(value, rule.max)) return `must be at most ${rule.max} characters`;
  return null;
}

/** A zod string that follows the rule of `kind`; the message names `field`. */
export function textSchema(kind: TextKind, field: string) {
  const rule: TextRule = TEXT_RULES[kind];
  return z.string().check(
    z.superRefine((value: string, ctx) => {
      const problem = textProblem(value, rule);
      if (problem) ctx.addIssue({ code: 'custom', message: `${field} ${problem}` });
    }),
  );
}

/**
 * Every problem in a parsed JSON value (or a form's fields), in the body's order: each string under the rule its key
 * names (`kindOf`; an array's items take the array's key), else `any`, and each key under `any`; a field with a kind
 * that holds a number, a boolean or an object; nesting deeper than MAX_NESTING_DEPTH. Messages name the field by its
 * path ('data.name must be at most 100 characters'); at most MAX_LISTED_PROBLEMS. Iterative, so no input can exhaust
 * the stack.
 */
export function textProblems(value: unknown, kindOf: (key: string) => TextKind | undefined = () => undefined, what = 'body'): string[] {
  const problems: string[] = [];
  type Step = { value: unknown; path: string; key: string | null; depth: number } | { problem: string };
  const stack: Step[] = [{ value, path: '', key: null, depth: 0 }];
  while (stack.length && problems.length < MAX_LISTED_PROBLEMS) {
    const step = stack.pop()!;
    if ('problem' in step) {
      problems.push(step.problem);
      continue;
    }
    const { value: v, path, key, depth } = step;
    const name = path || what;
    const kind = key !== null ? kindOf(key) : undefined;
    if (kind && v !== null && typeof v !== 'string' && !Array.isArray(v)) {
      // A field with a kind of text holds text (or null, or a list of texts), never a number or an object.
      problems.push(`${name} must be text`);
    } else if (typeof v === 'string') {
      const problem = textProblem(v, TEXT_RULES[kind ?? 'any']);
      if (problem) problems.push(`${name} ${problem}`);
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_NESTING_DEPTH) {
        problems.push(`${name} is nested more than ${MAX_NESTING_DEPTH} levels deep`);
        continue;
      }
      const entries: [string, unknown][] = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, item] = entries[i]!;
        if (Array.isArray(v)) {
          stack.push({ value: item, path: `${path || what}[${k}]`, key, depth: depth + 1 });
          continue;
        }
        const keyProblem = textProblem(k, TEXT_RULES.any);
        if (keyProblem) {
          // In the stack, so that problems come in the body's order.
          stack.push({ problem: `A key in ${name} ${keyProblem}` });
          continue;
        }
        stack.push({ value: item, path: path ? `${path}.${k}` : k, key: k, depth: depth + 1 });
      }
    }
  }
  return problems.slice(0, MAX_LISTED_PROBLEMS);
}
