/**
 * The response validation (zod and the shared schemas, `validation.ts`) is a separate chunk, loaded on the
 * first request: the client starts this import next to its fetch and awaits it before parsing, so the catalog's
 * entry JS does not carry zod and the first response waits for no extra round trip. A failed load (a chunk
 * that could not be fetched) is forgotten, so the next request tries again.
 */
export type Validation = typeof import('./validation');

let pending: Promise<Validation> | undefined;

export function loadValidation(): Promise<Validation> {
  if (!pending) {
    const attempt = import('./validation');
    pending = attempt;
    // Also marks the promise handled: a caller awaits it only after its request, so a failed load is not reported
    // as unhandled in the meantime; the caller still sees the rejection.
    attempt.catch(() => {
      if (pending === attempt) pending = undefined;
    });
  }
  return pending;
}
