/**
 * The signed-in user in the UI (issue 6): one TanStack Query entry, `currentUser`, that is null when signed out.
 * It asks better-auth's get-session first (200 either way), and GET /users/me only when there is a session
 * (SPEC §7: /users/me "runs only when signed in"). Sign-in, sign-up and sign-out go through here so each one
 * refreshes or clears that entry and tells the engine (class code, role-modal flag, 'Signed In'/'Signed Out').
 *
 * The engine is imported on demand: the catalog's entry chunk does not carry it (bench/browser.ts budget).
 */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { API_PREFIX } from '../../../api/client';
import { apiErrorFromResponse, toApiError } from '../../../api/errors';
import type { ReaderEngineEvent } from '../../../engine/createReaderEngine';
import type { CurrentUser } from '../../../domain/schemas';
import { api } from '../../platform/api';

export const CURRENT_USER_KEY = ['currentUser'] as const;

export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
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

/** Send an event to the app's engine, loading it first when no screen has yet. */
export async function sendToEngine(event: ReaderEngineEvent): Promise<void> {
  const { getEngine } = await import('../../engine/engine');
  getEngine().send(event);
}

/**
 * After a successful sign-in or sign-up: fetch the user afresh (so the menu and the role modal see them), clear
 * any class code and track 'Signed In' (the engine's auth.signedIn).
 */
export async function completeSignIn(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
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
  await queryClient.cancelQueries({ queryKey: CURRENT_USER_KEY });
  queryClient.setQueryData(CURRENT_USER_KEY, null);
  return null;
}

// --- Manage Organization (issue 6): better-auth's organization endpoints, with our checks on the server ---------
// (server/auth/organizations.ts). Only organization admins may list and change members and invitations; the
// server answers 403 to anyone else. Errors come in our shape and are thrown as ApiError.

const MemberSchema = z.looseObject({
  id: z.string(),
  role: z.string(),
  userId: z.string(),
  user: z.looseObject({ id: z.string(), name: z.string(), email: z.string() }),
});
export type OrganizationMember = z.infer<typeof MemberSchema>;

const InvitationSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.string(),
  organizationId: z.string(),
  expiresAt: z.coerce.date(),
});
export type OrganizationInvitation = z.infer<typeof InvitationSchema>;

const InvitationDetailsSchema = InvitationSchema.extend({ organizationName: z.string(), organizationSlug: z.string(), inviterEmail: z.string() });
export type InvitationDetails = z.infer<typeof InvitationDetailsSchema>;

/** The roles an admin may give in an invitation (server/auth/organizations.ts INVITATION_ROLES). */
export const INVITATION_ROLES = ['member', 'admin'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

async function authCall<S extends z.ZodType>(schema: S, path: string, init: { method?: 'GET' | 'POST'; query?: Record<string, string>; body?: unknown } = {}): Promise<z.infer<S>> {
  const query = init.query ? `?${new URLSearchParams(init.query).toString()}` : '';
  let response: Response;
  try {
    response = await fetch(`${API_PREFIX}/auth/${path}${query}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: init.body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch (error) {
    throw await toApiError(error);
  }
  if (!response.ok) throw await apiErrorFromResponse(response);
  return schema.parse(await response.json());
}

export const organizationApi = {
  listMembers: async (organizationId: string) =>
    (await authCall(z.looseObject({ members: z.array(MemberSchema) }), 'organization/list-members', { query: { organizationId } })).members,
  /** Every invitation of the organization; the page shows the pending ones. */
  listInvitations: (organizationId: string) => authCall(z.array(InvitationSchema), 'organization/list-invitations', { query: { organizationId } }),
  /** Create an invitation (a pending one for the same email is replaced); no email is sent, the admin copies its link. */
  invite: (organizationId: string, email: string, role: InvitationRole) =>
    authCall(InvitationSchema, 'organization/invite-member', { method: 'POST', body: { organizationId, email, role } }),
  cancelInvitation: (invitationId: string) => authCall(z.unknown(), 'organization/cancel-invitation', { method: 'POST', body: { invitationId } }),
  removeMember: (organizationId: string, memberId: string) =>
    authCall(z.unknown(), 'organization/remove-member', { method: 'POST', body: { organizationId, memberIdOrEmail: memberId } }),
  /** An invitation for the signed-in user (401 signed out, 403 for another email, 404 when no longer valid). */
  getInvitation: (invitationId: string) => authCall(InvitationDetailsSchema, 'organization/get-invitation', { query: { id: invitationId } }),
  acceptInvitation: (invitationId: string) => authCall(z.unknown(), 'organization/accept-invitation', { method: 'POST', body: { invitationId } }),
};

export const organizationKeys = {
  members: (organizationId: string) => ['organization', organizationId, 'members'] as const,
  invitations: (organizationId: string) => ['organization', organizationId, 'invitations'] as const,
  invitation: (invitationId: string) => ['invitation', invitationId] as const,
};

/** The app's address of an invitation link (the Accept Invitation page). */
export function invitationPath(invitationId: string): string {
  return `/accept-invitation/${encodeURIComponent(invitationId)}`;
}

export function invitationLink(invitationId: string): string {
  return `${window.location.origin}${invitationPath(invitationId)}`;
}
