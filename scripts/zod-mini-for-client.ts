import type { Plugin } from 'vite';

/**
 * The client's build (and Vite's dev server) takes `zod` from zod/mini. Classic zod's schemas carry their JSON Schema
 * conversion and their chaining methods, so none of it tree-shakes: the same schemas cost about a third as much on
 * zod/mini. The shared schemas (src/domain/schemas.ts and its neighbours) are written in the API both builds share
 * with the same meaning, and `npm run typecheck` holds src/ to it (tsconfig.client-zod.json).
 *
 * Not under Vitest, whose tests run the shared schemas on classic zod as the server does (the server runs from its
 * sources with tsx and never passes through Vite; its OpenAPI document needs classic zod's metadata).
 *
 * No locale is loaded for zod/mini: no zod message reaches a user of the client. A response that does not match its
 * schema becomes an ApiError with the default message (src/api/apiError.ts), a stored setting or download record
 * that does not parse falls back to its default, and the messages of the forms' errors are the server's, which
 * validates on classic zod.
 */
export function zodMiniForClient(): Plugin {
  return {
    name: 'lectern:zod-mini-for-client',
    apply: () => !process.env.VITEST,
    config: () => ({
      // Only the bare specifier: `zod/mini` itself and zod's own files resolve as they are.
      resolve: { alias: [{ find: /^zod$/, replacement: 'zod/mini' }] },
    }),
  };
}
