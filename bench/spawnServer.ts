/** Starts bench/server.ts (the real server on a fresh data dir) in its own process, for the bench's parts. */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

/** Resolves with the server's url (the first JSON line it prints) and a stop function. */
export async function startBenchServer(): Promise<{ url: string; stop: () => void }> {
  const root = path.resolve(import.meta.dirname, '..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench/server.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url: string = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      try {
        resolve(JSON.parse(line).url);
      } catch {
        /* log line */
      }
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * In a bench's server process: print the server's url as the first JSON line (what startBenchServer reads), and on
 * SIGTERM or SIGINT stop the server, remove its data dir and exit.
 */
export function serveUntilSignalled(server: { url: string; stop: () => Promise<void> }, dataDir: string): void {
  process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
  const stop = async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
