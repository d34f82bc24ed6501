/**
 * The zod schemas of better-auth's organization answers (Manage Organization and Accept Invitation). A
 * module of its own, imported only by `organization.ts`, which only those lazy pages import: so these schemas load
 * with them, not in the catalog's entry chunk nor in the shared validation chunk.
 */
import { z } from 'zod';

export const MemberSchema = z.looseObject({
  id: z.string(),
  role: z.string(),
  userId: z.string(),
  user: z.looseObject({ id: z.string(), name: z.string(), email: z.string() }),
});
export type OrganizationMember = z.infer<typeof MemberSchema>;

export const MemberListSchema = z.looseObject({ members: z.array(MemberSchema) });

export const InvitationSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.string(),
  organizationId: z.string(),
  expiresAt: z.coerce.date(),
});
export type OrganizationInvitation = z.infer<typeof InvitationSchema>;

export const InvitationListSchema = z.array(InvitationSchema);

export const InvitationDetailsSchema = z.looseObject({
  ...InvitationSchema.shape,
  organizationName: z.string(),
  organizationSlug: z.string(),
  inviterEmail: z.string(),
});
export type InvitationDetails = z.infer<typeof InvitationDetailsSchema>;

/** POST /invitations/{id}/confirmation-email: where the new confirmation link went. */
export const ConfirmationSentSchema = z.looseObject({ status: z.literal(true), email: z.string() });

/** An answer the client does not read. */
export const IgnoredSchema = z.unknown();

// The staff roster: POST and GET /organizations/{id}/roster, checked with the schemas the server
// answers with (one module, both sides); they load with this lazy module.
export { RosterReportSchema, RosterStaffListSchema, type RosterReport as RosterReportAnswer, type RosterStaff as RosterStaffMember } from '../domain/rosterSchemas';
