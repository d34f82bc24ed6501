/**
 * Manage Organization and Accept Invitation: better-auth's organization endpoints under `/auth`, with our
 * checks on the server (server/auth/organizations.ts). Only organization admins may list and change members and
 * invitations; the server answers 403 to anyone else. Errors come in our shape and are thrown as ApiError.
 *
 * Not re-exported by `index.ts`: only those lazy pages import this module, so its zod schemas
 * (`organizationSchemas.ts`) load with them, not in the catalog's entry chunk.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import {
  ConfirmationSentSchema,
  IgnoredSchema,
  InvitationDetailsSchema,
  InvitationListSchema,
  InvitationSchema,
  MemberListSchema,
  RosterReportSchema,
  RosterStaffListSchema,
  type RosterReportAnswer,
} from './organizationSchemas';

export type { InvitationDetails, OrganizationInvitation, OrganizationMember, RosterReportAnswer, RosterStaffMember } from './organizationSchemas';

/** The roles an admin may give in an invitation (server/auth/organizations.ts INVITATION_ROLES). */
export const INVITATION_ROLES = ['member', 'admin'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];

/** How long a roster upload may take (a zip of a district's staff, checked or applied in one transaction). */
export const ROSTER_UPLOAD_TIMEOUT_MS = 120_000;

const rosterPath = (organizationId: string) => `organizations/${encodeURIComponent(organizationId)}/roster`;

export function createOrganizationApi(api: ApiClient) {
  /** A roster zip's bytes, as they are (Content-Type: application/zip), checked (dryRun) or applied. */
  const postRoster = (organizationId: string, zip: Blob, dryRun: boolean): Promise<RosterReportAnswer> =>
    api.postBytes(RosterReportSchema, rosterPath(organizationId), {
      body: zip,
      contentType: 'application/zip',
      params: dryRun ? { dryRun: 'true' } : {},
      timeout: ROSTER_UPLOAD_TIMEOUT_MS,
    });
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
    /** 403 email_not_verified until the invitee's address is confirmed. */
    acceptInvitation: (invitationId: string) => api.call('post', IgnoredSchema, 'auth/organization/accept-invitation', { json: { invitationId } }),
    /** Mail the signed-in invitee a new link that confirms their address and comes back to the invitation. */
    sendConfirmationEmail: (invitationId: string) =>
      api.call('post', ConfirmationSentSchema, `invitations/${encodeURIComponent(invitationId)}/confirmation-email`),
    /**
     * The staff imported from OneRoster files, each with its status: 'active' once they signed in,
     * 'pending' until their first sign-in, 'disabled'. Org admins only (403 otherwise).
     */
    listRosterStaff: async (organizationId: string) => (await api.call('get', RosterStaffListSchema, rosterPath(organizationId))).staff,
    /**
     * A dry run of a OneRoster 1.2 CSV zip: what an import would do, and the file's problems; nothing changes.
     * Errors carry the server's message: 400 roster_invalid (an unreadable zip), 413, 415, 403.
     */
    checkRoster: (organizationId: string, zip: Blob) => postRoster(organizationId, zip, true),
    /** Import the zip for real, in one transaction. 422 roster_invalid when it has problems: then nothing changes. */
    applyRoster: (organizationId: string, zip: Blob) => postRoster(organizationId, zip, false),
  };
}

export type OrganizationApi = ReturnType<typeof createOrganizationApi>;

/**
 * The roster staff of an organization, keyed beside its members and invitations (`queryKeys.ts`), so invalidating
 * `organizationAll` after an import refreshes all three.
 */
export const rosterQueryKeys = {
  organizationAll: (organizationId: string) => ['organization', organizationId] as const,
  rosterStaff: (organizationId: string) => ['organization', organizationId, 'roster'] as const,
};

export function rosterStaffQuery(organizationApi: OrganizationApi, organizationId: string) {
  return queryOptions({
    queryKey: rosterQueryKeys.rosterStaff(organizationId),
    queryFn: () => organizationApi.listRosterStaff(organizationId),
    retry: false,
  });
}
