/**
 * The staff roster against the database (docs/rostering.md): an import's plan, applying it in one
 * transaction, the list Manage Organization shows, and the claim that completes a pre-provisioned member at sign-in.
 *
 * A roster row (`roster_staff`) is a staff member the school named, keyed by (organization, sourcedId). It is not an
 * account: it becomes a membership when someone signs in with a verified address equal to its email
 * (`claimRosterStaff`). From then on a re-import keeps that membership in step with the row: a changed role changes
 * the member's role, a disabled row removes the membership (never an owner's).
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { member, rosterStaff } from '../db/schema';
import { getRole, organizationRoleOf, setMembership, setRole } from '../accounts/service';
import type { RosterAction, RosterPlannedStaff, RosterReport, RosterRole, RosterStaff, RosterStatus } from '../../src/domain/rosterSchemas';
import type { ParsedRoster, RosterEntry } from './oneroster';

type Existing = typeof rosterStaff.$inferSelect;

/** Rows inserted per statement. */
const INSERT_BATCH = 500;

/** A planned row, with the stored row it changes (none for an add). */
interface Planned extends RosterPlannedStaff {
  existing: Existing | null;
}

const same = (a: RosterEntry, b: Existing) =>
  a.email === b.email && a.givenName === b.givenName && a.familyName === b.familyName && a.role === b.role && a.enabled === b.enabled;

/** What importing `entry` does, given the stored row of the same sourcedId. */
export function actionFor(entry: RosterEntry, existing: Existing | null): RosterAction {
  if (existing && same(entry, existing)) return 'unchanged';
  if (!entry.enabled && (!existing || existing.enabled)) return 'disable';
  return existing ? 'update' : 'add';
}

/** The plan: every staff member of the roster with what importing them does. Rows missing from it are left as they are. */
async function plan(db: Db, organizationId: string, staff: RosterEntry[]): Promise<Planned[]> {
  const stored = await db.select().from(rosterStaff).where(eq(rosterStaff.organizationId, organizationId));
  const bySourcedId = new Map(stored.map((row) => [row.sourcedId, row]));
  return staff.map((entry) => {
    const existing = bySourcedId.get(entry.sourcedId) ?? null;
    return { ...entry, action: actionFor(entry, existing), existing };
  });
}

function report(planned: Planned[], parsed: ParsedRoster, dryRun: boolean, applied: boolean): RosterReport {
  const count = (action: RosterAction) => planned.filter((p) => p.action === action).length;
  return {
    dryRun,
    applied,
    counts: { add: count('add'), update: count('update'), unchanged: count('unchanged'), disable: count('disable'), ...parsed.counts },
    staff: planned.map(({ existing: _existing, ...row }) => row),
    problems: parsed.problems,
  };
}

/**
 * Check (dryRun) or import a parsed roster into the organization. A roster with problems is never applied: the
 * report then has `applied: false` and its problems. The apply is one transaction, planned again inside it.
 */
export async function importRoster(database: Database, organizationId: string, parsed: ParsedRoster, options: { dryRun: boolean }): Promise<RosterReport> {
  if (options.dryRun || parsed.problems.length) {
    return report(await plan(database.db, organizationId, parsed.staff), parsed, options.dryRun, false);
  }
  return database.exclusive(() =>
    database.db.transaction(async (tx) => {
      const planned = await plan(tx, organizationId, parsed.staff);
      await apply(tx, organizationId, planned);
      return report(planned, parsed, false, true);
    }),
  );
}

async function apply(db: Db, organizationId: string, planned: Planned[]): Promise<void> {
  const now = new Date();
  const added = planned.filter((p) => p.action === 'add' || (p.action === 'disable' && !p.existing));
  // In slices, well under PostgreSQL's 65,535 parameters a statement.
  for (let at = 0; at < added.length; at += INSERT_BATCH) {
    await db.insert(rosterStaff).values(
      added
        .slice(at, at + INSERT_BATCH)
        .map((p) => ({ organizationId, sourcedId: p.sourcedId, email: p.email, givenName: p.givenName, familyName: p.familyName, role: p.role, enabled: p.enabled, createdAt: now, updatedAt: now })),
    );
  }
  for (const p of planned) {
    const before = p.existing;
    if (!before || p.action === 'unchanged') continue;
    await db
      .update(rosterStaff)
      .set({ email: p.email, givenName: p.givenName, familyName: p.familyName, role: p.role, enabled: p.enabled, updatedAt: now })
      .where(eq(rosterStaff.id, before.id));
    if (!before.userId) continue;
    if (!p.enabled) {
      if (before.enabled) await removeMembership(db, before.userId, organizationId);
    } else if (!before.enabled || before.role !== p.role) {
      // Re-enabled, or a new role: the member gets what the row gives; the roster may take admin back.
      await grantMembership(db, before.userId, organizationId, p.role, { mayDowngrade: before.role === 'admin' && p.role === 'teacher' });
    }
  }
}

const rolesOf = (role: string | null) => (role ?? '').split(',').map((r) => r.trim());

/** Remove the user from the organization, unless they own it. */
async function removeMembership(db: Db, userId: string, organizationId: string): Promise<void> {
  if (rolesOf(await organizationRoleOf(db, userId, organizationId)).includes('owner')) return;
  await db.delete(member).where(and(eq(member.userId, userId), eq(member.organizationId, organizationId)));
}

/**
 * Make the user a member with what a roster row gives: 'admin' for an admin row, 'member' and the TEACHER reading
 * role for a teacher row. An owner is never changed; an admin becomes a member only with `mayDowngrade` (the roster
 * changed the row from admin to teacher).
 */
async function grantMembership(db: Db, userId: string, organizationId: string, role: RosterRole, options: { mayDowngrade: boolean }): Promise<void> {
  const current = await organizationRoleOf(db, userId, organizationId);
  const roles = rolesOf(current);
  if (!roles.includes('owner')) {
    if (role === 'admin' && !roles.includes('admin')) await setMembership(db, userId, organizationId, 'admin');
    if (role === 'teacher' && (current === null || (options.mayDowngrade && roles.includes('admin')))) await setMembership(db, userId, organizationId, 'member');
  }
  if (role === 'teacher' && (await getRole(db, userId)) !== 'TEACHER') await setRole(db, userId, 'TEACHER');
}

/**
 * Complete the pre-provisioned memberships of a signed-in account (called at every new session): when the address is
 * verified, every enabled, unclaimed roster row of any organization with that email is claimed by the account, which
 * becomes a member there with the row's role. One transaction; an unverified address changes nothing.
 */
export async function claimRosterStaff(db: Db, account: { id: string; email: string; emailVerified: boolean }): Promise<void> {
  if (!account.emailVerified) return;
  const email = account.email.trim().toLowerCase();
  await db.transaction(async (tx) => {
    const rows = await tx
      .update(rosterStaff)
      .set({ userId: account.id, updatedAt: new Date() })
      .where(and(eq(sql`lower(${rosterStaff.email})`, email), eq(rosterStaff.enabled, true), isNull(rosterStaff.userId)))
      .returning({ organizationId: rosterStaff.organizationId, role: rosterStaff.role });
    for (const row of rows) await grantMembership(tx, account.id, row.organizationId, row.role, { mayDowngrade: false });
  });
}

/** The status Manage Organization shows for a row. */
export function statusOf(row: Pick<Existing, 'enabled' | 'userId'>): RosterStatus {
  if (!row.enabled) return 'disabled';
  return row.userId ? 'active' : 'pending';
}

/** The organization's roster, sorted by family name, then given name. */
export async function listRosterStaff(db: Db, organizationId: string): Promise<RosterStaff[]> {
  const rows = await db
    .select()
    .from(rosterStaff)
    .where(eq(rosterStaff.organizationId, organizationId))
    .orderBy(asc(rosterStaff.familyName), asc(rosterStaff.givenName), asc(rosterStaff.sourcedId));
  return rows.map((r) => ({ sourcedId: r.sourcedId, email: r.email, givenName: r.givenName, familyName: r.familyName, role: r.role, enabled: r.enabled, status: statusOf(r) }));
}
