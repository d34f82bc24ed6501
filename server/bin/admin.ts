/**
 * `npm run admin -- <group> <command> [arguments] [--options]`: the administrator's command line.
 *
 *   npm run admin -- qr print <slug> [--edition en:ORIGINAL] [--out path] [--format svg|png] [--base-url URL]
 *
 * Adding a command: write an `AdminCommand` (its usage, options for node:util parseArgs and a `run`) and put it in
 * `COMMANDS` under its group, e.g. `organization: { create: organizationCreate }`. The dispatcher parses the
 * options, prints the usage text for `--help`, unknown groups, commands and options, and turns an `AdminError` into
 * one line on stderr with exit code 1. Usage errors exit 2.
 *
 * Database commands (`database: true`: org, license, user) while a server runs on PGlite in the same DATA_DIR: the
 * server holds the database (PGlite allows one process), so the command goes to its admin socket,
 * DATA_DIR/admin.sock (server/admin), and the server runs it with this same table against its open database; the
 * output and the exit code are the same as a local run. Without a live server holding DATA_DIR's lock (DATA_DIR/lectern.lock, server/db/lock.ts) and its socket
 * the command opens the database itself; with DATABASE_URL it always does. Unix only (no Windows named pipes).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { AdminError, DEFAULT_QR_BASE_URL, printQr } from '../content/qr';
import { ACCOUNT_COMMANDS } from '../users/adminCommands';
import { ANALYTICS_COMMANDS } from '../analytics/adminCommands';
import { AdminSocketError, runOnServer, runningServerSocket } from '../admin/client';
import type { AdminCommand, AdminIo } from '../admin/command';
import { BACKUP_COMMANDS } from '../admin/backup';
import { MAIL_COMMANDS } from '../mail/outbox';
import { ROSTER_COMMANDS } from '../roster/adminCommands';
import { SSO_COMMANDS } from '../sso/adminCommands';

export type { AdminCommand, AdminIo };

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
  positionals: { min: 1, max: 1 },
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

/**
 * Commands of one word, without a group: `backup <file>`, `restore <file>` (server/admin/backup.ts), `outbox`
 * (server/mail/outbox.ts).
 */
export const SINGLE_COMMANDS: Record<string, AdminCommand> = { ...BACKUP_COMMANDS, ...MAIL_COMMANDS };

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
  if (n < command.positionals.min || n > command.positionals.max) {
    io.err(`${label} takes ${command.positionals.min === command.positionals.max ? command.positionals.min : `${command.positionals.min} to ${command.positionals.max}`} argument(s), got ${n}.\n\n${commandUsage(label, command)}`);
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

/**
 * The CLI as `npm run admin` runs it: configuration from the environment (DATA_DIR, DATABASE_URL, CONTENT_DIR),
 * and database commands sent to a running server's admin socket when there is one. Returns the exit code.
 */
export async function runAdminCli(
  argv: readonly string[],
  io: Pick<AdminIo, 'out' | 'err'> & { cwd?: string },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const config = loadConfig(env);
  return runAdmin(argv, {
    out: io.out,
    err: io.err,
    contentDir: config.contentDir,
    cwd: io.cwd ?? env.INIT_CWD ?? process.cwd(),
    remote: config.databaseUrl ? undefined : (command) => runOnRunningServer(config.dataDir, command, io),
  });
}

/** Send the command to the server holding DATA_DIR and print its answer; null when no server is there. */
async function runOnRunningServer(dataDir: string, argv: string[], io: Pick<AdminIo, 'out' | 'err'>): Promise<number | null> {
  const running = runningServerSocket(dataDir);
  if (!running) return null;
  try {
    const answer = await runOnServer(dataDir, running.socket, argv);
    for (const line of answer.output) io.out(line);
    for (const line of answer.errors) io.err(line);
    return answer.exitCode;
  } catch (error) {
    if (!(error instanceof AdminSocketError)) throw error;
    io.err(
      `error: the server (pid ${running.pid}) holds the database in ${dataDir}, but its admin socket ${running.socket} did not answer (${error.message}). ` +
        `If the server is stuck, restart it (kill ${running.pid} sends SIGTERM; it shuts down cleanly) and try again.`,
    );
    return 1;
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const code = await runAdminCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) });
  process.exit(code);
}
