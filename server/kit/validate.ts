import type { Context } from 'hono';
import type { z } from 'zod';
import { HttpError, badRequest, fromZod } from './errors';
import { isJsonType, mediaTypeOf } from './edgeInput';

/** Validate the query string with a zod schema; a failure is a 400 with the error shape. Repeated keys use the first value. */
export function query<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const input = c.req.query();
  const result = schema.safeParse(input);
  if (!result.success) throw fromZod(result.error, input);
  return result.data;
}

export function param<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZod(result.error, value);
  return result.data;
}

/** The 415 of a route that takes JSON, for a body of any other type (or none named). */
export function unsupportedMediaType(shape: string): HttpError {
  return new HttpError(415, [{ code: 'unsupported_media_type', message: `Send the body as application/json: ${shape}` }]);
}

/**
 * Read a JSON body and validate it with a zod schema: another Content-Type (or none) is a 415; not JSON, or not the
 * shape, is a 400; both with the error shape.
 */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S, shape: string): Promise<z.output<S>> {
  if (!isJsonType(mediaTypeOf(c))) throw unsupportedMediaType(shape);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest(`The body must be JSON: ${shape}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw fromZod(parsed.error, body);
  return parsed.data;
}
