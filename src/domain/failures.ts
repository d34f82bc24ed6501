/**
 * The failure type of the engine's api port (src/engine/ports.ts re-exports it). It lives in the shared core so
 * that the machines can tell failures apart by code and the HTTP adapter (src/api/engineApi.ts) can build them,
 * without either importing the engine.
 */
import { DEFAULT_ERROR_MESSAGE } from './constants';

/**
 * Why a call through the api port failed, as the engine tells failures apart (SPEC §8):
 * - `premium_content`: a premium title for a reader without LEVELS ('Premium content'): back to the catalog;
 * - `license_required` / `group_code_required`: a gated passage or narration;
 * - `rate_limited`: too many attempts (429), e.g. wrong class codes;
 * - `not_found`: 404;
 * - `network`: no answer at all;
 * - `unavailable`: any other error answer; its message is shown.
 */
export const FAILURE_CODES = ['premium_content', 'license_required', 'group_code_required', 'rate_limited', 'not_found', 'network', 'unavailable'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** The one failure type the api port rejects with. */
export class PortFailure extends Error {
  constructor(
    readonly code: FailureCode,
    /** The HTTP status, 0 when nothing answered. */
    readonly status: number,
    message: string = DEFAULT_ERROR_MESSAGE,
  ) {
    super(message);
    this.name = 'PortFailure';
  }
}

/** Any rejection as a PortFailure: one from the port as it is, anything else (a bug, a dropped connection) as `network`. */
export function failureOf(error: unknown): PortFailure {
  return error instanceof PortFailure ? error : new PortFailure('network', 0);
}


/** The message to show for a failure (SPEC §8: an API error shows its own message). */
export function failureMessage(error: unknown): string {
  return failureOf(error).message || DEFAULT_ERROR_MESSAGE;
}
