/**
 * The operator's CLI for e2e tests: `await admin('license', 'grant', 'hillside-primary', 'ALL')` runs
 * `node --import tsx server/bin/admin.ts …args` against the e2e server's data directory (playwright.config.ts:
 * E2E_DATA_DIR, default .data-e2e). While that server runs, the CLI sends the command to its admin socket
 * (DATA_DIR/admin.sock), so licensing works in the middle of a test. Resolves with stdout; rejects with an
 * AdminCommandError (exit code, stdout, stderr) when the command exits non-zero.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DATA_DIR = path.resolve(ROOT, process.env.E2E_DATA_DIR ?? '.data-e2e');

export class AdminCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    super(`admin ${args.join(' ')} exited with ${exitCode}: ${stderr.trim() || stdout.trim()}`);
  }
}

export function admin(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'server/bin/admin.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, DATA_DIR, INIT_CWD: ROOT }, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new AdminCommandError(args, typeof error.code === 'number' ? error.code : null, stdout, stderr));
        else resolve(stdout);
      },
    );
  });
}
