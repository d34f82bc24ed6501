/**
 * The lazy modules a server-made page names by route (server/http/page.ts), written by the build beside Vite's
 * manifest as `.vite/route-chunks.json`: name → manifest key. The server reads the names and never a view's path.
 */
import type { Plugin } from 'vite';
import { ROUTE_CHUNKS_FILE, type RouteChunk } from '../src/render/routeChunks.js';

/** Each route name's module (a manifest key); scripts/reader-chunk.ts reads the reader's and the catalog's too. */
export const ROUTE_CHUNKS: Record<RouteChunk, string> = {
  /** The reader's lazy route. */
  reader: 'src/ui/screens/reader/ReaderRoute.tsx',
  /** The Free Library's screen. */
  catalog: 'src/ui/screens/catalog/CatalogScreen.tsx',
  /** The response validation a primed answer goes through before it is shown. */
  responseValidation: 'src/api/validation.ts',
};

export function routeChunks(): Plugin {
  return {
    name: 'lectern:route-chunks',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: JSON.stringify(ROUTE_CHUNKS) });
    },
  };
}
