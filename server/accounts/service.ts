/**
 * The accounts' records: roles, organizations and memberships, school licenses and the features they give, class
 * codes, title visibility and invitations. Sign-in (server/auth), single sign-on, rosters, the gates (server/access),
 * the users API and the operator's CLI (`npm run admin`) all read and write them here, so they follow one set of
 * rules.
 */
import crypto from 'node:crypto';
import { and, eq, isNull, or, gt, gte, asc, desc, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { classCodes, invitation, member, organization, publications, schoolLicenses, titleVisibility, user, userRoles } from '../db/schema';
import { CLASS_CODE_LENGTH } from '../../src/domain/constants';
import { CONTENT_TYPES, type ContentType, type LicenseKind, type TitleStatus, type UserRole } from '../../src/domain/schemas';

/** Organization roles of better-auth's organization plugin that count as `org:admin` (SPEC §3 User). */
export const ORG_ADMIN_ROLES = ['owner', 'admin'] as const;

/** Letters and digits of a class code (upper case; codes are compared upper-cased). */
export const CLASS_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const CLASS_CODE_RE = new RegExp(`^[A-Za-z0-9]{${CLASS_CODE_LENGTH}}$`);

export class AccountsError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}

/** Today in UTC as YYYY-MM-DD: a license is valid through its expiry day. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

// --- roles -------------------------------------------------------------------------------------------------

export async function getRole(db: Db, userId: string): Promise<UserRole | null> {
  const [row] = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return row?.role ?? null;
}

export async function setRole(db: Db, userId: string, role: UserRole): Promise<void> {
  await db
    .insert(userRoles)
    .values({ userId, role })
    .onConflictDoUpdate({ target: userRoles.userId, set: { role, updatedAt: new Date() } });
}

// --- users and organizations --------------------------------------------------------------------------------

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(user).where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()));
  return row ?? null;
}

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** An organization by id or slug. */
export async function findOrganization(db: Db, ref: string) {
  const [row] = await db
    .select()
    .from(organization)
    .where(or(eq(organization.id, ref), eq(organization.slug, ref.toLowerCase())));
  return row ?? null;
}

export async function createOrganization(db: Db, name: string, slug = slugify(name)) {
  const trimmed = name.trim();
  if (!trimmed) throw new AccountsError('invalid', 'The organization needs a name.');
  if (!slug) throw new AccountsError('invalid', `Cannot make a slug from '${name}': use letters or digits.`);
  if (await findOrganization(db, slug)) throw new AccountsError('conflict', `An organization with the slug '${slug}' exists already.`);
  const [row] = await db
    .insert(organization)
    .values({ id: crypto.randomUUID(), name: trimmed, slug, createdAt: new Date() })
    .returning();
  return row!;
}

/** Add the user to the organization with a role, or change the role of an existing membership. */
export async function setMembership(db: Db, userId: string, organizationId: string, role: 'owner' | 'admin' | 'member') {
  const [existing] = await db
    .select()
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)));
  if (existing) {
    await db.update(member).set({ role }).where(eq(member.id, existing.id));
    return;
  }
  await db.insert(member).values({ id: crypto.randomUUID(), organizationId, userId, role, createdAt: new Date() });
}

export interface Membership {
  role: 'org:admin' | 'org:member';
  organization: { id: string; slug: string; name: string };
  license: { features: ContentType[]; kind: LicenseKind; expiresOn: string | null; valid: boolean } | null;
}

/** An organization and its school license (the license's columns are null where it has none). */
const organizationAndLicenseColumns = {
  id: organization.id,
  slug: organization.slug,
  name: organization.name,
  features: schoolLicenses.features,
  kind: schoolLicenses.kind,
  expiresOn: schoolLicenses.expiresOn,
};

export async function memberships(db: Db, userId: string, today = todayUtc()): Promise<Membership[]> {
  const rows = await db
    .select({ role: member.role, ...organizationAndLicenseColumns })
    .from(member)
    .innerJoin(organization, eq(member.organizationId, organization.id))
    .leftJoin(schoolLicenses, eq(schoolLicenses.organizationId, organization.id))
    .where(eq(member.userId, userId))
    .orderBy(asc(organization.name));
  return rows.map((r) => ({
    role: (ORG_ADMIN_ROLES as readonly string[]).includes(r.role) ? 'org:admin' : 'org:member',
    organization: { id: r.id, slug: r.slug, name: r.name },
    license: r.features
      ? { features: sortFeatures(r.features), kind: r.kind ?? 'standard', expiresOn: r.expiresOn, valid: r.expiresOn === null || r.expiresOn >= today }
      : null,
  }));
}

// --- licenses and features ----------------------------------------------------------------------------------

export function parseFeatures(list: string): ContentType[] {
  const items = list
    .split(',')
    .map((f) => f.trim().toUpperCase())
    .filter(Boolean);
  if (!items.length) throw new AccountsError('invalid', `Name at least one feature: ${CONTENT_TYPES.join(', ')}.`);
  const unknown = items.filter((f) => !(CONTENT_TYPES as readonly string[]).includes(f));
  if (unknown.length) throw new AccountsError('invalid', `Unknown feature(s): ${unknown.join(', ')}. The features are ${CONTENT_TYPES.join(', ')}.`);
  return sortFeatures(items as ContentType[]);
}

export function sortFeatures(features: Iterable<string>): ContentType[] {
  const set = new Set(features);
  return CONTENT_TYPES.filter((f) => set.has(f));
}

/** How long a free trial ('ar-free-trial') lasts when no expiry is given: its last valid day is today plus this. */
export const TRIAL_LICENSE_DAYS = 30;

/** The last valid day of a free trial that starts `today` (YYYY-MM-DD, UTC). */
export function trialExpiry(today = todayUtc()): string {
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + TRIAL_LICENSE_DAYS);
  return day.toISOString().slice(0, 10);
}

/**
 * Grant (or replace) the organization's license. `expiresOn` is the last valid day, YYYY-MM-DD, or null. `kind` is
 * 'standard' or 'ar-free-trial' (SPEC §3's free-trial identifier); a replacement takes the new kind.
 */
export async function grantLicense(db: Db, orgRef: string, features: ContentType[], expiresOn: string | null, kind: LicenseKind = 'standard') {
  const org = await findOrganization(db, orgRef);
  if (!org) throw new AccountsError('not_found', `No organization '${orgRef}'. Create it with: org create <name>`);
  if (expiresOn !== null && (!/^\d{4}-\d{2}-\d{2}$/.test(expiresOn) || Number.isNaN(Date.parse(`${expiresOn}T00:00:00Z`)) || new Date(`${expiresOn}T00:00:00Z`).toISOString().slice(0, 10) !== expiresOn)) {
    throw new AccountsError('invalid', `The expiry must be a date as YYYY-MM-DD, not '${expiresOn}'.`);
  }
  const values = { organizationId: org.id, features: sortFeatures(features), kind, expiresOn, updatedAt: new Date() };
  await db
    .insert(schoolLicenses)
    .values(values)
    .onConflictDoUpdate({ target: schoolLicenses.organizationId, set: { features: values.features, kind, expiresOn, updatedAt: values.updatedAt } });
  return { organization: org, features: values.features, kind, expiresOn };
}

/** Remove the organization's license; false when it had none. */
export async function revokeLicense(db: Db, orgRef: string): Promise<boolean> {
  const org = await findOrganization(db, orgRef);
  if (!org) throw new AccountsError('not_found', `No organization '${orgRef}'.`);
  const deleted = await db.delete(schoolLicenses).where(eq(schoolLicenses.organizationId, org.id)).returning();
  return deleted.length > 0;
}

export async function listLicenses(db: Db, today = todayUtc()) {
  const rows = await db
    .select({
      ...organizationAndLicenseColumns,
      members: sql<number>`(select count(*) from ${member} where ${member.organizationId} = ${organization.id})`.mapWith(Number),
    })
    .from(schoolLicenses)
    .innerJoin(organization, eq(schoolLicenses.organizationId, organization.id))
    .orderBy(asc(organization.slug));
  return rows.map((r) => ({ ...r, features: sortFeatures(r.features), valid: r.expiresOn === null || r.expiresOn >= today }));
}

/** The features a user holds: the union of the valid licenses of every organization they belong to. */
export async function featuresOf(db: Db, userId: string, today = todayUtc()): Promise<ContentType[]> {
  const rows = await db
    .select({ features: schoolLicenses.features })
    .from(schoolLicenses)
    .innerJoin(member, eq(member.organizationId, schoolLicenses.organizationId))
    .where(and(eq(member.userId, userId), or(isNull(schoolLicenses.expiresOn), gte(schoolLicenses.expiresOn, today))));
  return sortFeatures(rows.flatMap((r) => r.features));
}

// --- teachers and class codes -------------------------------------------------------------------------------

/** Make the user a teacher (the CLI's `user teacher <email>`). */
export async function makeTeacher(db: Db, email: string) {
  const found = await findUserByEmail(db, email);
  if (!found) throw new AccountsError('not_found', `No user with the email '${email}'. They sign up first.`);
  await setRole(db, found.id, 'TEACHER');
  return found;
}

/** Make the user an admin of the organization (the CLI's `user org-admin <email> <org>`). */
export async function makeOrgAdmin(db: Db, email: string, orgRef: string) {
  const found = await findUserByEmail(db, email);
  if (!found) throw new AccountsError('not_found', `No user with the email '${email}'. They sign up first.`);
  const org = await findOrganization(db, orgRef);
  if (!org) throw new AccountsError('not_found', `No organization '${orgRef}'. Create it with: org create <name>`);
  await setMembership(db, found.id, org.id, 'admin');
  return { user: found, organization: org };
}

/** 8 characters from CLASS_CODE_ALPHABET, each drawn uniformly from the CSPRNG (no modulo bias). */
export function generateClassCode(): string {
  let code = '';
  for (let i = 0; i < CLASS_CODE_LENGTH; i++) code += CLASS_CODE_ALPHABET[crypto.randomInt(CLASS_CODE_ALPHABET.length)];
  return code;
}

async function insertNewCode(db: Db, userId: string, replace: boolean): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = generateClassCode();
    const taken = await db.select({ userId: classCodes.userId }).from(classCodes).where(eq(classCodes.code, code));
    if (taken.length) continue;
    if (replace) {
      await db
        .insert(classCodes)
        .values({ userId, code })
        .onConflictDoUpdate({ target: classCodes.userId, set: { code, createdAt: new Date() } });
    } else {
      const inserted = await db.insert(classCodes).values({ userId, code }).onConflictDoNothing({ target: classCodes.userId }).returning();
      if (!inserted.length) {
        const [row] = await db.select({ code: classCodes.code }).from(classCodes).where(eq(classCodes.userId, userId));
        return row!.code;
      }
    }
    return code;
  }
  throw new Error('Could not find a free class code');
}

/** Whether the user is a teacher whose licenses include GROUP_CODES: only they have a working class code. */
export async function canHaveClassCode(db: Db, userId: string, features?: ContentType[]): Promise<boolean> {
  if ((await getRole(db, userId)) !== 'TEACHER') return false;
  return (features ?? (await featuresOf(db, userId))).includes('GROUP_CODES');
}

/** The teacher's class code, made on first request; null for anyone who cannot have one. */
export async function classCodeFor(db: Db, userId: string, features?: ContentType[]): Promise<string | null> {
  if (!(await canHaveClassCode(db, userId, features))) return null;
  const [row] = await db.select({ code: classCodes.code }).from(classCodes).where(eq(classCodes.userId, userId));
  return row?.code ?? insertNewCode(db, userId, false);
}

/** Replace the teacher's class code; the old one stops working at once. Null when they cannot have one. */
export async function rotateClassCode(db: Db, userId: string): Promise<string | null> {
  if (!(await canHaveClassCode(db, userId))) return null;
  return insertNewCode(db, userId, true);
}

/** Features that are a teacher's tools, not reading features: a class code does not pass them on to students. */
export const TEACHER_ONLY_FEATURES: readonly ContentType[] = ['GROUP_CODES', 'USER_UPLOAD'];

/**
 * The teacher behind a class code, with the reading features the code passes on to students (the teacher's,
 * without TEACHER_ONLY_FEATURES), or null when the code is unknown or its teacher no longer has GROUP_CODES.
 * Case-insensitive.
 */
export async function resolveClassCode(db: Db, code: string): Promise<{ teacherId: string; features: ContentType[] } | null> {
  if (!CLASS_CODE_RE.test(code)) return null;
  const [row] = await db.select({ userId: classCodes.userId }).from(classCodes).where(eq(classCodes.code, code.toUpperCase()));
  if (!row) return null;
  const features = await featuresOf(db, row.userId);
  if (!(await canHaveClassCode(db, row.userId, features))) return null;
  return { teacherId: row.userId, features: features.filter((f) => !TEACHER_ONLY_FEATURES.includes(f)) };
}

// --- title visibility ---------------------------------------------------------------------------------------

export async function titleStatuses(db: Db, userId: string, onlyStatus?: TitleStatus) {
  return db
    .select({ id: titleVisibility.id, titleId: titleVisibility.publicationId, status: titleVisibility.status })
    .from(titleVisibility)
    .where(and(eq(titleVisibility.userId, userId), onlyStatus ? eq(titleVisibility.status, onlyStatus) : undefined))
    .orderBy(asc(titleVisibility.id));
}

/**
 * The titles a teacher's class code opens: their ASSIGNED titles and their own uploads (private to the class), in
 * id order. GET /visitors/me sends them so the client can apply the features per title as the server does.
 */
export async function classTitleIds(db: Db, teacherId: string): Promise<number[]> {
  const assigned = await titleStatuses(db, teacherId, 'ASSIGNED');
  const uploads = await db.select({ id: publications.id }).from(publications).where(eq(publications.ownerUserId, teacherId));
  return [...new Set([...assigned.map((r) => r.titleId), ...uploads.map((r) => r.id)])].sort((a, b) => a - b);
}

export async function setTitleStatus(db: Db, userId: string, publicationId: number, status: TitleStatus) {
  const [row] = await db
    .insert(titleVisibility)
    .values({ userId, publicationId, status })
    .onConflictDoUpdate({ target: [titleVisibility.userId, titleVisibility.publicationId], set: { status, updatedAt: new Date() } })
    .returning({ id: titleVisibility.id, titleId: titleVisibility.publicationId, status: titleVisibility.status });
  return row!;
}


// --- organization admins, invitations and the active organization (Manage Organization) -------------

/** The user's better-auth role in the organization ('owner', 'admin', 'member'), or null when not a member. */
export async function organizationRoleOf(db: Db, userId: string, organizationId: string): Promise<string | null> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)));
  return row?.role ?? null;
}

/** Whether the user is an admin (or owner) of the organization: who may manage its members and invitations. */
export async function isOrganizationAdmin(db: Db, userId: string, organizationId: string): Promise<boolean> {
  const role = await organizationRoleOf(db, userId, organizationId);
  return role !== null && role.split(',').some((r) => (ORG_ADMIN_ROLES as readonly string[]).includes(r.trim()));
}

/** The organization an invitation belongs to, or null for an unknown invitation. */
export async function organizationOfInvitation(db: Db, invitationId: string): Promise<string | null> {
  const [row] = await db.select({ organizationId: invitation.organizationId }).from(invitation).where(eq(invitation.id, invitationId));
  return row?.organizationId ?? null;
}

export interface InvitationWithSchool {
  id: string;
  email: string;
  status: string;
  expiresAt: Date;
  organizationName: string;
}

const invitationColumns = {
  id: invitation.id,
  email: invitation.email,
  status: invitation.status,
  expiresAt: invitation.expiresAt,
  organizationName: organization.name,
};

/** An invitation and its school's name, or null. */
export async function invitationWithSchool(db: Db, invitationId: string): Promise<InvitationWithSchool | null> {
  const [row] = await db.select(invitationColumns).from(invitation).innerJoin(organization, eq(organization.id, invitation.organizationId)).where(eq(invitation.id, invitationId));
  return row ?? null;
}

/** Whether an invitation can still be accepted at `now`. */
export const isOpen = (found: Pick<InvitationWithSchool, 'status' | 'expiresAt'>, now = new Date()) => found.status === 'pending' && found.expiresAt > now;

/** The newest invitation to `email` that can still be accepted, or null. */
export async function newestOpenInvitationFor(db: Db, email: string, now = new Date()): Promise<InvitationWithSchool | null> {
  const [row] = await db
    .select(invitationColumns)
    .from(invitation)
    .innerJoin(organization, eq(organization.id, invitation.organizationId))
    .where(and(eq(sql`lower(${invitation.email})`, email.trim().toLowerCase()), eq(invitation.status, 'pending'), gt(invitation.expiresAt, now)))
    .orderBy(desc(invitation.createdAt))
    .limit(1);
  return row ?? null;
}

/** A membership row by its id (better-auth's member id), or null. */
export async function findMember(db: Db, memberId: string) {
  const [row] = await db.select().from(member).where(eq(member.id, memberId));
  return row ?? null;
}

/**
 * The key in an organization's metadata (better-auth's `metadata` column, JSON text) that marks it as a default
 * organization: a catch-all an operator may keep besides the schools (e.g. for self-serve readers). See
 * docs/decisions.md "Active organization after sign-in".
 */
export const DEFAULT_ORGANIZATION_KEY = 'default';

export function isDefaultOrganizationMetadata(metadata: string | null): boolean {
  if (!metadata) return false;
  try {
    const parsed: unknown = JSON.parse(metadata);
    return typeof parsed === 'object' && parsed !== null && (parsed as Record<string, unknown>)[DEFAULT_ORGANIZATION_KEY] === true;
  } catch {
    return false;
  }
}

/** Mark (or unmark) an organization as a default organization, keeping the rest of its metadata. */
export async function setDefaultOrganization(db: Db, orgRef: string, isDefault: boolean) {
  const org = await findOrganization(db, orgRef);
  if (!org) throw new AccountsError('not_found', `No organization '${orgRef}'.`);
  let metadata: Record<string, unknown> = {};
  try {
    const parsed: unknown = org.metadata ? JSON.parse(org.metadata) : {};
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) metadata = parsed as Record<string, unknown>;
  } catch {
    metadata = {};
  }
  if (isDefault) metadata[DEFAULT_ORGANIZATION_KEY] = true;
  else delete metadata[DEFAULT_ORGANIZATION_KEY];
  await db
    .update(organization)
    .set({ metadata: Object.keys(metadata).length ? JSON.stringify(metadata) : null })
    .where(eq(organization.id, org.id));
  return org;
}

/**
 * The organization a new session starts in (SPEC §6: after sign-in, a non-default organization is preferred):
 * the user's first non-default organization (oldest membership first, then by name), the default one only when
 * they belong to no other, and null when they belong to none.
 */
export async function preferredOrganizationId(db: Db, userId: string): Promise<string | null> {
  const rows = await db
    .select({ id: organization.id, metadata: organization.metadata })
    .from(member)
    .innerJoin(organization, eq(member.organizationId, organization.id))
    .where(eq(member.userId, userId))
    .orderBy(asc(member.createdAt), asc(organization.name), asc(organization.id));
  const nonDefault = rows.find((r) => !isDefaultOrganizationMetadata(r.metadata));
  return (nonDefault ?? rows[0])?.id ?? null;
}
