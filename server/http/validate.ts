import type { Context } from 'hono';
import type { z } from 'zod';
import { fromZod } from './errors';

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
