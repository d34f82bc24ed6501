/**
 * The admin socket's wire format (docs/architecture.md, "Admin socket"). One request per connection: the client
 * writes one JSON object (ended by a newline or by closing its side), the server answers one JSON object and
 * closes.
 *
 *   request   {"command": ["license", "grant", "hillside", "ALL"], "token": "<DATA_DIR/admin.token>"}
 *   response  {"ok": true, "exitCode": 0, "output": ["Licensed hillside: …"], "errors": []}
 *
 * `output` and `errors` are the lines the command printed to stdout and stderr; `exitCode` is what the CLI
 * exits with. A request the server cannot accept (not JSON, the wrong shape, a wrong token, a command that does
 * not use the database) gets `ok: false`, exit code 2 and one line in `errors` that starts with 'admin socket:'.
 */
import path from 'node:path';
import { z } from 'zod';

/** The socket's file name in DATA_DIR. */
export const ADMIN_SOCKET_FILE = 'admin.sock';
/** A random token the server writes next to the socket (mode 0600) and every request must carry. */
export const ADMIN_TOKEN_FILE = 'admin.token';
/** The largest request the server reads. Not in the spec. @default 64 KiB */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** How long the server waits for a whole request. Not in the spec. @default 10 s */
export const REQUEST_TIMEOUT_MS = 10_000;
/** How long the CLI waits for the server's answer (a command queues behind others). Not in the spec. @default 120 s */
export const RESPONSE_TIMEOUT_MS = 120_000;

/**
 * The longest Unix socket path Linux takes (sun_path is 108 bytes with the final NUL). Node does not refuse a
 * longer one: it binds a truncated path. So a DATA_DIR whose admin.sock path is longer gets no admin socket.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

export const adminSocketPath = (dataDir: string) => path.join(dataDir, ADMIN_SOCKET_FILE);
export const socketPathTooLong = (file: string) => Buffer.byteLength(file) > MAX_SOCKET_PATH_BYTES;
export const adminTokenPath = (dataDir: string) => path.join(dataDir, ADMIN_TOKEN_FILE);

export const AdminRequestSchema = z
  .object({
    /** The command line after `npm run admin --`, e.g. ["org", "create", "Hillside Primary"]. */
    command: z.array(z.string().max(4096)).min(1, { error: 'name a command, e.g. ["license", "list"]' }).max(64),
    /** The contents of DATA_DIR/admin.token. Optional in the shape so that a missing one gets its own message. */
    token: z.string().max(256).optional(),
  })
  .strict();
export type AdminRequest = z.infer<typeof AdminRequestSchema>;

export const AdminResponseSchema = z
  .object({
    ok: z.boolean(),
    exitCode: z.number().int().min(0).max(255),
    output: z.array(z.string()),
    errors: z.array(z.string()),
  })
  .strict();
export type AdminResponse = z.infer<typeof AdminResponseSchema>;

/** A refused request: exit code 2, one line. */
export function refusal(message: string): AdminResponse {
  return { ok: false, exitCode: 2, output: [], errors: [`admin socket: ${message}`] };
}
