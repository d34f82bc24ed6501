import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { execSync } from 'node:child_process';
import type { Plugin } from 'vite';

function gitCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/**
 * @fontsource's CSS names a .woff fallback after each .woff2; every browser that reads unicode-range reads woff2, so
 * the fallbacks would only double dist/ (src/ui/fonts/scripts.css; docs/decisions.md "Fonts for every script").
 */
function fontsourceWoff2Only(): Plugin {
  return {
    name: 'lectern:fontsource-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]@fontsource[\\/].*\.css$/.test(id)) return null;
      return { code: code.replace(/,\s*url\([^)]*\.woff\)\s*format\('woff'\)/g, ''), map: null };
    },
  };
}

/** Where `npm run dev` proxies API calls (the API server runs beside Vite). */
const apiTarget = process.env.LECTERN_API_ORIGIN ?? 'http://127.0.0.1:3001';

export default defineConfig({
  plugins: [fontsourceWoff2Only(), react(), tailwindcss()],
  define: {
    __BUILD_INFO__: JSON.stringify({
      version: process.env.npm_package_version ?? '0.0.0',
      commit: gitCommit(),
      builtAt: new Date().toISOString(),
    }),
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    emptyOutDir: true,
    // The server reads the manifest to preload a route's lazy chunks (server/http/page.ts).
    manifest: true,
    // Fonts stay files, never data: URLs in the CSS: a passage fetches only the unicode-range slices it draws.
    assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
    rolldownOptions: {
      output: {
        // Everything the entry loads at once goes in one chunk: one request instead of twenty, and one gzip stream
        // that compresses better than twenty small ones (docs/performance.md "Catalog JS": 161.5 -> 153.5 KB).
        codeSplitting: { groups: [{ name: 'entry', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.PORT ?? 3000),
    proxy: { '/api': apiTarget, '/media': apiTarget },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: ['tests/server/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
