/**
 * The command table of `npm run admin -- <group> <command> [arguments] [--options]`, and its dispatcher. The CLI
 * (server/bin/admin.ts) and the admin socket (./socket.ts) both run commands through it.
 *
 *   npm run admin -- qr print <slug> [--edition en:ORIGINAL] [--out path] [--format svg|png] [--base-url URL]
 *   npm run admin -- outbox [--last N]
 *   npm run admin -- export epub <slug> [--edition en:ORIGINAL] [--out file] [--out-dir dir]
 *
 * Adding a command: write an `AdminCommand` (server/cli/command.ts: its usage, which also says how many arguments it
 * takes, options for node:util parseArgs and a `run`) and put it in `COMMANDS` under its group, e.g.
 * `organization: { create: organizationCreate }`. The dispatcher parses the options, prints the usage text for `--help`, unknown groups, commands and options, and turns
 * an `AdminError` into one line on stderr with exit code 1. Usage errors exit 2.
 *
 * Database commands (`database: true`: org, license, user, …) while a server runs on PGlite in the same DATA_DIR:
 * the server holds the database (PGlite allows one process), so the command goes to its admin socket,
 * DATA_DIR/admin.sock, and the server runs it with this same table against its open database; the output and the
 * exit code are the same as a local run. Without a live server holding DATA_DIR's lock (DATA_DIR/lectern.lock,
 * server/db/lock.ts) and its socket the command opens the database itself; with DATABASE_URL it always does.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { DEFAULT_QR_BASE_URL, printQr } from '../content/qr';
import { OUTBOX_DIR } from '../mail/mailer';
import { readOutbox } from '../mail/outbox';
import { ACCOUNT_COMMANDS } from '../users/adminCommands';
import { ANALYTICS_COMMANDS } from '../analytics/adminCommands';
import { AdminError, argumentCount, type AdminCommand, type AdminIo } from '../cli/command';
import { BACKUP_COMMANDS } from './backup';
import { ROSTER_COMMANDS } from '../roster/adminCommands';
import { SSO_COMMANDS } from '../sso/adminCommands';
import { EXPORT_COMMANDS } from '../epub/adminCommands';

const qrPrint: AdminCommand = {
  summary: "write a printable SVG or PNG of a title's QR code",
  usage: '<slug> [--edition en:ORIGINAL] [--out path] [--format svg|png] [--base-url URL]',
  details: [
    "<slug>            the title's folder name in content/",
    '--edition L:LEVEL print the code for that edition (default: the first code into passage 1)',
    '--out path        where to write (default: ./<code>.<format>)',
    '--format svg|png  default svg, or the --out extension',
    `--base-url URL    the app's address; the code encodes <URL>/qr/<code> (default ${DEFAULT_QR_BASE_URL})`,
  ],
  options: {
    edition: { type: 'string' },
    out: { type: 'string' },
    format: { type: 'string' },
    'base-url': { type: 'string' },
  },
  async run({ positionals, values }, io) {
    const result = await printQr({
      contentDir: io.contentDir,
      slug: positionals[0],
      edition: values.edition as string | undefined,
      out: values.out === undefined ? undefined : path.resolve(io.cwd, values.out as string),
      cwd: io.cwd,
      format: values.format as string | undefined,
      baseUrl: values['base-url'] as string | undefined,
    });
    io.out(`Wrote ${result.format.toUpperCase()} ${path.relative(io.cwd, result.file) || result.file} (${result.bytes} bytes): QR code '${result.code}' → ${result.url}`);
    return 0;
  },
};

/** `npm run admin -- outbox [--last N]`. Reads files only, so it runs beside a running server. */
const outboxCommand: AdminCommand = {
  summary: 'list the messages the server wrote to DATA_DIR/outbox/ (no SMTP_URL set), with their links',
  usage: '[--last N]',
  details: ['--last N   only the N newest messages (default: all)'],
  options: { last: { type: 'string' } },
  async run({ values }, io) {
    let last: number | undefined;
    if (values.last !== undefined) {
      last = Number(values.last);
      if (!Number.isInteger(last) || last < 1) throw new AdminError(`--last takes a whole number of 1 or more, not '${String(values.last)}'.`);
    }
    const dir = path.join(loadConfig().dataDir, OUTBOX_DIR);
    const entries = readOutbox(dir);
    if (!entries.length) {
      io.out(`The outbox (${dir}) is empty.`);
      return 0;
    }
    const shown = last === undefined ? entries : entries.slice(-last);
    for (const entry of shown) {
      io.out(`${entry.date}  to ${entry.to}  "${entry.subject}"`);
      if (entry.link) io.out(`    ${entry.link}`);
      io.out(`    ${path.relative(io.cwd, entry.file) || entry.file}`);
    }
    io.out(`${shown.length} of ${entries.length} message(s) in ${dir}.`);
    return 0;
  },
};

/**
 * Commands of one word, without a group: `backup <file>`, `restore <file>` (./backup.ts), `outbox` (the messages
 * of server/mail/outbox.ts).
 */
export const SINGLE_COMMANDS: Record<string, AdminCommand> = { ...BACKUP_COMMANDS, outbox: outboxCommand };

/** The command an argv names, with its label ('license grant', 'backup') and the arguments after it; or undefined. */
export function findCommand(argv: readonly string[]): { label: string; command: AdminCommand; rest: string[] } | undefined {
  const [group, name, ...rest] = argv;
  if (group && SINGLE_COMMANDS[group]) return { label: group, command: SINGLE_COMMANDS[group], rest: argv.slice(1) };
  const command = group && name ? COMMANDS[group]?.[name] : undefined;
  return command ? { label: `${group} ${name}`, command, rest } : undefined;
}

/** Every command, by group and name. */
export const COMMANDS: Record<string, Record<string, AdminCommand>> = {
  qr: { print: qrPrint },
  // Accounts (server/users/adminCommands.ts): org create, license grant|revoke|list, user teacher|org-admin.
  ...markDatabase(ACCOUNT_COMMANDS),
  // Analytics (server/analytics/adminCommands.ts): events summary.
  ...markDatabase(ANALYTICS_COMMANDS),
  // Staff rosters (server/roster/adminCommands.ts): roster import.
  ...markDatabase(ROSTER_COMMANDS),
  // Single sign-on (server/sso/adminCommands.ts): sso add|list|remove.
  ...markDatabase(SSO_COMMANDS),
  // The EPUB export (server/epub/adminCommands.ts): export epub.
  ...markDatabase(EXPORT_COMMANDS),
};

/** Every account command opens the database. */
function markDatabase(groups: Record<string, Record<string, AdminCommand>>): Record<string, Record<string, AdminCommand>> {
  return Object.fromEntries(
    Object.entries(groups).map(([group, commands]) => [
      group,
      Object.fromEntries(Object.entries(commands).map(([name, command]) => [name, { ...command, database: true }])),
    ]),
  );
}

export function usageText(): string {
  const lines = ['Usage: npm run admin -- <group> <command> [arguments] [--options]', '', 'Commands:'];
  for (const [group, commands] of Object.entries(COMMANDS)) {
    for (const [name, command] of Object.entries(commands)) lines.push(`  ${group} ${name} ${command.usage}`, `      ${command.summary}`);
  }
  for (const [name, command] of Object.entries(SINGLE_COMMANDS)) lines.push(`  ${name} ${command.usage}`, `      ${command.summary}`);
  lines.push('', 'npm run admin -- <group> <command> --help shows the options of one command.');
  return lines.join('\n');
}

function commandUsage(label: string, command: AdminCommand): string {
  return [`Usage: npm run admin -- ${label} ${command.usage}`, `  ${command.summary}`, ...(command.details ?? []).map((d) => `  ${d}`)].join('\n');
}

/** Runs one admin command line (without `node admin.ts`); returns the exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const [group, name, ...rest] = argv;
  if (!group || group === '--help' || group === '-h' || group === 'help') {
    (group ? io.out : io.err)(usageText());
    return group ? 0 : 2;
  }
  const single = SINGLE_COMMANDS[group];
  if (single) return runCommand(group, single, argv.slice(1), argv, io);
  const commands = COMMANDS[group];
  if (!commands) {
    io.err(`Unknown command group '${group}'.\n\n${usageText()}`);
    return 2;
  }
  const command = name ? commands[name] : undefined;
  if (!command) {
    io.err(`${name ? `Unknown command '${group} ${name}'` : `'${group}' needs a command`}; ${group} has: ${Object.keys(commands).join(', ')}.\n\n${usageText()}`);
    return 2;
  }
  return runCommand(`${group} ${name}`, command, rest, argv, io);
}

/** Parse and run one command: `label` is how it is typed ('license grant'), `rest` the arguments after it. */
async function runCommand(label: string, command: AdminCommand, rest: readonly string[], argv: readonly string[], io: AdminIo): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandUsage(label, command));
    return 0;
  }
  let parsed: { positionals: string[]; values: Record<string, string | boolean | undefined> };
  try {
    parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${commandUsage(label, command)}`);
    return 2;
  }
  const n = parsed.positionals.length;
  const { min, max } = argumentCount(command.usage);
  if (n < min || n > max) {
    io.err(`${label} takes ${min === max ? min : `${min} to ${max}`} argument(s), got ${n}.\n\n${commandUsage(label, command)}`);
    return 2;
  }
  if (command.database && io.remote && !io.database) {
    const code = await io.remote(command.remoteArgv ? command.remoteArgv([...argv], io) : [...argv]);
    if (code !== null) return code;
  }
  try {
    return await command.run(parsed, io);
  } catch (error) {
    if (error instanceof AdminError) {
      io.err(`error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

