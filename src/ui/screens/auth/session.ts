/**
 * The signed-in user in the UI: one TanStack Query entry, `currentUser`, that is null when signed out.
 * It asks better-auth's get-session first (200 either way), and GET /users/me only when there is a session
 * (SPEC §7: /users/me "runs only when signed in"). Sign-in, sign-up and sign-out go through here so each one
 * refreshes or clears that entry and tells the engine (class code, role-modal flag, 'Signed In'/'Signed Out').
 *
 * The engine is imported on demand: the catalog's entry chunk does not carry it (bench/browser.ts budget). So is
 * zod: Manage Organization's calls, which validate their answers with their own zod schemas, are in
 * `src/api/organization.ts`, which only the lazy organization pages import (through `organization.ts` here).
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { CurrentUser } from '../../../domain/schemas';
import { queryKeys } from '../../../api/queryKeys';
import { api } from '../../platform/api';
import { sendToEngine } from '../../engine/store';

/** The downloads module (and zod, which it validates with) loads only when a reader signs out. */
const deleteGatedDownloads = () =>
  import('../../offline/downloads').then((m) => m.deleteGatedDownloads()).catch((error: unknown) => console.warn('Could not delete downloads', error));

export const currentUserQuery = queryOptions({
  queryKey: queryKeys.currentUser(),
  queryFn: async ({ signal }): Promise<CurrentUser | null> => {
    const session = await api.getSession({ signal });
    if (!session) return null;
    return api.getCurrentUser({ signal });
  },
  staleTime: 60_000,
  retry: false,
});

/** The current user: `data` is null when signed out, undefined while the first check runs. */
export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** Organization admins get Manage Organization (SPEC §2, §6). */
export function isOrgAdmin(user: CurrentUser | null | undefined): boolean {
  return !!user?.organizationMemberships.some((m) => m.role === 'org:admin');
}

/** 'Teacher', 'Reader' or null, for the account card. */
export function roleLabel(user: CurrentUser): string | null {
  if (user.role === 'TEACHER') return 'Teacher';
  if (user.role === 'INDIVIDUAL') return 'Reader';
  return null;
}

export { sendToEngine };

/**
 * After a successful sign-in or sign-up: fetch the user afresh (so the menu and the role modal see them), clear
 * any class code and track 'Signed In' (the engine's auth.signedIn).
 */
export async function completeSignIn(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() });
  await sendToEngine({ type: 'auth.signedIn' });
  await queryClient.fetchQuery(currentUserQuery).catch(() => null);
}

/**
 * Sign out: end the session on the server, then reset the role-modal flag and track 'Signed Out' (the engine's
 * auth.signedOut) and clear the cached user. When the server call fails nothing changes here (the session may
 * still be alive), and the error is returned for the caller to show.
 */
export async function signOut(queryClient: QueryClient): Promise<Error | null> {
  try {
    await api.signOut();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
  await sendToEngine({ type: 'auth.signedOut' });
  // Titles downloaded for offline that a visitor may not read go with the account.
  await deleteGatedDownloads();
  await queryClient.cancelQueries({ queryKey: queryKeys.currentUser() });
  queryClient.setQueryData(queryKeys.currentUser(), null);
  return null;
}
