/**
 * Manage Organization on top of better-auth's organization plugin: our rules in front of its endpoints,
 * the no-mail invitation hook, and the organization a new session starts in.
 *
 * - Invitations are links. `invite-member` creates the invitation and answers its id; the admin copies
 *   `/accept-invitation/{id}` and passes it on, and `sendInvitationEmail` mails it too (server/mail). The id is
 *   better-auth's random id (not guessable), and `accept-invitation` needs the signed-in user's email to be the
 *   invited one (better-auth) and verified (here: 403 email_not_verified; server/auth/addressConfirmation.ts mails
 *   the link that verifies it). better-auth's own `requireEmailVerificationOnInvitation` stays off because it also
 *   hides the invitation itself (get-invitation) from an unverified invitee, whose page must show it.
 * - Members and invitations are for organization admins (`owner` or `admin`, ORG_ADMIN_ROLES): list-members,
 *   list-invitations, invite-member, cancel-invitation, remove-member and update-member-role answer 403 to anyone
 *   else, before better-auth runs (it would answer some of these with 400 or 401). An admin cannot remove themselves.
 * - invite-member's body is checked with zod: a valid email and the role `member` or `admin`.
 * - A new session (sign-in, sign-up) starts in the user's preferred organization (`preferredOrganizationId`).
 */
import { APIError, getSessionFromCtx } from 'better-auth/api';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '../db/client';
import { member, user } from '../db/schema';
import { findMember, invitationWithSchool, isOpen, isOrganizationAdmin, organizationOfInvitation, preferredOrganizationId } from '../accounts/service';
import type { Mailer } from '../mail/mailer';
import { invitationMessage } from '../mail/messages';
import type { AuthSettings } from './config';
import { publicOriginOf } from './passwordReset';
import { acceptInvitationPath } from '../../src/domain/routes';

/** How long an invitation link stays valid. */
export const INVITATION_EXPIRES_IN_S = 7 * 24 * 60 * 60;

/** The roles an admin may give in an invitation (owners are made by the operator only). */
export const INVITATION_ROLES = ['member', 'admin'] as const;

const Id = z.string().trim().min(1).max(200);

const InviteBodySchema = z.looseObject({
  email: z.string({ error: 'email is required' }).trim().pipe(z.email({ error: 'Enter a valid email address.' })),
  role: z.enum(INVITATION_ROLES, { error: "role must be 'member' or 'admin'" }),
  organizationId: Id.optional(),
});
const InvitationIdBodySchema = z.looseObject({ invitationId: Id });
const RemoveMemberBodySchema = z.looseObject({ memberIdOrEmail: Id, organizationId: Id.optional() });
const UpdateRoleBodySchema = z.looseObject({ memberId: Id, organizationId: Id.optional() });
const OrgQuerySchema = z.looseObject({ organizationId: Id.optional() }).optional();

function invalid(error: z.ZodError): APIError {
  return new APIError('BAD_REQUEST', { code: 'INVALID_PARAMETER', message: error.issues.map((i) => i.message).join(' ') });
}

const forbidden = () =>
  new APIError('FORBIDDEN', { code: 'FORBIDDEN', message: 'Only an admin of this organization can manage its members and invitations.' });

function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(result.error);
  return result.data;
}

/** The middleware context better-auth hands `hooks.before` (only what is used here). */
interface HookContext {
  path: string;
  body?: unknown;
  query?: unknown;
}

/**
 * Our checks in front of the organization plugin's endpoints; a no-op for every other path. Throws an APIError
 * (400 invalid_parameter, 403 forbidden, 400 cannot_remove_yourself) that server/auth/http.ts puts in our shape.
 * Without a session it lets better-auth answer (401).
 */
export async function checkOrganizationRequest(db: Db, ctx: HookContext): Promise<void> {
  const { path } = ctx;
  if (!path.startsWith('/organization/')) return;
  if (path === '/organization/accept-invitation' || path === '/organization/reject-invitation') return checkInvitee(db, ctx);
  let organizationId: string | null | undefined;
  let removing: string | undefined;
  switch (path) {
    case '/organization/invite-member':
      organizationId = parse(InviteBodySchema, ctx.body).organizationId;
      break;
    case '/organization/cancel-invitation': {
      const { invitationId } = parse(InvitationIdBodySchema, ctx.body);
      organizationId = await organizationOfInvitation(db, invitationId);
      // Unknown invitation: better-auth answers 'Invitation not found'.
      if (!organizationId) return;
      break;
    }
    case '/organization/remove-member': {
      const body = parse(RemoveMemberBodySchema, ctx.body);
      organizationId = body.organizationId;
      removing = body.memberIdOrEmail;
      break;
    }
    case '/organization/update-member-role':
      organizationId = parse(UpdateRoleBodySchema, ctx.body).organizationId;
      break;
    case '/organization/list-members':
    case '/organization/list-invitations':
      organizationId = parse(OrgQuerySchema, ctx.query)?.organizationId;
      break;
    default:
      return;
  }
  const session = await getSessionFromCtx(ctx as never);
  if (!session) return;
  organizationId ??= session.session.activeOrganizationId as string | null | undefined;
  if (!organizationId) throw new APIError('BAD_REQUEST', { code: 'INVALID_PARAMETER', message: 'organizationId is required' });
  if (!(await isOrganizationAdmin(db, session.user.id, organizationId))) throw forbidden();
  if (removing !== undefined && (await memberUserId(db, removing, organizationId)) === session.user.id) {
    throw new APIError('BAD_REQUEST', { code: 'CANNOT_REMOVE_YOURSELF', message: 'You cannot remove yourself from the organization.' });
  }
}

/** What accept-invitation answers an invitee whose address is not yet proven. */
export const EMAIL_NOT_VERIFIED_MESSAGE = 'Confirm your email address to accept this invitation: open the link we emailed you, or send a new one.';

/**
 * The invited person answers an open invitation only with a verified address. Anyone else
 * (another email, an unknown or closed invitation, no session) gets better-auth's own answer.
 */
async function checkInvitee(db: Db, ctx: HookContext): Promise<void> {
  const { invitationId } = parse(InvitationIdBodySchema, ctx.body);
  const session = await getSessionFromCtx(ctx as never);
  if (!session || session.user.emailVerified) return;
  const found = await invitationWithSchool(db, invitationId);
  // A closed invitation gets better-auth's 404 first: confirming the address would not help.
  if (found && isOpen(found) && found.email.toLowerCase() === session.user.email.toLowerCase()) {
    throw new APIError('FORBIDDEN', { code: 'EMAIL_NOT_VERIFIED', message: EMAIL_NOT_VERIFIED_MESSAGE });
  }
}

/** The user behind a member id (or a member's email) in the organization, or null. */
async function memberUserId(db: Db, memberIdOrEmail: string, organizationId: string): Promise<string | null> {
  if (!memberIdOrEmail.includes('@')) return (await findMember(db, memberIdOrEmail))?.userId ?? null;
  const [row] = await db
    .select({ userId: member.userId })
    .from(member)
    .innerJoin(user, eq(member.userId, user.id))
    .where(and(eq(member.organizationId, organizationId), eq(sql`lower(${user.email})`, memberIdOrEmail.toLowerCase())));
  return row?.userId ?? null;
}

/**
 * better-auth's `sendInvitationEmail`: the invitation is mailed (SMTP, or the outbox) with its link,
 * in the background, and the admin can still copy the link. A failure is logged.
 */
export function mailInvitation({ mailer, settings, logger }: { mailer: Mailer; settings: AuthSettings; logger: Logger }) {
  return async (
    data: { id: string; role: string; email: string; organization: { id: string; slug: string; name: string }; inviter: { user: { name: string; email: string } } },
    request?: Request,
  ) => {
    const origin = publicOriginOf(settings, request);
    logger.info({ invitationId: data.id, organization: data.organization.slug, role: data.role }, 'organization invitation created');
    if (!origin) return;
    const link = new URL(acceptInvitationPath(data.id), origin).href;
    const message = invitationMessage({
      to: data.email,
      school: data.organization.name,
      inviter: data.inviter.user.name || data.inviter.user.email,
      role: data.role,
      link,
      expiresInDays: INVITATION_EXPIRES_IN_S / 86_400,
    });
    void mailer.send(message).catch((err: unknown) => logger.error({ err }, 'invitation: the mail could not be sent'));
  };
}

/** `databaseHooks.session.create.before`: every new session starts in the user's preferred organization. */
export function activatePreferredOrganization(db: Db, logger: Logger) {
  return async (session: { userId: string; activeOrganizationId?: unknown } & Record<string, unknown>) => {
    if (session.activeOrganizationId) return;
    try {
      const activeOrganizationId = await preferredOrganizationId(db, session.userId);
      if (activeOrganizationId) return { data: { ...session, activeOrganizationId } };
    } catch (error) {
      // Signing in matters more than the active organization: log and go on without one.
      logger.error({ err: error }, 'could not choose the active organization for a new session');
    }
    return;
  };
}
