/**
 * SPEC §8 error mapping, without zod: the ApiError class and the async mappers the client uses. A failed
 * response's body is still checked with the shared ApiErrorBodySchema, through `errorsOfBody` (`errorBody.ts`),
 * which is loaded with the rest of the response validation (`loadValidation`), so this module can sit in the
 * catalog's entry chunk. `errors.ts` re-exports everything here.
 */
import type { ApiErrorBody } from '../domain/schemas';
import { DEFAULT_ERROR_MESSAGE } from '../domain/constants';
import { loadValidation } from './loadValidation';

export type ApiErrorType = 'unauthorized' | 'forbidden' | 'general';

export class ApiError extends Error {
  readonly type: ApiErrorType;
  readonly status: number;
  readonly errors: ApiErrorBody['errors'];
  /** The first error's code, or 'unknown'. */
  readonly code: string;

  constructor(status: number, errors: ApiErrorBody['errors']) {
    const first = errors[0];
    super(first?.message ?? DEFAULT_ERROR_MESSAGE);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.code = first?.code ?? 'unknown';
    this.type = errorTypeForStatus(status);
  }
}

export function errorTypeForStatus(status: number): ApiErrorType {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  return 'general';
}

/** Read a failed Response into an ApiError. Never throws. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = undefined;
  try {
    body = await response.clone().json();
  } catch {
    body = undefined;
  }
  try {
    const { errorsOfBody } = await loadValidation();
    return new ApiError(response.status, errorsOfBody(body));
  } catch {
    // The validation chunk could not be loaded (offline): the status alone, with the default message.
    return new ApiError(response.status, []);
  }
}

/** Map anything thrown by a request (ky HTTPError, network failure, ApiError) to an ApiError. */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  // Duck-typed: a Response from another realm (a test runner, a polyfilled fetch) is still a response.
  const response = (error as { response?: unknown } | null)?.response as Response | undefined;
  if (response && typeof response.status === 'number' && typeof response.clone === 'function') return apiErrorFromResponse(response);
  return new ApiError(0, []);
}
