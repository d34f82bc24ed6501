import type { Plugin } from 'vite';

/** Placeholder: the client build's zod resolution (filled in with the shared schemas' move to zod's common subset). */
export function zodMiniForClient(): Plugin {
  return { name: 'lectern:zod-mini-for-client' };
}
