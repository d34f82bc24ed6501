/**
 * `npm run admin -- <group> <command> [arguments] [--options]`: the administrator's command line.
 *
 *   npm run admin -- qr print <slug> [--edition en:ORIGINAL] [--out path] [--format svg|png] [--base-url URL]
 *
 * Adding a command: write an `AdminCommand` (its usage, options for node:util parseArgs and a `run`) and put it in
 * `COMMANDS` under its group, e.g. `organization: { create: organizationCreate }`. The dispatcher parses the
 * options, prints the usage text for `--help`, unknown groups, commands and options, and turns an `AdminError` into
 * one line on stderr with exit code 1. Usage errors exit 2.
 */
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig } from '../config';
import { AdminError, DEFAULT_QR_BASE_URL, printQr } from '../content/qr';
import { ACCOUNT_COMMANDS } from '../users/adminCommands';

export interface AdminIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The library folder (CONTENT_DIR, default ./content). */
  contentDir: string;
  /** The folder relative paths are taken from: where `npm run` was typed (INIT_CWD), not the package root. */
  cwd: string;
}

export interface AdminCommand {
  /** One line for the command list. */
  summary: string;
  /** Arguments and options after `<group> <command>`, for the usage text. */
  usage: string;
  /** Longer help: one option or argument a line. */
  details?: string[];
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes. */
  positionals: { min: number; max: number };
  run: (args: { positionals: string[]; values: Record<string, string | boolean | undefined> }, io: AdminIo) => Promise<number>;
}

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

/** Every command, by group and name. */
export const COMMANDS: Record<string, Record<string, AdminCommand>> = {
  qr: { print: qrPrint },
  // Accounts (server/users/adminCommands.ts): org create, license grant|revoke|list, user teacher|org-admin.
  ...ACCOUNT_COMMANDS,
};

export function usageText(): string {
  const lines = ['Usage: npm run admin -- <group> <command> [arguments] [--options]', '', 'Commands:'];
  for (const [group, commands] of Object.entries(COMMANDS)) {
    for (const [name, command] of Object.entries(commands)) lines.push(`  ${group} ${name} ${command.usage}`, `      ${command.summary}`);
  }
  lines.push('', 'npm run admin -- <group> <command> --help shows the options of one command.');
  return lines.join('\n');
}

function commandUsage(group: string, name: string, command: AdminCommand): string {
  return [`Usage: npm run admin -- ${group} ${name} ${command.usage}`, `  ${command.summary}`, ...(command.details ?? []).map((d) => `  ${d}`)].join('\n');
}

/** Runs one admin command line (without `node admin.ts`); returns the exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const [group, name, ...rest] = argv;
  if (!group || group === '--help' || group === '-h' || group === 'help') {
    (group ? io.out : io.err)(usageText());
    return group ? 0 : 2;
  }
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
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(commandUsage(group, name, command));
    return 0;
  }
  let parsed: { positionals: string[]; values: Record<string, string | boolean | undefined> };
  try {
    parsed = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${commandUsage(group, name, command)}`);
    return 2;
  }
  const n = parsed.positionals.length;
  if (n < command.positionals.min || n > command.positionals.max) {
    io.err(`${group} ${name} takes ${command.positionals.min === command.positionals.max ? command.positionals.min : `${command.positionals.min} to ${command.positionals.max}`} argument(s), got ${n}.\n\n${commandUsage(group, name, command)}`);
    return 2;
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

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename);
if (isMain) {
  const code = await runAdmin(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    contentDir: loadConfig().contentDir,
    cwd: process.env.INIT_CWD ?? process.cwd(),
  });
  process.exit(code);
}
