/**
 * Graceful shutdown and health (docs/operations.md): a real `server/bin/start.ts` process gets a real SIGTERM while a
 * request is in flight, stops accepting connections, answers that request in full, releases DATA_DIR's lock and
 * exits 0. In process: GET /api/v1/health (liveness) and /health/ready (database and audio store), with the API's
 * error shape and 503 when a check fails.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../server/db/lock';
import type { FsAudioStore } from '../../server/narration/storage';
import { getJson, startFixtureServer } from './harness';
import { startServerProcess, tmpWork, type NodeProcess } from './processes';

const work = tmpWork('shutdown');
const started: NodeProcess[] = [];

afterAll(() => {
  for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  fs.rmSync(work, { recursive: true, force: true });
});

/** Whether a new TCP connection to the port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('SIGTERM', { timeout: 240_000 }, () => {
  it('finishes a request in flight, then releases the lock and exits 0', async () => {
    const dataDir = path.join(work, 'data');
    const server = await startServerProcess(work, dataDir);
    started.push(server);
    const port = Number(new URL(server.url).port);

    // A sign-up whose body is not sent yet: `Expect: 100-continue` makes the server confirm it has the request
    // (100 Continue) before the body, so the request is certainly in flight when the signal arrives.
    const email = `drain.${Date.now()}@example.org`;
    const body = JSON.stringify({ email, password: 'violet-harbor-lantern', name: 'Drain Tester' });
    const request = http.request(`${server.url}/api/v1/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Expect: '100-continue' },
    });
    const answered = new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      request.once('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.once('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
        res.once('error', reject);
      });
      request.once('error', reject);
    });
    await new Promise<void>((resolve) => request.once('continue', resolve));

    server.child.kill('SIGTERM');
    await server.waitFor(/SIGTERM: shutting down/);
    // It no longer accepts connections (polled until so)...
    while (await accepts(port)) await new Promise((r) => setImmediate(r));
    // ...yet the request in flight is answered in full once its body arrives.
    request.end(body);
    const response = await answered;
    expect(response.status, response.text).toBe(200);
    expect(JSON.parse(response.text).user.email).toBe(email);

    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('Stopped cleanly');
    expect(server.stdout()).not.toContain('were cut off');
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'admin.sock'))).toBe(false);

    // The sign-up was committed: a restarted server knows the account.
    const again = await startServerProcess(work, dataDir);
    started.push(again);
    const signIn = await fetch(`${again.url}/api/v1/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'violet-harbor-lantern' }),
    });
    expect(signIn.status).toBe(200);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });
});

describe('health', { timeout: 120_000 }, () => {
  it('answers liveness and readiness, and 503 with the error shape when the audio store or the database fails', async () => {
    const server = await startFixtureServer();
    try {
      const live = await getJson(server, '/api/v1/health');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      expect(live.headers.get('cache-control')).toBe('no-store');

      const ready = await getJson(server, '/api/v1/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', audio: 'ok' } });

      // The audio directory replaced by a file: the store is not usable.
      const dir = (server.narration.audioStore as FsAudioStore).dir;
      fs.rmSync(dir, { recursive: true, force: true });
      fs.writeFileSync(dir, 'not a directory');
      const noAudio = await getJson(server, '/api/v1/health/ready');
      expect(noAudio.status).toBe(503);
      expect(noAudio.body.errors).toEqual([{ code: 'audio_store_unavailable', message: expect.stringContaining('the audio store is not usable') }]);
      expect((await getJson(server, '/api/v1/health')).status).toBe(200);
      fs.rmSync(dir);
      fs.mkdirSync(dir);
      expect((await getJson(server, '/api/v1/health/ready')).status).toBe(200);

      // The database closed under it.
      await server.database.close();
      const noDatabase = await getJson(server, '/api/v1/health/ready');
      expect(noDatabase.status).toBe(503);
      expect(noDatabase.body.errors).toEqual([{ code: 'database_unavailable', message: expect.stringContaining('the database did not answer select 1') }]);
    } finally {
      await server.stop();
    }
  });
});
