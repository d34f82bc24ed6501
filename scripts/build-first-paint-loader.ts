/**
 * Builds the first-paint loader (src/render/firstPaintLoader.ts) into the minified script that a page with a first
 * screen inlines (server/http/page.ts). vite.config.ts runs it in `npm run build` and writes the text into the dist
 * folder (FIRST_PAINT_LOADER_FILE); the server's tests run it to serve the same text from their miniature builds.
 */
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The browsers the loader is compiled for: those the app's own build targets (Vite's default). */
const TARGET = ['chrome111', 'edge111', 'firefox114', 'safari16.4'];

/**
 * Text that would end the inline script early, or put the HTML parser in its escaped script states, if it came up
 * in the minified output (no string or regular expression of the loader holds it; a check, not a hope).
 */
const UNSAFE_IN_SCRIPT = /<\/script|<!--|<script/i;

/** The loader as one minified classic script that runs at once: `startFirstPaintLoader(globalThis)`. */
export async function buildFirstPaintLoader(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    stdin: {
      contents: "import { startFirstPaintLoader } from './src/render/firstPaintLoader';\nstartFirstPaintLoader(globalThis);\n",
      resolveDir: ROOT,
      sourcefile: 'first-paint-loader-entry.ts',
      loader: 'ts',
    },
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text.trim();
  if (UNSAFE_IN_SCRIPT.test(text)) throw new Error('The first-paint loader minified to text that cannot go inside <script>');
  return text;
}
