/**
 * The engine's api port (src/engine/ports.ts) on the HTTP client: the same calls, with every failure mapped to
 * the engine's PortFailure codes, so the engine tells premium content, gates, rate limits and missing things
 * apart by code, never by message text.
 */
import { PortFailure, type FailureCode } from '../domain/failures';
import type { OnDemandEditionBody, UserRole } from '../domain/schemas';
import type { ApiClient } from './client';
import { toApiError, type ApiError } from './apiError';

/** The server's error codes the engine knows by name (server/access, server/auth/limits). */
const KNOWN_CODES: ReadonlySet<string> = new Set<FailureCode>(['premium_content', 'license_required', 'group_code_required', 'rate_limited']);

/** An ApiError as the engine's failure: a known code as it is, else by status (0 network, 404 not found, 429 rate limited). */
export function failureFromApiError(error: ApiError): PortFailure {
  const code: FailureCode = KNOWN_CODES.has(error.code)
    ? (error.code as FailureCode)
    : error.status === 0
      ? 'network'
      : error.status === 404
        ? 'not_found'
        : error.status === 429
          ? 'rate_limited'
          : 'unavailable';
  return new PortFailure(code, error.status, error.message);
}

async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw failureFromApiError(await toApiError(error));
  }
}

export interface EngineApiOptions {
  /** Called once an edition was created on demand, so cached publication and catalog answers can be refreshed. */
  onEditionCreated?: (slug: string) => void;
}

/** The engine's api port (src/engine/ports.ts ApiPort, which this satisfies by shape: src/api does not import the engine). */
export function createEngineApi(client: ApiClient, options: EngineApiOptions = {}) {
  return {
    getPublication: (slug: string, version?: string) => mapped(client.getPublication(slug, version)),
    getPassage: (editionId: number, position: number, o?: { background?: boolean }) => mapped(client.getPassage(editionId, position, o)),
    createEdition: async (slug: string, body: OnDemandEditionBody) => {
      const created = await mapped(client.createEdition(slug, body));
      options.onEditionCreated?.(slug);
      return created;
    },
    getAudioOnly: (editionId: number, position: number) => mapped(client.getAudioOnly(editionId, position)),
    getPassageAudio: (passageId: number, editionId: number) => mapped(client.getPassageAudio(passageId, editionId)),
    getVisitor: (o: { groupCode: string }) => mapped(client.getVisitor(o)),
    updateRole: (role: UserRole) => mapped(client.updateRole(role)),
    getDecodedText: (passageId: number, editionId: number, position: number) => mapped(client.getDecodedText(passageId, editionId, position)),
  };
}
