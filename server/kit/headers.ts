/** Headers for answers that are about the caller (a session, a class code) and must never be cached. */
export const NO_STORE = { 'Cache-Control': 'no-store' };

/** X-Client-Id as every /api/v1 request may carry it (server/http/app.ts checks it; the OpenAPI document lists it). */
export const CLIENT_ID_RE = /^[A-Za-z0-9-]{1,64}$/;
