/** The API's error shape, `{errors:[{code,message}]}`, and the helpers that produce it. */
import type { ZodError } from 'zod';

export type ErrorCode =
  | 'invalid_parameter'
  | 'invalid_header'
  | 'not_found'
  | 'method_not_allowed'
  | 'internal_error';

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503,
    readonly errors: { code: ErrorCode | string; message: string }[],
  ) {
    super(errors[0]?.message ?? 'error');
  }
}

export function notFound(message: string): HttpError {
  return new HttpError(404, [{ code: 'not_found', message }]);
}

export function badRequest(message: string, code: ErrorCode = 'invalid_parameter'): HttpError {
  return new HttpError(400, [{ code, message }]);
}

/** A 400 listing each problem as an `invalid_parameter` error, in order. */
export function invalidParameters(messages: string[]): HttpError {
  return new HttpError(400, messages.map((message) => ({ code: 'invalid_parameter', message })));
}

/** Turn a zod failure into a 400 listing every problem, each message naming its parameter. */
export function fromZod(error: ZodError, input?: unknown): HttpError {
  const rawAt = (path: readonly PropertyKey[]) =>
    path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined), input);
  return new HttpError(
    400,
    error.issues.map((issue) => {
      const name = issue.path.join('.');
      let message = issue.message;
      if (issue.path.length > 0 && rawAt(issue.path) === undefined) message = `${name} is required`;
      else if (name && !message.includes(name)) message = `${name}: ${message}`;
      return { code: 'invalid_parameter', message };
    }),
  );
}
