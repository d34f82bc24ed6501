/**
 * The lazy parts of the app a server-made page names (server/http/page.ts): the build writes which module each name
 * is (scripts/route-chunks.ts) beside Vite's manifest, so the server names a route, never a view's file.
 */
export type RouteChunk = 'reader' | 'catalog' | 'responseValidation';

/** Where the build writes the names, inside the dist folder (server/http/static.ts reads it; not served). */
export const ROUTE_CHUNKS_FILE = '.vite/route-chunks.json';
