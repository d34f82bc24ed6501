import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { execSync } from 'node:child_process';
import type { Plugin, PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
// Local modules are named with an extension, as Vite's config loader asks; '.js' resolves to the TypeScript file.
import { buildFirstPaintLoader } from './scripts/build-first-paint-loader.js';
import { zodMiniForClient } from './scripts/zod-mini-for-client.js';
import { readerViewsChunk } from './scripts/reader-chunk.js';
import { routeChunks } from './scripts/route-chunks.js';
import { FIRST_PAINT_LOADER_FILE } from './src/render/firstPaintLoader.js';

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

/**
 * The first-paint loader (src/render/firstPaintLoader.ts), minified into dist/.vite beside Vite's manifest: the
 * server inlines its text in a page with a first screen and allows it by its hash (server/http/page.ts).
 */
function firstPaintLoader(): Plugin {
  return {
    name: 'lectern:first-paint-loader',
    apply: 'build',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: FIRST_PAINT_LOADER_FILE, source: await buildFirstPaintLoader() });
    },
  };
}

/**
 * The installable app (issue 14 item 6): the web manifest and the service worker (src/sw.ts, built with its
 * precache list of the app shell: scripts, styles and index.html; no fonts, no source maps). The page registers it
 * (src/ui/platform/serviceWorker.ts), so the plugin injects no script. Not in the test runner.
 */
function pwa(): PluginOption {
  if (process.env.VITEST) return null;
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src',
    filename: 'sw.ts',
    injectRegister: null,
    manifest: {
      name: 'Lectern',
      short_name: 'Lectern',
      description: 'Graded reading for every classroom: books in several languages and reading levels, with narration.',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#f8f7f3',
      theme_color: '#103a3a',
      icons: [
        { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        { src: '/icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg}'],
      globIgnores: ['**/*.map', 'sw.js'],
      rollupFormat: 'iife',
      maximumFileSizeToCacheInBytes: 3_000_000,
    },
  });
}

/** Where `npm run dev` proxies API calls (the API server runs beside Vite). */
const apiTarget = process.env.LECTERN_API_ORIGIN ?? 'http://127.0.0.1:3001';

export default defineConfig({
  plugins: [fontsourceWoff2Only(), zodMiniForClient(), react(), tailwindcss(), firstPaintLoader(), routeChunks(), pwa()],
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
        // The reader's views likewise (scripts/reader-chunk.ts), after the entry has taken its own modules. The group
        // names exactly the modules it takes: their imports (libraries, the engine's steps) keep their own chunks.
        codeSplitting: { groups: [{ name: 'entry', tags: ['$initial'] }, { name: readerViewsChunk(), includeDependenciesRecursively: false }] },
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
