/**
 * The CLI's side of the admin socket (server/admin/socket.ts): find a running server's socket in DATA_DIR and send
 * it one command.
 */
import fs from 'node:fs';
import net from 'node:net';
import { serverHoldingDataDir } from '../config';
import { AdminResponseSchema, RESPONSE_TIMEOUT_MS, adminSocketPath, adminTokenPath, type AdminRequest, type AdminResponse } from './protocol';

export class AdminSocketError extends Error {}

/** The socket of a live server holding DATA_DIR: DATA_DIR's lock (server/db/lock.ts) names a live server and the socket exists. */
export function runningServerSocket(dataDir: string): { pid: number; socket: string } | null {
  const pid = serverHoldingDataDir(dataDir);
  if (!pid) return null;
  const socket = adminSocketPath(dataDir);
  try {
    if (!fs.lstatSync(socket).isSocket()) return null;
  } catch {
    return null;
  }
  return { pid, socket };
}

/** Send one request and read the answer. Throws AdminSocketError when the socket does not answer properly. */
export function sendAdminRequest(socketPath: string, request: AdminRequest, timeoutMs = RESPONSE_TIMEOUT_MS): Promise<AdminResponse> {
  return new Promise((resolve, reject) => {
    let received = '';
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new AdminSocketError(message));
    };
    const socket = net.createConnection({ path: socketPath, allowHalfOpen: true });
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('connect', () => socket.end(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.once('error', (err: NodeJS.ErrnoException) => fail(err.code ?? err.message));
    socket.once('end', () => {
      if (settled) return;
      let json: unknown;
      try {
        json = JSON.parse(received);
      } catch {
        fail(`the answer is not JSON: ${received.slice(0, 200)}`);
        return;
      }
      const parsed = AdminResponseSchema.safeParse(json);
      if (!parsed.success) {
        fail(`the answer has the wrong shape: ${received.slice(0, 200)}`);
        return;
      }
      settled = true;
      socket.destroy();
      resolve(parsed.data);
    });
  });
}

/** Run `argv` on the server behind DATA_DIR's socket, with the token from DATA_DIR/admin.token. */
export async function runOnServer(dataDir: string, socketPath: string, argv: readonly string[]): Promise<AdminResponse> {
  let token: string;
  try {
    token = fs.readFileSync(adminTokenPath(dataDir), 'utf8').trim();
  } catch (error) {
    throw new AdminSocketError(`cannot read ${adminTokenPath(dataDir)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return sendAdminRequest(socketPath, { command: [...argv], token });
}
