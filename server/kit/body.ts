/**
 * Request bodies and refusals. A refusal reaches the client: an answer given before the body was read
 * (a 401, a 403, a 415 …) waits until the rest of the body has arrived and been discarded, up to DRAIN_MAX_BYTES and
 * DRAIN_TIMEOUT_MS, so a client that sends its whole body before it reads the answer (most do) gets the answer, not
 * a reset connection. A body over a route's cap (`readBodyUpTo`, a 413) is drained the same way before the answer.
 * A body past those limits, or one a route stopped reading part-way, is answered with `Connection: close`: Node
 * closes the connection once the answer is flushed.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';

/** The most of a refused body that is read and discarded before the answer. Not in the spec. @default 16 MiB */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** How long a refused body may take to arrive before the connection is closed instead. Not in the spec. @default 30000 */
export const DRAIN_TIMEOUT_MS = 30_000;

/** Node's request, when the app serves through @hono/node-server (not for `app.fetch` called directly). */
export function incomingOf(c: Context): IncomingMessage | undefined {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return env?.incoming;
}

/** Whether the request may carry a body. */
export function mayHaveBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/** The answer's headers say the connection closes after it. */
function closeAfter(c: Context): void {
  try {
    c.res.headers.set('Connection', 'close');
  } catch {
    // Immutable headers (e.g. Response.redirect): copy the response first.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set('Connection', 'close');
  }
}

/**
 * Read the rest of a body and discard it, up to `maxBytes` more and `timeoutMs`. True when it ended within them;
 * otherwise the stream is cancelled.
 */
async function discard(stream: ReadableStream<Uint8Array> | ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, timeoutMs: number): Promise<boolean> {
  const reader = 'getReader' in stream ? stream.getReader() : stream;
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
    timer.unref?.();
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') break;
      if (next.done) return true;
      size += next.value.length;
      if (size > maxBytes) break;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
  await reader.cancel().catch(() => undefined);
  return false;
}

/** The middleware that lets refusals reach the client (see the module comment). Mounted first, around everything. */
export function drainRefusedBodies({ maxBytes = DRAIN_MAX_BYTES, timeoutMs = DRAIN_TIMEOUT_MS } = {}): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status < 400 || !mayHaveBody(c.req.method)) return;
    // The route chose to close (a 413 over its cap): reading on would only delay that.
    if (c.res.headers.get('connection')?.toLowerCase() === 'close') return;
    const incoming = incomingOf(c);
    if (incoming?.readableEnded) return;
    const request = c.req.raw;
    if (!request.bodyUsed) {
      const body = request.body;
      if (!body || (await discard(body, maxBytes, timeoutMs))) return;
      closeAfter(c);
    } else if (incoming && !incoming.readableEnded && !incoming.complete) {
      // A route stopped reading part-way: the rest cannot be read through its locked stream.
      closeAfter(c);
    }
  };
}

/**
 * The whole body, up to `max` bytes; null when it is larger. Then the rest of it has been read and discarded, up to
 * DRAIN_MAX_BYTES in all and DRAIN_TIMEOUT_MS, so that a client still sending it gets the 413 the caller answers
 * (with `Connection: close`) instead of a reset connection; a body larger still is cut off.
 */
export async function readBodyUpTo(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get('content-length'));
  const stream = request.body;
  if (Number.isFinite(declared) && declared > max) {
    // Over the cap by its own count: nothing of it is kept, and a body too large to drain is not read at all.
    if (stream && declared <= DRAIN_MAX_BYTES) await discard(stream, DRAIN_MAX_BYTES, DRAIN_TIMEOUT_MS);
    else await stream?.cancel().catch(() => undefined);
    return null;
  }
  if (!stream) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await discard(reader, DRAIN_MAX_BYTES - size, DRAIN_TIMEOUT_MS);
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks, size);
}

/** Chunks of bytes as one array of `size` bytes (the chunks themselves when there is only one). */
export function concatBytes(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
