/**
 * The staff roster API (docs/api.md "Staff roster"), for the organization's admins (owner or admin):
 *  - POST /organizations/{organizationId}/roster?dryRun=true  the body is a OneRoster CSV zip → the report; with
 *    dryRun false (or absent) and no problems, it is applied in one transaction (422 roster_invalid otherwise);
 *  - GET  /organizations/{organizationId}/roster               the organization's roster staff and their status.
 * An unknown organization answers 403 like one the caller does not administer, so ids cannot be probed.
 */
import { readBodyUpTo } from '../kit/body';
import type { Context, Hono } from 'hono';
import type { Auth } from '../auth/auth';
import { requireSession } from '../auth/http';
import type { Database } from '../db/client';
import { HttpError } from '../kit/errors';
import { NO_STORE } from '../kit/headers';
import { param, query } from '../kit/validate';
import { isOrganizationAdmin } from '../accounts/service';
import {
  ROSTER_MAX_UPLOAD_BYTES,
  ROSTER_MEDIA_TYPES,
  RosterImportQuerySchema,
  RosterOrganizationIdSchema,
  RosterReportSchema,
  RosterStaffListSchema,
} from '../../src/domain/rosterSchemas';
import { RosterArchiveError, readRosterZip, type RosterFiles } from './archive';
import { formatProblem, parseOneRoster } from './oneroster';
import { importRoster, listRosterStaff } from './service';

export interface RosterDeps {
  auth: Auth;
  database: Database;
}

export const ROSTER_MESSAGES = {
  forbidden: "Only the organization's admins can see and import its roster.",
  tooLarge: `The zip is too large: a roster upload may be at most ${ROSTER_MAX_UPLOAD_BYTES / (1024 * 1024)} MB.`,
  mediaType: `Send the roster as the zip's bytes with Content-Type ${ROSTER_MEDIA_TYPES.join(', ')}.`,
  empty: 'The body is empty: send the OneRoster CSV zip.',
} as const;

const rosterError = (status: 400 | 403 | 413 | 415, code: string, message: string) => new HttpError(status, [{ code, message }]);

/** The roster files of an uploaded zip; a zip that cannot be read at all is a 400 roster_invalid. */
function unzipped(bytes: Uint8Array): RosterFiles {
  try {
    return readRosterZip(bytes);
  } catch (error) {
    if (error instanceof RosterArchiveError) throw rosterError(400, 'roster_invalid', error.message);
    throw error;
  }
}

export function registerRosterApi(api: Hono<any>, { auth, database }: RosterDeps): void {
  /** The organization of the path, when the signed-in caller administers it. */
  async function requireOrganizationAdmin(c: Context): Promise<string> {
    const { user } = await requireSession(auth, c);
    const organizationId = param(RosterOrganizationIdSchema, c.req.param('organizationId'));
    if (!(await isOrganizationAdmin(database.db, user.id, organizationId))) throw rosterError(403, 'forbidden', ROSTER_MESSAGES.forbidden);
    return organizationId;
  }

  api.get('/organizations/:organizationId/roster', async (c) => {
    const organizationId = await requireOrganizationAdmin(c);
    const body = RosterStaffListSchema.parse({ staff: await listRosterStaff(database.db, organizationId) });
    return c.json(body, 200, NO_STORE);
  });

  api.post('/organizations/:organizationId/roster', async (c) => {
    // Read before any answer, so a browser sending a large zip never sees its upload cut off by an early 401 or 403.
    const bytes = await readBodyUpTo(c.req.raw, ROSTER_MAX_UPLOAD_BYTES);
    // An oversized body has been drained (up to DRAIN_MAX_BYTES, server/kit/body.ts); past that it was cut off, so the
    // connection closes after this answer and no client reuses it.
    if (!bytes) return c.json({ errors: [{ code: 'payload_too_large', message: ROSTER_MESSAGES.tooLarge }] }, 413, { ...NO_STORE, Connection: 'close' });
    const organizationId = await requireOrganizationAdmin(c);
    const { dryRun } = query(c, RosterImportQuerySchema);
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(ROSTER_MEDIA_TYPES as readonly string[]).includes(type)) throw rosterError(415, 'unsupported_media_type', ROSTER_MESSAGES.mediaType);
    if (!bytes.length) throw rosterError(400, 'roster_invalid', ROSTER_MESSAGES.empty);

    const parsed = parseOneRoster(unzipped(bytes));
    const report = RosterReportSchema.parse(await importRoster(database, organizationId, parsed, { dryRun }));
    if (!dryRun && report.problems.length) {
      const errors = report.problems.map((problem) => ({ code: 'roster_invalid', message: formatProblem(problem) }));
      return c.json({ errors }, 422, NO_STORE);
    }
    return c.json(report, 200, NO_STORE);
  });
}
