/**
 * Manage Organization and Accept Invitation: the app's organization calls (`src/api/organization.ts`, on
 * the shared API client) and the invite link. Apart from `session.ts`, and imported only by those lazy pages, so
 * the organization zod schemas load with them, not in the catalog's entry chunk.
 */
import { createOrganizationApi } from '../../../api/organization';
import { acceptInvitationPath } from '../../../domain/routes';
import { api } from '../../platform/api';

export { INVITATION_ROLES } from '../../../api/organization';
export type { InvitationDetails, InvitationRole, OrganizationInvitation, OrganizationMember } from '../../../api/organization';

export const organizationApi = createOrganizationApi(api);

/** The full address of an invitation link (the Accept Invitation page), to copy and send. */
export function invitationLink(invitationId: string): string {
  return `${window.location.origin}${acceptInvitationPath(invitationId)}`;
}
