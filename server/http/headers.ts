/** Headers for answers that are about the caller (a session, a class code) and must never be cached. */
export const NO_STORE = { 'Cache-Control': 'no-store' };
