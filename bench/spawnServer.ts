/** Starts bench/server.ts (the real server on a fresh data dir) in its own process, for the bench's parts. */
import { spawn } from 'node:child_process';
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
