/**
 * The operator's account commands for `npm run admin` (server/admin/commands.ts):
 *
 *   org create <name> [--slug slug]
 *   org default <org> [--off]
 *   license grant <org> <FEATURES,...> [--expires YYYY-MM-DD] [--trial]
 *   license revoke <org>
 *   license list
 *   user teacher <email>
 *   user org-admin <email> <org>
 *   user delete <email>
 *   user reset-link <email> [--base-url URL]
 *
 * They open the database the server uses: PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL. PGlite allows one
 * process, so while a server holds DATA_DIR (its lock, DATA_DIR/lectern.lock) the CLI sends them to the server's
 * admin socket (server/admin), which runs them here with `io.database`, the server's open database. With a live
 * server and no socket (still starting, or started without one) they refuse and say so.
 */
import path from 'node:path';
import { AdminError, type AdminCommand, type AdminIo } from '../cli/command';
import { loadConfig } from '../config';
import { DataDirLockedError } from '../db/lock';
import { openDatabase, type Database } from '../db/client';
import { adminResetLink } from '../auth/resetLink';
import { eq } from 'drizzle-orm';
import { bumpRevision } from '../content/import';
import { publications, user } from '../db/schema';
import { CONTENT_TYPES, FREE_TRIAL_LICENSE_KIND } from '../../src/domain/schemas';
import {
  AccountsError,
  createOrganization,
  findUserByEmail,
  grantLicense,
  listLicenses,
  makeOrgAdmin,
  makeTeacher,
  parseFeatures,
  revokeLicense,
  setDefaultOrganization,
  slugify,
  TRIAL_LICENSE_DAYS,
  trialExpiry,
} from '../accounts/service';

/**
 * Delete a user and everything tied to the account (`user delete <email>`): sessions, sign-in accounts, role,
 * memberships, class code, title choices and uploads all reference the user with `on delete cascade`. The library's
 * revision changes when uploads went with them. Returns the user and how many uploads went.
 */
export async function deleteUser(database: Database, email: string) {
  const found = await findUserByEmail(database.db, email);
  if (!found) throw new AccountsError('not_found', `No user with the email '${email}'.`);
  return database.exclusive(async () => {
    const uploads = await database.db.select({ id: publications.id }).from(publications).where(eq(publications.ownerUserId, found.id));
    await database.db.delete(user).where(eq(user.id, found.id));
    if (uploads.length) await bumpRevision(database);
    return { user: found, uploads: uploads.length };
  });
}

/** Open the server's database for one command, or explain why not. Tests may pass `io.database`. */
export async function withDatabase<T>(io: AdminIo, fn: (database: Database) => Promise<T>): Promise<T> {
  const injected = (io as AdminIo & { database?: Database }).database;
  if (injected) return run(injected, fn);
  const config = loadConfig();
  // PGlite in DATA_DIR: openDatabase takes its lock (server/db/lock.ts), and refuses while another process holds it.
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, lockPurpose: 'admin' }).catch((error: unknown) => {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new AdminError(
      error.holder.purpose === 'server'
        ? `${error.message}\nIts admin socket (${path.join(config.dataDir, 'admin.sock')}), which runs these commands while it serves, did not answer: ` +
            'it may still be starting, so try again in a moment (the server log says when a DATA_DIR path is too long for a socket).'
        : error.message,
    );
  });
  try {
    return await run(database, fn);
  } finally {
    await database.close();
  }
}

async function run<T>(database: Database, fn: (database: Database) => Promise<T>): Promise<T> {
  try {
    return await fn(database);
  } catch (error) {
    if (error instanceof AccountsError) throw new AdminError(error.message);
    throw error;
  }
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

type CommandArgs = Parameters<AdminCommand['run']>[0];

/** A command that makes one database call with its arguments, then prints a line or lines about the result. */
export function databaseCall<T>(
  about: Omit<AdminCommand, 'run'>,
  call: (database: Database, positionals: string[], values: CommandArgs['values']) => Promise<T>,
  report: (result: T, positionals: string[], values: CommandArgs['values']) => string | string[],
): AdminCommand {
  return {
    ...about,
    async run({ positionals, values }, io) {
      const result = await withDatabase(io, (database) => call(database, positionals, values));
      const said = report(result, positionals, values);
      for (const line of typeof said === 'string' ? [said] : said) io.out(line);
      return 0;
    },
  };
}

const orgCreate = databaseCall(
  {
    summary: 'create an organization (a school); prints its slug, used by the other commands',
    usage: '<name> [--slug slug]',
    details: ['<name>        the school\'s name, quoted when it has spaces', '--slug slug   its short name (default: made from the name)'],
    options: { slug: { type: 'string' } },
  },
  (database, [name], values) => createOrganization(database.db, name!, values.slug === undefined ? slugify(name!) : slugify(String(values.slug))),
  (org) => `Created organization '${org.name}' (slug ${org.slug}, id ${org.id}).`,
);

const orgDefault = databaseCall(
  {
    summary: "mark an organization as the default (catch-all) one: new sessions prefer any other the user belongs to",
    usage: '<org> [--off]',
    details: ['<org>   the organization slug (or id)', '--off   remove the mark'],
    options: { off: { type: 'boolean' } },
  },
  (database, [org], values) => setDefaultOrganization(database.db, org!, !values.off),
  (org, _positionals, values) =>
    values.off
      ? `${org.slug} is no longer marked as the default organization.`
      : `${org.slug} is the default organization now: after sign-in, members of another organization start in that one.`,
);

const licenseGrant: AdminCommand = {
  summary: "grant or replace an organization's school license",
  usage: '<org> <FEATURES,...> [--expires YYYY-MM-DD] [--trial]',
  details: [
    '<org>                 the organization slug (or id)',
    `<FEATURES,...>        comma-separated, from ${CONTENT_TYPES.join(', ')}, or ALL`,
    '--expires YYYY-MM-DD  the last day the license is valid (default: no expiry; with --trial, today + ' + TRIAL_LICENSE_DAYS + ' days)',
    `--trial               a free trial: a license of kind '${FREE_TRIAL_LICENSE_KIND}'`,
  ],
  options: { expires: { type: 'string' }, trial: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const [org, list] = positionals as [string, string];
    const features = list.trim().toUpperCase() === 'ALL' ? [...CONTENT_TYPES] : wrap(() => parseFeatures(list));
    const trial = values.trial === true;
    const expires = values.expires === undefined ? (trial ? trialExpiry() : null) : String(values.expires);
    if (expires !== null && !DATE_RE.test(expires)) throw new AdminError(`--expires takes a date as YYYY-MM-DD, not '${expires}'.`);
    const kind = trial ? FREE_TRIAL_LICENSE_KIND : 'standard';
    const result = await withDatabase(io, (database) => grantLicense(database.db, org, features, expires, kind));
    io.out(
      `Licensed ${result.organization.slug}${trial ? ` with a free trial (${kind})` : ''}: ${result.features.join(', ')}${result.expiresOn ? `, valid through ${result.expiresOn}` : ', no expiry'}. Its members have these features now.`,
    );
    return 0;
  },
};

const licenseRevoke = databaseCall(
  { summary: "remove an organization's school license", usage: '<org>', details: ['<org>  the organization slug (or id)'] },
  (database, [org]) => revokeLicense(database.db, org!),
  (removed, [org]) => (removed ? `Revoked the license of ${org}.` : `${org} had no license; nothing changed.`),
);

const licenseList = databaseCall(
  { summary: 'list the school licenses', usage: '' },
  (database) => listLicenses(database.db),
  (rows) => {
    if (!rows.length) return 'No licenses. Grant one with: license grant <org> <FEATURES,...> [--expires YYYY-MM-DD] [--trial]';
    const table = [['ORGANIZATION', 'NAME', 'KIND', 'FEATURES', 'EXPIRES', 'STATUS', 'MEMBERS']];
    for (const r of rows) {
      table.push([r.slug, r.name, r.kind, r.features.join(','), r.expiresOn ?? 'never', r.valid ? 'valid' : 'expired', String(r.members)]);
    }
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    return table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  },
);

const userTeacher = databaseCall(
  { summary: 'give a signed-up user the TEACHER role', usage: '<email>', details: ['<email>  the address they signed up with'] },
  (database, [email]) => makeTeacher(database.db, email!),
  (found) => `${found.email} is a teacher now.`,
);

const userOrgAdmin = databaseCall(
  {
    summary: "make a signed-up user an admin of an organization (adds them to it when they are not a member)",
    usage: '<email> <org>',
    details: ['<email>  the address they signed up with', '<org>    the organization slug (or id)'],
  },
  (database, [email, org]) => makeOrgAdmin(database.db, email!, org!),
  (result) => `${result.user.email} is an admin of ${result.organization.slug} now.`,
);

const userDelete = databaseCall(
  {
    summary: 'delete a user and everything tied to the account (sessions, role, memberships, class code, uploads)',
    usage: '<email>',
    details: ['<email>  the address they signed up with'],
  },
  (database, [email]) => deleteUser(database, email!),
  (result) => `Deleted ${result.user.email}${result.uploads ? ` and ${result.uploads} upload(s)` : ''}.`,
);

const userResetLink: AdminCommand = {
  summary: 'print a one-time password reset link for a user (for a school without mail; valid for 1 hour)',
  usage: '<email> [--base-url URL]',
  details: [
    '<email>          the address they signed up with',
    "--base-url URL   the app's address in the link (default: PUBLIC_URL, else http://localhost:PORT)",
  ],
  options: { 'base-url': { type: 'string' } },
  async run({ positionals, values }, io) {
    const baseUrl = values['base-url'] === undefined ? undefined : String(values['base-url']);
    if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) throw new AdminError(`--base-url takes an http:// or https:// address, not '${baseUrl}'.`);
    const email = positionals[0]!;
    const result = await withDatabase(io, (database) => adminResetLink(database, email, { baseUrl, port: () => loadConfig().port }));
    if (!result) throw new AdminError(`No user with the email '${email}'.`);
    io.out(`Password reset link for ${email.trim().toLowerCase()}, valid once until ${result.expiresAt.toISOString()}:`);
    io.out(result.link);
    return 0;
  },
};

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof AccountsError) throw new AdminError(error.message);
    throw error;
  }
}

/** The account command groups, merged into COMMANDS in server/admin/commands.ts. */
export const ACCOUNT_COMMANDS: Record<string, Record<string, AdminCommand>> = {
  org: { create: orgCreate, default: orgDefault },
  license: { grant: licenseGrant, revoke: licenseRevoke, list: licenseList },
  user: { teacher: userTeacher, 'org-admin': userOrgAdmin, delete: userDelete, 'reset-link': userResetLink },
};
