/**
 * `npm start` runs compiled JavaScript (server/serverBuild.mjs, server/bin/start.mjs): the build compiles the
 * server and its narration worker, knows when it is stale, and the compiled server starts from a fresh data
 * directory, serves the app and the API, narrates in its worker threads, and stops cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, isServerBuildStale, SERVER_ENTRIES, serverBuildDir } from '../../server/serverBuild.mjs';
import { ROOT_DIR } from '../../server/config';
import { hashInputs } from '../../server/build';
import { writeFixtureLibrary } from './harness';
import { freePort } from './processes';

describe('the compiled server (npm start)', () => {
  // Inside the repository, so that the bundle finds node_modules; apart from build/server, which a running
  // `npm start` may be using.
  const outDir = path.join(ROOT_DIR, 'build', `server-test-${process.pid}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-compiled-'));
  let child: ChildProcess | null = null;
  let output = '';

  beforeAll(async () => {
    await buildServer(outDir);
  }, 120_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('compiles the start script and the narration worker, and knows when that is fresh', () => {
    for (const out of Object.keys(SERVER_ENTRIES)) expect(fs.existsSync(path.join(outDir, out)), out).toBe(true);
    const stamp = JSON.parse(fs.readFileSync(path.join(outDir, 'stamp.json'), 'utf8'));
    expect(Object.keys(stamp.inputs)).toEqual(expect.arrayContaining(['server/bin/start.ts', 'server/server.ts', 'server/narration/worker.ts']));
    expect(Object.keys(stamp.inputs).some((f) => f.startsWith('node_modules/'))).toBe(false);
    expect(isServerBuildStale(outDir)).toBe(false);
    // The bundle imports packages, it does not carry them; it runs no TypeScript loader.
    const start = fs.readFileSync(path.join(outDir, 'start.mjs'), 'utf8');
    expect(start).toMatch(/from "hono"/);
    expect(start).not.toMatch(/from "tsx|tsImport/);
    // The narration pool finds its worker beside its own module: in the bundle, the compiled worker-entry.mjs.
    expect(start).toContain('new URL("./worker-entry.mjs", import.meta.url)');
    // A source's own directory, not the bundle's: ROOT_DIR (server/config), the migrations (server/db), files read
    // beside a module.
    expect(start).toContain(JSON.stringify(path.join(ROOT_DIR, 'server', 'config')));
    expect(start).toContain(JSON.stringify(path.join(ROOT_DIR, 'server', 'db')));

    // A changed source makes it stale.
    const changed = { ...stamp, inputs: { ...stamp.inputs, 'server/server.ts': '0'.repeat(40) } };
    fs.writeFileSync(path.join(outDir, 'stamp.json'), JSON.stringify(changed));
    expect(isServerBuildStale(outDir)).toBe(true);
    fs.writeFileSync(path.join(outDir, 'stamp.json'), JSON.stringify(stamp));
    expect(isServerBuildStale(outDir)).toBe(false);
  });

  it('keeps SERVER_BUILD_DIR inside the repository', () => {
    expect(serverBuildDir({})).toBe(path.join(ROOT_DIR, 'build', 'server'));
    expect(serverBuildDir({ SERVER_BUILD_DIR: outDir })).toBe(outDir);
    expect(() => serverBuildDir({ SERVER_BUILD_DIR: os.tmpdir() })).toThrow(/inside/);
  });

  it('starts on a fresh data directory, serves, narrates in compiled workers, and stops on SIGTERM', async () => {
    // A stand-in for the built web app, stamped as fresh so that start does not run Vite.
    const distDir = path.join(work, 'dist');
    fs.mkdirSync(distDir, { recursive: true });
    fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Lectern</title><div id="root"></div>');
    fs.writeFileSync(path.join(distDir, '.build-stamp'), hashInputs(ROOT_DIR) + '\n');
    const dataDir = path.join(work, 'data');
    const port = await freePort();
    child = spawn(process.execPath, [path.join(ROOT_DIR, 'server/bin/start.mjs')], {
      cwd: ROOT_DIR,
      env: {
        ...process.env,
        SERVER_BUILD_DIR: outDir,
        DIST_DIR: distDir,
        DATA_DIR: dataDir,
        CONTENT_DIR: writeFixtureLibrary(0),
        PORT: String(port),
        HOST: '127.0.0.1',
        NARRATION_CONCURRENCY: '0',
        NARRATION_WAIT_MS: '0',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
      if (i > 600) throw new Error(`the server did not answer:\n${output}`);
      const ok = await fetch(`${url}/api/v1/ping`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // The build was fresh: nothing compiled at start.
    expect(output).not.toMatch(/Compiled the server/);
    expect(output).toMatch(/Lectern is serving at/);
    expect(fs.readFileSync(path.join(dataDir, 'server.pid'), 'utf8').trim()).toBe(String(child.pid));

    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const list = await (await fetch(`${url}/api/v1/publications`)).json();
    expect(list.items.map((i: { slug: string }) => i.slug)).toContain('alpha-owls');
    const owls = await (await fetch(`${url}/api/v1/publications/alpha-owls`)).json();
    const en = owls.editions.find((e: any) => e.language.code === 'en' && e.level === 'ORIGINAL').id;
    const passage = await (await fetch(`${url}/api/v1/passages?editionId=${en}&position=1`)).json();

    // Narration runs in worker threads, from the compiled worker-entry.mjs.
    let audio: any = null;
    for (let i = 0; i < 300; i++) {
      const res = await fetch(`${url}/api/v1/passages/${passage.id}/audio?editionId=${en}`);
      audio = await res.json();
      if (res.status === 200) break;
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(audio.status).toBe('ready');
    const mp3 = await fetch(url + audio.audio.url, { headers: { Range: 'bytes=0-1023' } });
    expect(mp3.status).toBe(206);
    expect((await mp3.arrayBuffer()).byteLength).toBe(1024);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    // The request log reached stdout before exit.
    expect(output).toMatch(/"path":"\/api\/v1\/passages"/);
  }, 180_000);
});
