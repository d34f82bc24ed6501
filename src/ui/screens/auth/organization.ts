/**
 * Manage Organization and Accept Invitation (issue 6): better-auth's organization endpoints, with our checks on
 * the server (server/auth/organizations.ts). Apart from `session.ts` so that the zod schemas below load with these
 * lazy pages, not in the catalog's entry chunk.
 */
import { z } from 'zod';
import { API_PREFIX } from '../../../api/client';
import { apiErrorFromResponse, toApiError } from '../../../api/apiError';

// Only organization admins may list and change members and invitations; the server answers 403 to anyone else.
// Errors come in our shape and are thrown as ApiError.

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
