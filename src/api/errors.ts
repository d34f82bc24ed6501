/**
 * SPEC §8 error mapping: a failed response yields an error carrying the body's errors list; the first error's
 * message is used, or DEFAULT_ERROR_MESSAGE when the body has none. 401 is 'unauthorized', 403 'forbidden',
 * anything else 'general'.
 *
 * The zod-free part (ApiError, toApiError, apiErrorFromResponse) lives in `apiError.ts` and is re-exported here;
 * this module adds `apiErrorFromBody`, which checks the body with the shared ApiErrorBodySchema (`errorsOfBody`
 * in `errorBody.ts`) and so imports zod. Code in the catalog's entry chunk imports `apiError.ts` instead (see
 * docs/decisions.md).
 */
import { ApiError } from './apiError';
import { errorsOfBody } from './errorBody';

export * from './apiError';

/** Build an ApiError from a status and whatever body came back (parsed JSON, text, or nothing). */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  return new ApiError(status, errorsOfBody(body));
}
