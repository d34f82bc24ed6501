/**
 * A failed response's errors list, checked with the shared ApiErrorBodySchema (so this imports zod). Used by
 * `errors.ts` and, through the lazily loaded `validation.ts`, by `apiError.ts`, which builds the ApiError itself:
 * the validation chunk does not import the error class back.
 */
import { ApiErrorBodySchema, type ApiErrorBody } from '../domain/schemas';

/** The body's errors when it has the error shape, else none. */
export function errorsOfBody(body: unknown): ApiErrorBody['errors'] {
  const parsed = ApiErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.errors : [];
}
