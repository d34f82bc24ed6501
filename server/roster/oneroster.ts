/**
 * The OneRoster CSV binding (IMS OneRoster 1.2, and 1.1 where it differs only in columns the import does not need)
 * read into the staff of a school (docs/rostering.md). Pure: bytes in, staff, counts and problems out;
 * ./service.ts plans and applies them against the database.
 *
 *  - manifest.csv gives the version (`oneroster.version`, 1.2 or 1.1) and which files the bundle carries.
 *  - users.csv gives each person: sourcedId, givenName, familyName, email, enabledUser (and status).
 *  - roles.csv (1.2) gives their roles; in 1.1 the role is users.csv's `role` column. teacher gives the teacher role;
 *    siteAdministrator, districtAdministrator, principal (and 1.1's administrator) the org-admin role, which wins
 *    when someone has both. Every other role (student, guardian, aide, …) is skipped and counted: students are never
 *    imported (docs/decisions.md).
 *  - orgs.csv is checked; enrollments.csv and classes.csv are only counted.
 *
 * Every problem names its file and line; the header is line 1, and line 0 means the file as a whole.
 */
import { parse } from 'csv-parse/sync';
import { TEXT_RULES, textProblem } from '../../src/domain/textRules';
import { z } from 'zod';
import type { RosterCounts, RosterProblem, RosterRole } from '../../src/domain/rosterSchemas';
import { ROSTER_FILES, type RosterFileName, type RosterFiles } from './archive';

export const ONEROSTER_VERSIONS = ['1.2', '1.1'] as const;
export type OneRosterVersion = (typeof ONEROSTER_VERSIONS)[number];

/** The columns of each file in the OneRoster 1.2 CSV binding, in its order. */
export const ONEROSTER_12_COLUMNS = {
  'manifest.csv': ['propertyName', 'value'],
  'orgs.csv': ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  'users.csv': [
    'sourcedId', 'status', 'dateLastModified', 'enabledUser', 'username', 'userIds', 'givenName', 'familyName', 'middleName',
    'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password', 'userMasterIdentifier', 'resourceSourcedIds',
    'preferredGivenName', 'preferredMiddleName', 'preferredFamilyName', 'primaryOrgSourcedId', 'pronouns',
  ],
  'roles.csv': ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role', 'beginDate', 'endDate', 'orgSourcedId', 'userProfileSourcedId'],
  'enrollments.csv': ['sourcedId', 'status', 'dateLastModified', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role', 'primary', 'beginDate', 'endDate'],
  'classes.csv': [
    'sourcedId', 'status', 'dateLastModified', 'title', 'grades', 'courseSourcedId', 'classCode', 'classType', 'location',
    'schoolSourcedId', 'termSourcedIds', 'subjects', 'subjectCodes', 'periods',
  ],
} as const satisfies Record<RosterFileName, readonly string[]>;

/** The columns of each file in the OneRoster 1.1 CSV binding: users.csv carries the role; there is no roles.csv. */
export const ONEROSTER_11_COLUMNS = {
  'manifest.csv': ONEROSTER_12_COLUMNS['manifest.csv'],
  'orgs.csv': ONEROSTER_12_COLUMNS['orgs.csv'],
  'users.csv': [
    'sourcedId', 'status', 'dateLastModified', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'userIds', 'givenName',
    'familyName', 'middleName', 'identifier', 'email', 'sms', 'phone', 'agentSourcedIds', 'grades', 'password',
  ],
  'enrollments.csv': ONEROSTER_12_COLUMNS['enrollments.csv'],
  'classes.csv': ONEROSTER_12_COLUMNS['classes.csv'],
} as const satisfies Partial<Record<RosterFileName, readonly string[]>>;

/** Roles that give the teacher role, and those that give the org-admin role; any other role is skipped. */
export const TEACHER_ROLES: readonly string[] = ['teacher'];
export const ADMIN_ROLES: readonly string[] = ['siteAdministrator', 'districtAdministrator', 'principal', 'administrator'];

/** The most problems reported; past it, one last line says how many more there are. */
export const MAX_ROSTER_PROBLEMS = 100;

/** A staff member as the roster gives them. */
export interface RosterEntry {
  sourcedId: string;
  email: string;
  givenName: string;
  familyName: string;
  role: RosterRole;
  enabled: boolean;
}

export interface ParsedRoster {
  version: OneRosterVersion;
  staff: RosterEntry[];
  counts: Pick<RosterCounts, 'skippedRoles' | 'enrollments' | 'classes'>;
  problems: RosterProblem[];
}

/** One data row: its values by column and its first line. */
interface Row {
  line: number;
  values: Record<string, string>;
}

type Problems = { add(file: string, line: number, message: string): void };

/** The file as UTF-8 text, or a problem on the first line that is not UTF-8. */
function decode(file: RosterFileName, bytes: Uint8Array, problems: Problems): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    let line = 1;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i < bytes.length && bytes[i] !== 0x0a) continue;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, i));
      } catch {
        break;
      }
      line++;
      start = i + 1;
    }
    problems.add(file, line, 'This line is not UTF-8 text: save the file as CSV UTF-8 and export it again.');
    return null;
  }
}

/** Why a header is not the expected one, or null when it is. Trailing `metadata.…` extension columns are allowed. */
function headerProblem(header: string[], expected: readonly string[], version: OneRosterVersion): string | null {
  const wanted = `The columns must be OneRoster ${version}'s, in this order: ${expected.join(',')}`;
  for (let i = 0; i < expected.length; i++) {
    if (header[i] === undefined) return `${wanted}. '${expected[i]}' and the columns after it are missing.`;
    if (header[i] !== expected[i]) return `${wanted}. Column ${i + 1} is '${header[i]}' where '${expected[i]}' belongs.`;
  }
  const extra = header.slice(expected.length).find((name) => !name.startsWith('metadata.'));
  return extra === undefined ? null : `'${extra}' is not a OneRoster ${version} column of this file (extension columns start with 'metadata.').`;
}

/** Parse one CSV file against its columns; null (with a problem) when it cannot be read. */
function readCsv(file: RosterFileName, bytes: Uint8Array, expected: readonly string[], version: OneRosterVersion, problems: Problems): Row[] | null {
  const text = decode(file, bytes, problems);
  if (text === null) return null;
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // With `info`, csv-parse gives each record with the line it ends on (its typings only know plain records).
    records = parse(text.replace(/\r\n?/g, '\n'), { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    const at = (error as { lines?: number }).lines ?? 0;
    problems.add(file, at, `This is not valid CSV: ${(error as Error).message}.`);
    return null;
  }
  const [head, ...body] = records;
  const header = (head?.record ?? []).map((name) => name.trim());
  const wrong = head ? headerProblem(header, expected, version) : 'The file is empty: it needs at least its header line.';
  if (wrong) {
    problems.add(file, head ? 1 : 0, wrong);
    return null;
  }
  const rows: Row[] = [];
  for (const { record, info } of body) {
    // A quoted value may span lines: the row starts where its first line is.
    const line = info.lines - record.reduce((n, value) => n + (value.match(/\n/g)?.length ?? 0), 0);
    if (record.every((value) => value.trim() === '')) continue;
    if (record.length !== header.length) {
      problems.add(file, line, `This row has ${record.length} values; the header has ${header.length} columns.`);
      continue;
    }
    // The API's text rule (src/domain/textRules.ts) for every cell: no U+0000 or control characters, and a bounded
    // length. A problem blocks the apply, so nothing the database refuses reaches it; the row is still read, so the
    // rows that name it are not reported as well.
    const bad = record.map((value, i) => ({ column: header[i]!, problem: textProblem(value, TEXT_RULES.freeText) })).find((cell) => cell.problem);
    if (bad) problems.add(file, line, `The value of '${bad.column}' ${bad.problem}.`);
    rows.push({ line, values: Object.fromEntries(header.map((name, i) => [name, record[i]!.trim()])) });
  }
  return rows;
}

/** The manifest: the version, and the files it says are there (bulk or delta). */
function readManifest(files: RosterFiles, problems: Problems): { version: OneRosterVersion; listed: Map<string, { value: string; line: number }> } {
  const listed = new Map<string, { value: string; line: number }>();
  const bytes = files.get('manifest.csv');
  const rows = bytes ? readCsv('manifest.csv', bytes, ONEROSTER_12_COLUMNS['manifest.csv'], '1.2', problems) : null;
  if (!bytes) problems.add('manifest.csv', 0, 'The file is missing: a OneRoster bundle starts with manifest.csv, which names its version and files.');
  for (const row of rows ?? []) listed.set(row.values.propertyName!, { value: row.values.value!, line: row.line });
  const stated = listed.get('oneroster.version');
  if (rows && !stated) problems.add('manifest.csv', 0, "There is no 'oneroster.version' row: it says which OneRoster version the files follow (1.2 or 1.1).");
  if (stated && !(ONEROSTER_VERSIONS as readonly string[]).includes(stated.value)) {
    problems.add('manifest.csv', stated.line, `oneroster.version is ${stated.value}; this import reads OneRoster 1.2 (and 1.1) files.`);
  }
  const version = stated?.value === '1.1' ? '1.1' : '1.2';
  return { version, listed };
}

/** A staff member's users.csv row, checked. */
const StaffUserSchema = z.object({
  sourcedId: z.string(),
  givenName: z.string().min(1, { error: 'givenName is empty' }),
  familyName: z.string().min(1, { error: 'familyName is empty' }),
  email: z
    .string()
    .min(1, { error: 'email is empty: staff sign in with their address' })
    .transform((v) => v.toLowerCase())
    .pipe(z.email({ error: (issue) => `email '${String(issue.input)}' is not a valid address` })),
  enabledUser: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(['true', 'false'], { error: (issue) => `enabledUser must be true or false, not '${String(issue.input)}'` })),
  status: z.enum(['', 'active', 'tobedeleted'], { error: (issue) => `status must be active, tobedeleted or empty, not '${String(issue.input)}'` }),
});

/** The staff role a OneRoster role gives, or null for a role that is not imported. */
export function staffRole(role: string): RosterRole | null {
  if (TEACHER_ROLES.includes(role)) return 'teacher';
  if (ADMIN_ROLES.includes(role)) return 'admin';
  return null;
}

/** Read a OneRoster CSV bundle into its staff, counts and problems. */
export function parseOneRoster(files: RosterFiles): ParsedRoster {
  const problems: RosterProblem[] = [];
  let more = 0;
  const sink: Problems = {
    add: (file, line, message) => (problems.length < MAX_ROSTER_PROBLEMS ? problems.push({ file, line, message }) : more++),
  };
  const { version, listed } = readManifest(files, sink);
  const columns: Partial<Record<RosterFileName, readonly string[]>> = version === '1.1' ? ONEROSTER_11_COLUMNS : ONEROSTER_12_COLUMNS;
  const required: RosterFileName[] = version === '1.1' ? ['orgs.csv', 'users.csv'] : ['orgs.csv', 'users.csv', 'roles.csv'];

  const read = (file: RosterFileName): Row[] | null => {
    const bytes = files.get(file);
    const stated = listed.get(`file.${file.replace(/\.csv$/, '')}`);
    if (!bytes) {
      if (required.includes(file)) sink.add(file, 0, `The file is missing: a staff import needs manifest.csv, ${required.join(', ')}.`);
      else if (stated && stated.value !== 'absent') sink.add('manifest.csv', stated.line, `file.${file.replace(/\.csv$/, '')} is ${stated.value}, but the bundle has no ${file}.`);
      return null;
    }
    return readCsv(file, bytes, columns[file]!, version, sink);
  };

  read('orgs.csv');
  const users = read('users.csv') ?? [];
  const bySourcedId = new Map<string, Row>();
  for (const row of users) {
    const id = row.values.sourcedId!;
    const first = bySourcedId.get(id);
    if (!id) sink.add('users.csv', row.line, 'sourcedId is empty.');
    else if (first) sink.add('users.csv', row.line, `sourcedId '${id}' is on line ${first.line} already.`);
    else bySourcedId.set(id, row);
  }

  // Each user's staff role (admin wins over teacher); every other role is counted as skipped.
  const roles = new Map<string, RosterRole>();
  let skippedRoles = 0;
  const give = (userId: string, role: string) => {
    const staff = staffRole(role);
    if (!staff) skippedRoles++;
    else if (roles.get(userId) !== 'admin') roles.set(userId, staff);
  };
  if (version === '1.1') {
    for (const row of bySourcedId.values()) give(row.values.sourcedId!, row.values.role!);
  } else {
    for (const row of read('roles.csv') ?? []) {
      const userId = row.values.userSourcedId!;
      if (!bySourcedId.has(userId)) sink.add('roles.csv', row.line, `userSourcedId '${userId}' is not a sourcedId in users.csv.`);
      else if (row.values.status !== 'tobedeleted') give(userId, row.values.role!);
    }
  }

  const staff: RosterEntry[] = [];
  const byEmail = new Map<string, Row>();
  for (const [sourcedId, row] of bySourcedId) {
    const role = roles.get(sourcedId);
    if (!role) continue;
    const checked = StaffUserSchema.safeParse(row.values);
    if (!checked.success) {
      for (const issue of checked.error.issues) sink.add('users.csv', row.line, `${issue.message} (sourcedId '${sourcedId}').`);
      continue;
    }
    const { email, givenName, familyName, enabledUser, status } = checked.data;
    const first = byEmail.get(email);
    if (first) {
      sink.add('users.csv', row.line, `email '${email}' is also on line ${first.line} (sourcedId '${first.values.sourcedId}'): each staff member needs an address of their own.`);
      continue;
    }
    byEmail.set(email, row);
    staff.push({ sourcedId, email, givenName, familyName, role, enabled: enabledUser === 'true' && status !== 'tobedeleted' });
  }

  const enrollments = read('enrollments.csv')?.length ?? 0;
  const classes = read('classes.csv')?.length ?? 0;
  // By file (in the bundle's order), then by line.
  const order = (file: string) => (ROSTER_FILES as readonly string[]).indexOf(file);
  problems.sort((a, b) => order(a.file) - order(b.file) || a.line - b.line);
  if (more) problems.push({ file: problems.at(-1)!.file, line: 0, message: `… and ${more} more problems.` });
  return { version, staff, counts: { skippedRoles, enrollments, classes }, problems };
}

/** A problem as one line: `users.csv line 4: …`, or `roles.csv: …` for the file as a whole. */
export function formatProblem(problem: RosterProblem): string {
  return `${problem.file}${problem.line > 0 ? ` line ${problem.line}` : ''}: ${problem.message}`;
}
