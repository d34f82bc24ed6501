// The server's build step, for `npm start` (server/bin/start.mjs). Plain JavaScript, because it runs before
// anything is compiled.
//
// esbuild bundles server/bin/start.ts, with everything it imports from server/ and src/, into one ES module,
// build/server/start.mjs; npm packages stay external (imported from node_modules at run time, as before). The
// narration worker (server/narration/worker.ts) becomes build/server/worker-entry.mjs: the pool finds its worker
// as ./worker-entry.mjs next to its own module (import.meta.url), which in the bundle is that file, so the worker
// threads run compiled JavaScript too.
//
// `import.meta.dirname` and `import.meta.filename` keep their meaning: they are replaced, file by file, with the
// directory and path of the source file, so that ROOT_DIR (server/config/index.ts), the migrations and the files read
// beside their module (server/auth/common-passwords.txt) are found as under tsx.
//
// A stamp (build/server/stamp.json) keeps a hash of every source file of the last build; the build runs again
// when one of them changed, or esbuild or Node did. The outputs are written to temporary files and renamed, so
// two servers starting at once never run a half-written bundle.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = 'stamp.json';

/** The sources compiled into the server build, each with the file it becomes. */
export const SERVER_ENTRIES = {
  'start.mjs': 'server/bin/start.ts',
  'worker-entry.mjs': 'server/narration/worker.ts',
};

/**
 * Where `npm start` puts the compiled server: build/server, or SERVER_BUILD_DIR, which must be inside the repository
 * (the bundle imports its packages from the node_modules above it).
 */
export function serverBuildDir(env = process.env) {
  if (!env.SERVER_BUILD_DIR) return path.join(ROOT, 'build', 'server');
  const dir = path.resolve(env.SERVER_BUILD_DIR);
  if (path.relative(ROOT, dir).startsWith('..') || path.isAbsolute(path.relative(ROOT, dir))) {
    throw new Error(`SERVER_BUILD_DIR must be inside ${ROOT}, where node_modules is (got ${dir})`);
  }
  return dir;
}

const hashFile = (file) => crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex');

function readStamp(outDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'));
  } catch {
    return null;
  }
}

function esbuildVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', 'esbuild', 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

/** Whether the build in `outDir` is missing, or older than one of its sources. */
export function isServerBuildStale(outDir = serverBuildDir()) {
  const stamp = readStamp(outDir);
  if (!stamp || stamp.node !== process.version || stamp.esbuild !== esbuildVersion()) return true;
  if (Object.keys(SERVER_ENTRIES).some((out) => !fs.existsSync(path.join(outDir, out)))) return true;
  for (const [rel, hash] of Object.entries(stamp.inputs ?? {})) {
    const file = path.join(ROOT, rel);
    if (!fs.existsSync(file) || hashFile(file) !== hash) return true;
  }
  return Object.keys(stamp.inputs ?? {}).length === 0;
}

/** esbuild plugin: `import.meta.dirname` / `import.meta.filename` of a source file are its own, not the bundle's. */
const sourcePaths = {
  name: 'source-paths',
  setup(build) {
    build.onLoad({ filter: /\.(?:ts|mts|js|mjs)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = fs.readFileSync(args.path, 'utf8');
      const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
      if (!source.includes('import.meta.dirname') && !source.includes('import.meta.filename')) return { contents: source, loader };
      const contents = source
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader };
    });
  },
};

/** Compile the server into `outDir` (see the top of this file). Returns the input files, relative to the root. */
export async function buildServer(outDir = serverBuildDir()) {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: Object.entries(SERVER_ENTRIES).map(([out, src]) => ({ in: src, out: out.replace(/\.mjs$/, '') })),
      outdir: outDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: false,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node.split('.')[0]}`,
      packages: 'external',
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'warning',
      metafile: true,
      write: false,
      plugins: [sourcePaths],
    });
    fs.mkdirSync(outDir, { recursive: true });
    const inputs = {};
    for (const rel of Object.keys(result.metafile.inputs)) {
      if (!rel.startsWith('node_modules/')) inputs[rel] = hashFile(path.join(ROOT, rel));
    }
    const tmp = `.${process.pid}.${Date.now().toString(36)}.tmp`;
    for (const file of result.outputFiles) {
      fs.writeFileSync(file.path + tmp, file.contents);
      fs.renameSync(file.path + tmp, file.path);
    }
    const stamp = path.join(outDir, STAMP);
    fs.writeFileSync(stamp + tmp, JSON.stringify({ node: process.version, esbuild: esbuildVersion(), inputs }, null, 1) + '\n');
    fs.renameSync(stamp + tmp, stamp);
    return Object.keys(inputs);
  } finally {
    await esbuild.stop?.();
  }
}

/** Build when stale; returns the URL of the compiled start module. */
export async function buildServerIfStale(outDir = serverBuildDir(), log = (message) => process.stderr.write(message + '\n')) {
  if (isServerBuildStale(outDir)) {
    const started = performance.now();
    const inputs = await buildServer(outDir);
    log(`Compiled the server (${inputs.length} files) into ${path.relative(ROOT, outDir) || outDir} in ${Math.round(performance.now() - started)} ms`);
  }
  return pathToFileURL(path.join(outDir, 'start.mjs')).href;
}
