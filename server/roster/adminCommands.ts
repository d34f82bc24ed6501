/**
 * `npm run admin -- roster import <org> <file.zip|folder> [--dry-run]` (server/admin/commands.ts): a OneRoster CSV
 * bundle's staff into an organization (docs/rostering.md). It prints the plan as a table of the rows that
 * change, the counts, then every problem with its file and line. A bundle with any problem changes nothing and exits
 * 1; `--dry-run` only prints the plan.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AdminError, type AdminCommand, type AdminIo } from '../cli/command';
import { withDatabase } from '../users/adminCommands';
import { findOrganization } from '../accounts/service';
import type { RosterReport } from '../../src/domain/rosterSchemas';
import { RosterArchiveError, readRosterPath } from './archive';
import { formatProblem, parseOneRoster } from './oneroster';
import { importRoster } from './service';

const OPTIONS = { 'dry-run': { type: 'boolean' } } as const;

/** The argv for a running server's admin socket: the bundle's path made absolute, as the server's cwd differs. */
export function rosterRemoteArgv(argv: string[], io: Pick<AdminIo, 'cwd'>): string[] {
  const [group, name, ...rest] = argv;
  const { tokens } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const positionals = tokens.filter((t) => t.kind === 'positional');
  const source = positionals[1];
  if (!source) return argv;
  const out = [...rest];
  out[source.index] = path.resolve(io.cwd, source.value);
  return [group!, name!, ...out];
}

/** Rows as columns padded to their widest cell. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
}

/** The report as the CLI prints it: output lines, then problem lines (for stderr). */
export function formatRosterReport(report: RosterReport, organization: string): { out: string[]; err: string[] } {
  const { counts } = report;
  const changes = report.staff.filter((s) => s.action !== 'unchanged');
  const out = [
    report.applied
      ? `Imported the roster into ${organization}:`
      : report.dryRun
        ? `Dry run for ${organization} (nothing was changed):`
        : `Nothing was imported into ${organization}:`,
  ];
  if (changes.length) {
    out.push(
      ...table([
        ['ACTION', 'SOURCEDID', 'ROLE', 'ENABLED', 'NAME', 'EMAIL'],
        ...changes.map((s) => [s.action, s.sourcedId, s.role, s.enabled ? 'yes' : 'no', `${s.familyName}, ${s.givenName}`, s.email]),
      ]).map((line) => `  ${line}`),
    );
  }
  const verb = report.applied ? ['added', 'updated', 'disabled'] : ['to add', 'to update', 'to disable'];
  out.push(
    `${counts.add} ${verb[0]}, ${counts.update} ${verb[1]}, ${counts.unchanged} unchanged, ${counts.disable} ${verb[2]}; ` +
      `${counts.skippedRoles} other role(s) skipped (students and others are not imported); ` +
      `${counts.enrollments} enrollment(s) and ${counts.classes} class(es) counted.`,
  );
  const err = report.problems.length
    ? [
        `${report.problems.length} problem(s); nothing was changed:`,
        ...report.problems.map((p) => `  ${formatProblem(p)}`),
      ]
    : [];
  return { out, err };
}

const rosterImport: AdminCommand = {
  summary: "import an organization's staff from OneRoster 1.2 CSV files (a .zip or a folder); --dry-run changes nothing",
  usage: '<org> <file.zip|folder> [--dry-run]',
  details: [
    '<org>               the organization slug (or id)',
    '<file.zip|folder>   manifest.csv, orgs.csv, users.csv, roles.csv (and enrollments.csv, classes.csv, counted)',
    '--dry-run           print what the import would do, and every problem; change nothing',
    'Teachers and administrators become members at their first sign-in with a verified address; students are not imported.',
    'A bundle with any problem changes nothing and exits 1. See docs/rostering.md.',
  ],
  options: OPTIONS,
  remoteArgv: rosterRemoteArgv,
  async run({ positionals, values }, io) {
    const [orgRef, source] = positionals as [string, string];
    const dryRun = values['dry-run'] === true;
    let parsed;
    try {
      parsed = parseOneRoster(readRosterPath(path.resolve(io.cwd, source)));
    } catch (error) {
      if (error instanceof RosterArchiveError) throw new AdminError(error.message);
      throw error;
    }
    const { organization, report } = await withDatabase(io, async (database) => {
      const found = await findOrganization(database.db, orgRef);
      if (!found) throw new AdminError(`No organization '${orgRef}'. Create it with: org create <name>`);
      return { organization: found, report: await importRoster(database, found.id, parsed, { dryRun }) };
    });
    const { out, err } = formatRosterReport(report, organization.slug);
    for (const line of out) io.out(line);
    for (const line of err) io.err(line);
    return report.problems.length ? 1 : 0;
  },
};

/** The roster command group, merged into COMMANDS in server/admin/commands.ts. */
export const ROSTER_COMMANDS: Record<string, Record<string, AdminCommand>> = {
  roster: { import: rosterImport },
};
