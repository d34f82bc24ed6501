/**
 * The admin socket (server/admin): a real server on PGlite in a data directory, and the admin CLI run against the
 * same DATA_DIR while it serves. The CLI's commands go through DATA_DIR/admin.sock and run on the server's open
 * database, so a license granted from the command line shows in the API at once.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, restoreEnv, startFixtureServer, writeFixtureLibrary } from './harness';
import type { RunningServer } from '../../server/server';
import { runAdminCli } from '../../server/bin/admin';
import { sendAdminRequest } from '../../server/admin/client';
import { ADMIN_SOCKET_FILE, ADMIN_TOKEN_FILE } from '../../server/admin/protocol';
import { ROOT_DIR } from '../../server/config';
import { startAdminSocket } from '../../server/admin/socket';
import pino from 'pino';

let server: RunningServer;
let dataDir: string;
let contentDir: string;
let socketFile: string;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };


beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-adminsock-'));
  contentDir = writeFixtureLibrary(0);
  socketFile = path.join(dataDir, ADMIN_SOCKET_FILE);
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  server = await startFixtureServer({ dataDir, contentDir });
});

afterAll(async () => {
  await server?.stop();
  restoreEnv(saved);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(contentDir, { recursive: true, force: true });
});

/** The CLI's entry function, as `npm run admin -- …argv` runs it with DATA_DIR. */
async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdminCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: dataDir });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function api(method: string, pathname: string, options: { body?: unknown; cookie?: string } = {}) {
  const headers: Record<string, string> = { Origin: server.url };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.cookie) headers.Cookie = options.cookie;
  return getJson(server, `/api/v1${pathname}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

/** One raw request on the socket: what a client that does not speak the protocol would send. */
function raw(payload: string, file = socketFile): Promise<any> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.createConnection({ path: file, allowHalfOpen: true });
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.end(payload));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('error', reject);
    socket.once('end', () => resolve(JSON.parse(received)));
  });
}

describe('admin socket', () => {
  it('listens on DATA_DIR/admin.sock with mode 0600, next to a 0600 token', () => {
    expect(server.adminSocket).toBe(socketFile);
    const stat = fs.lstatSync(socketFile);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, ADMIN_TOKEN_FILE)).mode & 0o777).toBe(0o600);
  });

  it('licenses a signed-up teacher through the CLI while the server runs, and the API shows it at once', async () => {
    const email = `teacher.${Date.now()}@example.org`;
    const signUp = await api('POST', '/auth/sign-up/email', { body: { email, password: 'violet-harbor-lantern', name: 'Tess Teacher' } });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await api('GET', '/features/me', { cookie })).body).toEqual({ features: [] });

    const created = await admin('org', 'create', 'Socket Primary');
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/^Created organization 'Socket Primary' \(slug socket-primary, id /);
    const orgAdmin = await admin('user', 'org-admin', email, 'socket-primary');
    expect(orgAdmin.code, orgAdmin.err).toBe(0);
    expect(orgAdmin.out).toBe(`${email} is an admin of socket-primary now.`);
    const granted = await admin('license', 'grant', 'socket-primary', 'AUDIO,LEVELS,GROUP_CODES', '--expires', '2999-12-31');
    expect(granted.code, granted.err).toBe(0);
    expect(granted.out).toBe('Licensed socket-primary: AUDIO, GROUP_CODES, LEVELS, valid through 2999-12-31. Its members have these features now.');
    const teacher = await admin('user', 'teacher', email);
    expect(teacher.code, teacher.err).toBe(0);
    expect(teacher.out).toBe(`${email} is a teacher now.`);

    expect((await api('GET', '/features/me', { cookie })).body).toEqual({ features: ['AUDIO', 'GROUP_CODES', 'LEVELS'] });
    const me = await api('GET', '/users/me', { cookie });
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain('TEACHER');

    const list = await admin('license', 'list');
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/socket-primary\s+Socket Primary\s+standard\s+AUDIO,GROUP_CODES,LEVELS\s+2999-12-31\s+valid\s+1/);

    // A revocation is seen at once too.
    expect((await admin('license', 'revoke', 'socket-primary')).out).toBe('Revoked the license of socket-primary.');
    expect((await api('GET', '/features/me', { cookie })).body).toEqual({ features: [] });
  });

  it('gives the same errors and exit codes as a local run', async () => {
    const noOrg = await admin('license', 'grant', 'nowhere', 'AUDIO');
    expect(noOrg.code).toBe(1);
    expect(noOrg.out).toBe('');
    expect(noOrg.err).toBe("error: No organization 'nowhere'. Create it with: org create <name>");
    const badFeature = await admin('license', 'grant', 'socket-primary', 'PODCASTS');
    expect(badFeature.code).toBe(1);
    expect(badFeature.err).toContain('Unknown feature(s): PODCASTS.');
    const duplicate = await admin('org', 'create', 'Socket Primary');
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toMatch(/^error: An organization with the slug 'socket-primary' exists already/);
    const usage = await admin('license', 'grant', 'socket-primary');
    expect(usage.code).toBe(2);
    expect(usage.err).toContain('license grant takes 2 argument(s), got 1.');
  });

  it('answers the real command line, spawned with DATA_DIR', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT_DIR, 'server/bin/admin.ts'), 'license', 'grant', 'socket-primary', 'decode'], {
      cwd: ROOT_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(0);
    expect(stdout).toBe('Licensed socket-primary: DECODE, no expiry. Its members have these features now.\n');
  });

  it('refuses malformed requests with a clear error', async () => {
    const token = fs.readFileSync(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8');
    const notJson = await raw('license list\n');
    expect(notJson).toMatchObject({ ok: false, exitCode: 2, output: [] });
    expect(notJson.errors[0]).toMatch(/^admin socket: the request is not JSON/);

    const wrongShape = await raw(`${JSON.stringify({ command: 'license list', token })}\n`);
    expect(wrongShape.ok).toBe(false);
    expect(wrongShape.errors[0]).toMatch(/^admin socket: bad request \(command: .*expected array/);

    const extra = await raw(`${JSON.stringify({ command: ['license', 'list'], token, sudo: true })}\n`);
    expect(extra.errors[0]).toMatch(/^admin socket: bad request/);

    const empty = await raw('');
    expect(empty.errors[0]).toMatch(/^admin socket: empty request/);

    const noToken = await sendAdminRequest(socketFile, { command: ['license', 'list'] });
    expect(noToken).toMatchObject({ ok: false, exitCode: 2 });
    expect(noToken.errors[0]).toMatch(/^admin socket: the request has no token/);
    const wrongToken = await sendAdminRequest(socketFile, { command: ['license', 'list'], token: 'x'.repeat(64) });
    expect(wrongToken.errors[0]).toMatch(/^admin socket: wrong token/);

    const notDatabase = await sendAdminRequest(socketFile, { command: ['qr', 'print', 'alpha-owls'], token });
    expect(notDatabase.ok).toBe(false);
    expect(notDatabase.errors[0]).toMatch(/^admin socket: 'qr print' is not a database command/);

    const fine = await sendAdminRequest(socketFile, { command: ['license', 'list'], token });
    expect(fine).toMatchObject({ ok: true, exitCode: 0, errors: [] });

    // A request ended by its newline, the client's side left open: answered, and the server ends the connection.
    const keptOpen = await new Promise<any>((resolve, reject) => {
      let received = '';
      const socket = net.createConnection({ path: socketFile, allowHalfOpen: true });
      socket.setEncoding('utf8');
      socket.once('connect', () => socket.write(`${JSON.stringify({ command: ['license', 'list'], token })}\n`));
      socket.on('data', (chunk: string) => (received += chunk));
      socket.once('error', reject);
      socket.once('end', () => {
        socket.destroy();
        resolve(JSON.parse(received));
      });
    });
    expect(keptOpen).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('does not listen when the DATA_DIR path is too long for a Unix socket (Node would bind a truncated path)', async () => {
    const longDir = path.join(os.tmpdir(), 'x'.repeat(110));
    const logged: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void logged.push(line) });
    expect(await startAdminSocket({ dataDir: longDir, database: server.database, logger })).toBeNull();
    expect(logged.join('')).toContain('is longer than the 107 bytes a Unix socket path may have');
    expect(fs.existsSync(longDir)).toBe(false);
  });

  it('removes the socket and token on stop, and a restart replaces a stale socket left by a crash', async () => {
    // A client that connected and sent nothing does not hold up the stop.
    const idle = net.createConnection({ path: socketFile, allowHalfOpen: true });
    idle.on('error', () => undefined);
    await new Promise((resolve) => idle.once('connect', resolve));
    const started = Date.now();
    await server.stop();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fs.existsSync(socketFile)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, ADMIN_TOKEN_FILE))).toBe(false);

    // A crashed server: a process that listened on the path and died without cleaning up.
    const crashed = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketFile)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((resolve) => crashed.once('exit', resolve));
    expect(fs.lstatSync(socketFile).isSocket()).toBe(true);

    server = await startFixtureServer({ dataDir, contentDir });
    expect(server.adminSocket).toBe(socketFile);
    const list = await admin('license', 'list');
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/socket-primary\s+Socket Primary\s+standard\s+DECODE\s+never\s+valid\s+1/);
  });
});
