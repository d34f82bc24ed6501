/**
 * The staff roster: the wire shapes of `POST` and `GET /api/v1/organizations/{organizationId}/roster`,
 * shared by the server (which validates its input and documents its answers with them) and the client. A OneRoster
 * 1.2 CSV zip is checked (a dry run) or imported; staff become pre-provisioned members who complete at their first
 * sign-in with a verified address (docs/rostering.md).
 */
import { z } from 'zod';

/** What a roster row gives: 'teacher' (the TEACHER role, a member) or 'admin' (an org admin). */
export const ROSTER_ROLES = ['teacher', 'admin'] as const;
export type RosterRole = (typeof ROSTER_ROLES)[number];

/** What an import does to one staff member. 'disable' is a row that ends up disabled and was not before. */
export const ROSTER_ACTIONS = ['add', 'update', 'unchanged', 'disable'] as const;
export type RosterAction = (typeof ROSTER_ACTIONS)[number];

/** 'active': signed in (claimed) and enabled; 'pending': enabled, not signed in yet; 'disabled': enabledUser false. */
export const ROSTER_STATUSES = ['active', 'pending', 'disabled'] as const;
export type RosterStatus = (typeof ROSTER_STATUSES)[number];

/** The largest zip an upload may send (compressed). @default 10 MB */
export const ROSTER_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** The most the files read from a roster may unpack to, all together. @default 20 MB */
export const ROSTER_MAX_UNCOMPRESSED_BYTES = 20 * 1024 * 1024;

/** The Content-Types a roster upload may carry. */
export const ROSTER_MEDIA_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'] as const;

/** An organization id in a path (better-auth's random ids). */
export const RosterOrganizationIdSchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(200));

/** `?dryRun=true` checks and changes nothing; `false` or absent applies. */
export const RosterImportQuerySchema = z.object({
  dryRun: z.pipe(
    z.optional(z.enum(['true', 'false'], { error: "dryRun must be 'true' or 'false'" })),
    z.transform((v: 'true' | 'false' | undefined) => v === 'true'),
  ),
});

/** One problem of a roster: its file and line (the header is line 1; 0 means the file as a whole). */
export const RosterProblemSchema = z.object({
  file: z.string(),
  line: z.int().check(z.gte(0)),
  message: z.string(),
});
export type RosterProblem = z.infer<typeof RosterProblemSchema>;

const staffFields = {
  sourcedId: z.string(),
  email: z.string(),
  givenName: z.string(),
  familyName: z.string(),
  role: z.enum(ROSTER_ROLES),
  enabled: z.boolean(),
};

/** A staff member as the roster gives them, with what the import does to them. */
export const RosterPlannedStaffSchema = z.object({ ...staffFields, action: z.enum(ROSTER_ACTIONS) });
export type RosterPlannedStaff = z.infer<typeof RosterPlannedStaffSchema>;

export const RosterCountsSchema = z.object({
  add: z.int().check(z.gte(0)),
  update: z.int().check(z.gte(0)),
  unchanged: z.int().check(z.gte(0)),
  disable: z.int().check(z.gte(0)),
  /** Role assignments that are not staff (student, guardian, aide, …): not imported. */
  skippedRoles: z.int().check(z.gte(0)),
  /** Rows of enrollments.csv and classes.csv: counted, not imported. */
  enrollments: z.int().check(z.gte(0)),
  classes: z.int().check(z.gte(0)),
});
export type RosterCounts = z.infer<typeof RosterCountsSchema>;

/** The answer to POST …/roster: the plan (dry run) or what was applied, and every problem. */
export const RosterReportSchema = z.object({
  dryRun: z.boolean(),
  applied: z.boolean(),
  counts: RosterCountsSchema,
  staff: z.array(RosterPlannedStaffSchema),
  problems: z.array(RosterProblemSchema),
});
export type RosterReport = z.infer<typeof RosterReportSchema>;

/** A staff row of the organization, with its status. */
export const RosterStaffSchema = z.object({ ...staffFields, status: z.enum(ROSTER_STATUSES) });
export type RosterStaff = z.infer<typeof RosterStaffSchema>;

/** The answer to GET …/roster, sorted by familyName, then givenName. */
export const RosterStaffListSchema = z.object({ staff: z.array(RosterStaffSchema) });
export type RosterStaffList = z.infer<typeof RosterStaffListSchema>;
