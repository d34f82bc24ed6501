/**
 * The shape of an `npm run admin` command, the input and output it runs with, and the error it reports. Each feature
 * writes its own commands (server/users/adminCommands.ts, server/sso/adminCommands.ts, …) and server/admin collects
 * them into the command table, so the shape sits below both.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Database } from '../db/client';

export interface AdminIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** The library folder (CONTENT_DIR, default ./content). */
  contentDir: string;
  /** The folder relative paths are taken from: where `npm run` was typed (INIT_CWD), not the package root. */
  cwd: string;
  /** The database to use instead of opening one: the server's own, when it runs a command from its admin socket. */
  database?: Database;
  /** The auth secret to use (the server's, through its admin socket); otherwise the CLI loads DATA_DIR's or BETTER_AUTH_SECRET. */
  authSecret?: string;
  /**
   * Runs a database command on a running server instead (the CLI's admin-socket client). Returns the exit code,
   * or null when no server holds the database, and the command then runs here.
   */
  remote?: (argv: string[]) => Promise<number | null>;
}

export interface AdminCommand {
  /** One line for the command list. */
  summary: string;
  /**
   * Arguments and options after `<group> <command>`, for the usage text. The positional arguments come first, before
   * any option: `<name>` one that must be given, `[<name>]` one that may be (`argumentCount`).
   */
  usage: string;
  /** Longer help: one option or argument a line. */
  details?: string[];
  /** The options, for node:util parseArgs. @default none */
  options?: NonNullable<ParseArgsConfig['options']>;
  /** Uses the database: sent to a running server's admin socket, and the only kind the socket runs. */
  database?: boolean;
  /** The argv to send to a running server instead of this one (e.g. a file made absolute, as the server's cwd differs). */
  remoteArgv?: (argv: string[], io: AdminIo) => string[];
  run: (args: { positionals: string[]; values: Record<string, string | boolean | undefined> }, io: AdminIo) => Promise<number>;
}

/** A problem the admin CLI reports as a one-line message with exit code 1 (no stack trace). */
export class AdminError extends Error {
  override name = 'AdminError';
}

/** How many positional arguments a usage line names before its first option: `<name>` must be given, `[<name>]` may be. */
export function argumentCount(usage: string): { min: number; max: number } {
  const words = usage.split(/\s+/).filter(Boolean);
  const firstOption = words.findIndex((word) => /^[[(]?-/.test(word));
  const args = firstOption === -1 ? words : words.slice(0, firstOption);
  return { min: args.filter((word) => word.startsWith('<')).length, max: args.length };
}
