/** Builds the web app when dist/ is missing or older than its sources (a hash of the inputs is stamped into dist/). */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const INPUTS = ['src', 'index.html', 'vite.config.ts', 'scripts/build-first-paint-loader.ts', 'package.json', 'public'];
const STAMP = '.build-stamp';

/** The hash of the web app's inputs, as stamped into dist/.build-stamp by the last build. */
export function hashInputs(root: string): string {
  const hash = crypto.createHash('sha256');
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    if (!fs.existsSync(full)) return;
    const stat = fs.statSync(full);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) visit(path.join(rel, name));
    } else {
      hash.update(rel).update('\0').update(fs.readFileSync(full));
    }
  };
  INPUTS.forEach(visit);
  return hash.digest('hex');
}

export function isBuildStale(root: string, distDir: string): boolean {
  const stampFile = path.join(distDir, STAMP);
  if (!fs.existsSync(path.join(distDir, 'index.html')) || !fs.existsSync(stampFile)) return true;
  return fs.readFileSync(stampFile, 'utf8').trim() !== hashInputs(root);
}

export function buildIfStale(root: string, distDir: string, log: (msg: string) => void): void {
  if (!isBuildStale(root, distDir)) return;
  log('Building the web app (dist/ is missing or stale)…');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', distDir, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app failed to build (see the output above).');
  fs.writeFileSync(path.join(distDir, STAMP), hashInputs(root) + '\n');
}
