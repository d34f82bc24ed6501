/**
 * The primed responses of this page (src/domain/primed.ts): each body is handed out once, to the first request
 * with its key, and is then forgotten, so every later request goes to the server.
 */
export interface PrimedResponses {
  /** The body primed for `key`, removed as it is taken; undefined when there is none. */
  take(key: string): unknown;
}

export function createPrimedResponses(bodies: Record<string, unknown>): PrimedResponses {
  const left = new Map(Object.entries(bodies));
  return {
    take(key) {
      const body = left.get(key);
      left.delete(key);
      return body;
    },
  };
}

/** No primed responses (tests, other runtimes, a page the server did not prime). */
export const NO_PRIMED_RESPONSES: PrimedResponses = { take: () => undefined };
