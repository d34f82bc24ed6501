/**
 * SPEC §8 error mapping: a failed response yields an error carrying the body's errors list; the first error's
 * message is used, or DEFAULT_ERROR_MESSAGE when the body has none. 401 is 'unauthorized', 403 'forbidden',
 * anything else 'general'.
 */
import { ApiErrorBodySchema, type ApiErrorBody } from '../domain/schemas';
import { DEFAULT_ERROR_MESSAGE } from '../domain/constants';

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

/** Build an ApiError from a status and whatever body came back (parsed JSON, text, or nothing). */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const parsed = ApiErrorBodySchema.safeParse(body);
  return new ApiError(status, parsed.success ? parsed.data.errors : []);
}

/** Read a failed Response into an ApiError. Never throws. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown = undefined;
  try {
    body = await response.clone().json();
  } catch {
    body = undefined;
  }
  return apiErrorFromBody(response.status, body);
}

/** Map anything thrown by a request (ky HTTPError, network failure, ApiError) to an ApiError. */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  // Duck-typed: a Response from another realm (a test runner, a polyfilled fetch) is still a response.
  const response = (error as { response?: unknown } | null)?.response as Response | undefined;
  if (response && typeof response.status === 'number' && typeof response.clone === 'function') return apiErrorFromResponse(response);
  return new ApiError(0, []);
}
