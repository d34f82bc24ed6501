/** The app's singletons: the API client (base '/api/v1', same origin), its query options and the query client. */
import { QueryClient } from '@tanstack/react-query';
import { API_PREFIX, createApiClient, createQueries } from '../../api';
import { readStoredClassCode } from './storedClassCode';
import { getOrCreateClientId } from './clientId';
import { localStore } from './storage';

let clientId: string | undefined;

export const api = createApiClient({
  baseUrl: API_PREFIX,
  clientId: () => (clientId ??= getOrCreateClientId(localStore)),
  // The accepted class code goes with every request (SPEC §7), so a student's passages and titles are gated by it.
  groupCode: () => readStoredClassCode(),
});

export const queries = createQueries(api);

/** No retries and no refetch on focus (SPEC §7: queries and mutations are not retried). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
