/**
 * `npm run admin -- <group> <command> [arguments] [--options]`: the administrator's command line. The commands and
 * their dispatcher are server/admin/commands.ts; this entry point adds the configuration from the environment and,
 * while a server holds DATA_DIR, sends database commands to its admin socket (server/admin/client.ts). Unix only
 * (no Windows named pipes).
 */
import path from 'node:path';
import { loadConfig } from '../config';
import { AdminSocketError, runOnServer, runningServerSocket } from '../admin/client';
import { runAdmin } from '../admin/commands';
import type { AdminIo } from '../cli/command';

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
