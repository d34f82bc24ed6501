/**
 * The admin socket: a running server on PGlite in DATA_DIR listens on DATA_DIR/admin.sock, so that
 * `npm run admin -- org|license|user …` works while the app runs (PGlite lets only one process open the data
 * directory). The server runs the CLI's own command table (./commands.ts) against its open database: the same
 * parsing, rules and output as a local run.
 *
 * Security: the socket is a Unix domain socket, created with mode 0600, and every request must carry the token in
 * DATA_DIR/admin.token (mode 0600, new at every start). Whoever can use them can already read and write DATA_DIR
 * (the database files themselves), so the socket gives no one a power they did not have. Only commands that use
 * the database are accepted (not `qr print`, which writes files and runs in the CLI's own process). Unix only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { COMMANDS, SINGLE_COMMANDS, findCommand, runAdmin } from './commands';
import {
  AdminRequestSchema,
  MAX_REQUEST_BYTES,
  REQUEST_TIMEOUT_MS,
  adminSocketPath,
  adminTokenPath,
  refusal,
  socketPathTooLong,
  MAX_SOCKET_PATH_BYTES,
  type AdminResponse,
} from './protocol';

export interface AdminSocketOptions {
  dataDir: string;
  database: Database;
  logger: Logger;
  /** For the io of the commands (only database commands run here, which do not read it). */
  contentDir?: string | null;
  /** The server's auth secret, which keys stored provider secrets (`sso add`). */
  authSecret?: string;
}

export interface AdminSocket {
  path: string;
  close(): Promise<void>;
}

/** Whether something answers on the socket at `file` (a live server) rather than a stale file. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(file);
    probe.setTimeout(1000, () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/**
 * Replace a stale socket file left by a crashed server. Returns false (and logs why) when the path is taken by
 * something that is not a socket, or by a socket that still answers (another server on the same DATA_DIR).
 */
async function clearStale(file: string, logger: Logger): Promise<boolean> {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return true;
  }
  if (!stat.isSocket()) {
    logger.error(`${file} exists and is not a socket; the admin socket is off. Remove it and restart to use the admin CLI while the server runs.`);
    return false;
  }
  if (await answers(file)) {
    logger.error(`Another process answers on ${file}; the admin socket is off. Is a second server running on this DATA_DIR?`);
    return false;
  }
  fs.rmSync(file, { force: true });
  return true;
}

/** Start the admin socket, or return null (logged) when it cannot listen; the server runs on without it. */
export async function startAdminSocket(options: AdminSocketOptions): Promise<AdminSocket | null> {
  const { dataDir, database, logger } = options;
  const file = adminSocketPath(dataDir);
  const tokenFile = adminTokenPath(dataDir);
  if (process.platform === 'win32') {
    logger.info('No admin socket on Windows: stop the server to run npm run admin against its DATA_DIR.');
    return null;
  }
  if (socketPathTooLong(file)) {
    logger.warn(
      `No admin socket: ${file} is longer than the ${MAX_SOCKET_PATH_BYTES} bytes a Unix socket path may have. ` +
        'Use a shorter DATA_DIR to run npm run admin while the server runs.',
    );
    return null;
  }
  if (!(await clearStale(file, logger))) return null;

  const token = crypto.randomBytes(32).toString('hex');
  fs.rmSync(tokenFile, { force: true });
  fs.writeFileSync(tokenFile, token, { mode: 0o600, flag: 'wx' });

  // One command at a time: they are short, and several statements in a row must not interleave with each other.
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  async function execute(raw: string): Promise<AdminResponse> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return refusal('the request is not JSON. Send one object: {"command": ["license", "list"], "token": "…"}');
    }
    const parsed = AdminRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'request'}: ${i.message}`).join('; ');
      return refusal(`bad request (${issues}). Send one object: {"command": ["license", "list"], "token": "…"}`);
    }
    const { command: argv, token: given } = parsed.data;
    if (given === undefined) return refusal(`the request has no token; send the contents of ${tokenFile}.`);
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) return refusal(`wrong token; send the contents of ${tokenFile}.`);
    const command = findCommand(argv)?.command;
    if (!command?.database) {
      return refusal(`'${argv.slice(0, 2).join(' ')}' is not a database command; the socket runs: ${databaseCommands().join(', ')}. Run other commands with the CLI directly.`);
    }
    const output: string[] = [];
    const errors: string[] = [];
    try {
      const exitCode = await serialize(() =>
        runAdmin(argv, {
          out: (line) => output.push(line),
          err: (line) => errors.push(line),
          contentDir: options.contentDir ?? dataDir,
          cwd: process.cwd(),
          database,
          authSecret: options.authSecret,
        }),
      );
      logger.info({ command: argv.slice(0, 2).join(' '), exitCode }, 'admin socket command');
      return { ok: exitCode === 0, exitCode, output, errors };
    } catch (err) {
      logger.error({ err, command: argv.slice(0, 2).join(' ') }, 'admin socket command failed');
      return { ok: false, exitCode: 1, output, errors: [...errors, `error: the command failed in the server: ${(err as Error).message} (the server log has details)`] };
    }
  }

  /** Connections not running a command (still sending, or idle): stop() drops them rather than wait. */
  const idle = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    idle.add(socket);
    socket.once('close', () => idle.delete(socket));
    let received = '';
    let answered = false;
    let handled = false;
    const answer = (response: AdminResponse) => {
      if (answered) return;
      answered = true;
      socket.setTimeout(0);
      // Everything the client sent has been read, so closing after the answer is flushed loses nothing; it frees
      // a client that sent its newline but kept its side open.
      socket.end(`${JSON.stringify(response)}\n`, () => socket.destroy());
    };
    const handle = (raw: string) => {
      if (answered || handled) return;
      handled = true;
      idle.delete(socket);
      socket.setTimeout(0);
      execute(raw).then(answer, (err) => {
        logger.error({ err }, 'admin socket request failed');
        answer({ ok: false, exitCode: 1, output: [], errors: ['error: the server could not run the command (the server log has details)'] });
      });
    };
    socket.setEncoding('utf8');
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => {
      answer(refusal(`no complete request within ${REQUEST_TIMEOUT_MS / 1000} s.`));
      socket.destroySoon();
    });
    socket.on('data', (chunk: string) => {
      if (answered || handled) return;
      received += chunk;
      if (Buffer.byteLength(received) > MAX_REQUEST_BYTES) {
        answer(refusal(`the request is larger than ${MAX_REQUEST_BYTES} bytes.`));
        return;
      }
      const newline = received.indexOf('\n');
      if (newline >= 0) handle(received.slice(0, newline));
    });
    socket.on('end', () => {
      if (answered || handled) return;
      if (received.trim()) handle(received);
      else answer(refusal('empty request. Send one object: {"command": ["license", "list"], "token": "…"}'));
    });
    socket.on('error', (err) => logger.debug({ err }, 'admin socket connection error'));
  });

  // The socket file gets mode 0600 from the moment it exists: bind() runs synchronously inside listen(), under a
  // umask that leaves the owner alone; chmod afterwards makes sure whatever the platform did.
  const listening = new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  let umask: number | null = null;
  try {
    umask = process.umask(0o177);
  } catch {
    // Worker threads cannot change the umask; the chmod below still applies.
  }
  try {
    server.listen(file);
  } finally {
    if (umask !== null) process.umask(umask);
  }
  try {
    await listening;
    fs.chmodSync(file, 0o600);
  } catch (err) {
    logger.error({ err }, `Could not listen on the admin socket ${file}; admin commands need the server stopped meanwhile.`);
    server.close();
    fs.rmSync(tokenFile, { force: true });
    return null;
  }
  const { ino } = fs.lstatSync(file);
  logger.info(`Admin socket: ${file} (npm run admin works while the server runs)`);

  let closed = false;
  return {
    path: file,
    async close() {
      if (closed) return;
      closed = true;
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of idle) socket.destroy();
      await closing; // after the commands in flight have answered
      // Node unlinks the socket on close; remove what is left, but never a socket some other server has made since.
      for (const f of [file, tokenFile]) {
        try {
          if (f === tokenFile ? fs.readFileSync(f, 'utf8') === token : fs.lstatSync(f).ino === ino) fs.rmSync(f, { force: true });
        } catch {
          // already gone
        }
      }
    },
  };
}

function databaseCommands(): string[] {
  return [
    ...Object.entries(COMMANDS).flatMap(([group, commands]) =>
      Object.entries(commands)
        .filter(([, c]) => c.database)
        .map(([name]) => `${group} ${name}`),
    ),
    ...Object.entries(SINGLE_COMMANDS)
      .filter(([, c]) => c.database)
      .map(([name]) => name),
  ];
}
