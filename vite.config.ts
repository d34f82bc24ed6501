import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { execSync } from 'node:child_process';

function gitCommit(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** Where `npm run dev` proxies API calls (the API server runs beside Vite). */
const apiTarget = process.env.LECTERN_API_ORIGIN ?? 'http://127.0.0.1:3001';

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
