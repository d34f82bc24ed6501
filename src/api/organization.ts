/**
 * Manage Organization and Accept Invitation (issue 6): better-auth's organization endpoints under `/auth`, with our
 * checks on the server (server/auth/organizations.ts). Only organization admins may list and change members and
 * invitations; the server answers 403 to anyone else. Errors come in our shape and are thrown as ApiError.
 *
 * Not re-exported by `index.ts`: only those lazy pages import this module, so its zod schemas
 * (`organizationSchemas.ts`) load with them, not in the catalog's entry chunk.
 */
import type { ApiClient } from './client';
import { ConfirmationSentSchema, IgnoredSchema, InvitationDetailsSchema, InvitationListSchema, InvitationSchema, MemberListSchema } from './organizationSchemas';

export type { InvitationDetails, OrganizationInvitation, OrganizationMember } from './organizationSchemas';

/** The roles an admin may give in an invitation (server/auth/organizations.ts INVITATION_ROLES). */
export const INVITATION_ROLES = ['member', 'admin'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

export function createOrganizationApi(api: ApiClient) {
  return {
    listMembers: async (organizationId: string) =>
      (await api.call('get', MemberListSchema, 'auth/organization/list-members', { params: { organizationId } })).members,
    /** Every invitation of the organization; the page shows the pending ones. */
    listInvitations: (organizationId: string) =>
      api.call('get', InvitationListSchema, 'auth/organization/list-invitations', { params: { organizationId } }),
    /** Create an invitation (a pending one for the same email is replaced); it is mailed, and the admin may copy its link too. */
    invite: (organizationId: string, email: string, role: InvitationRole) =>
      api.call('post', InvitationSchema, 'auth/organization/invite-member', { json: { organizationId, email, role } }),
    cancelInvitation: (invitationId: string) => api.call('post', IgnoredSchema, 'auth/organization/cancel-invitation', { json: { invitationId } }),
    removeMember: (organizationId: string, memberId: string) =>
      api.call('post', IgnoredSchema, 'auth/organization/remove-member', { json: { organizationId, memberIdOrEmail: memberId } }),
    /** An invitation for the signed-in user (401 signed out, 403 for another email, 404 when no longer valid). */
    getInvitation: (invitationId: string) =>
      api.call('get', InvitationDetailsSchema, 'auth/organization/get-invitation', { params: { id: invitationId } }),
    /** 403 email_not_verified until the invitee's address is confirmed (issue 16). */
    acceptInvitation: (invitationId: string) => api.call('post', IgnoredSchema, 'auth/organization/accept-invitation', { json: { invitationId } }),
    /** Mail the signed-in invitee a new link that confirms their address and comes back to the invitation. */
    sendConfirmationEmail: (invitationId: string) =>
      api.call('post', ConfirmationSentSchema, `invitations/${encodeURIComponent(invitationId)}/confirmation-email`),
  };
}

export type OrganizationApi = ReturnType<typeof createOrganizationApi>;
