/**
 * `npm test`: the type check, the unit suite, the server integration suite and the Chromium e2e suite, one after
 * the other, then one closing line `N passed, N failed` that adds them all up (CI reads that line).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNativeSpeech } from '../server/narration/native/build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-test-'));
const node = process.execPath;
let passed = 0;
let failed = 0;
const notes: string[] = [];

function run(name: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(node, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

// The native narration helper, where the system can build it (npm install's postinstall normally has).
console.log(buildNativeSpeech().message);

// The type check (`npm run typecheck`), each project one test: the whole tree, then the client's code against
// zod/mini, the zod its build bundles. Vitest strips types without checking them, so a classic-only zod method in
// src/ would otherwise pass every unit test and fail only in the built app.
for (const project of ['tsconfig.json', 'tsconfig.client-zod.json']) {
  if (run(`tsc: ${project}`, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project]) === 0) passed += 1;
  else {
    failed += 1;
    notes.push(`tsc: ${project} has type errors`);
  }
}

// Units and the server suite (vitest projects).
for (const project of ['unit', 'server']) {
  const file = path.join(out, `${project}.json`);
  const code = run(`vitest: ${project}`, [
    'node_modules/vitest/vitest.mjs', 'run', '--project', project,
    '--reporter=default', '--reporter=json', `--outputFile.json=${file}`,
  ]);
  const report = readJson(file);
  if (report) {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    if (code !== 0 && !report.numFailedTests) {
      failed += 1;
      notes.push(`${project}: vitest exited with ${code}`);
    }
  } else {
    failed += 1;
    notes.push(`${project}: no report (vitest exited with ${code})`);
  }
}

// End to end, in Chromium, against the app as `npm start` serves it.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  failed += 1;
  notes.push(`e2e: Chromium is missing at ${chromium} (install it with: apt-get install -y chromium)`);
} else {
  const file = path.join(out, 'e2e.json');
  const code = run('playwright: e2e', ['node_modules/@playwright/test/cli.js', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
  const report = readJson(file);
  if (report?.stats) {
    passed += report.stats.expected ?? 0;
    failed += (report.stats.unexpected ?? 0) + (report.stats.flaky ?? 0);
    if (code !== 0 && !report.stats.unexpected) {
      failed += 1;
      notes.push(`e2e: playwright exited with ${code}${report.errors?.length ? `: ${report.errors[0].message}` : ''}`);
    }
  } else {
    failed += 1;
    notes.push(`e2e: no report (playwright exited with ${code})`);
  }
}

fs.rmSync(out, { recursive: true, force: true });
for (const n of notes) console.log(`note: ${n}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
