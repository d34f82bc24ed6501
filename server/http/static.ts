/**
 * Serves the built web app from memory: hashed assets with a year-long immutable cache, everything else
 * revalidated, gzip when the client accepts it, and index.html as the history fallback for app routes. Vite's
 * manifest (dist/.vite/manifest.json, not served) tells which files a lazy route needs (`preloadLinks`).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { etagOf } from '../kit/etag';
import { ROUTE_CHUNKS_FILE, type RouteChunk } from '../../src/render/routeChunks';

interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

/** A chunk of Vite's build manifest (the fields used here). */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

const MANIFEST = '.vite/manifest.json';
/** Vite's link to a style sheet of the entry, in the built index.html. */
const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="(\/assets\/[^"]+\.css)">/g;
/** A `url()` that is neither absolute nor data: would resolve differently inside the page. */
const RELATIVE_URL = /url\(\s*['"]?(?!data:|\/|https?:)/i;

export class StaticSite {
  private files = new Map<string, StaticFile>();
  private manifest: Record<string, ManifestChunk> = {};
  /** The route names a page asks for, to their manifest keys (ROUTE_CHUNKS_FILE, written by the build). */
  private routes: Partial<Record<RouteChunk, string>> = {};
  /** index.html as text, once (every primed page starts from it). */
  private indexText: string | null = null;
  /** The files index.html already loads: the entry and its imports. */
  private entryFiles = new Set<string>();

  constructor(readonly distDir: string) {
    if (!fs.existsSync(distDir)) return;
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else this.add(full);
      }
    };
    walk(distDir);
    const manifestFile = path.join(distDir, MANIFEST);
    if (fs.existsSync(manifestFile)) {
      this.manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
      this.closure(['index.html']).forEach((f) => this.entryFiles.add(f));
    }
    const routesFile = path.join(distDir, ROUTE_CHUNKS_FILE);
    if (fs.existsSync(routesFile)) this.routes = JSON.parse(fs.readFileSync(routesFile, 'utf8')) as Partial<Record<RouteChunk, string>>;
    this.inlineEntryStyles();
  }

  /**
   * index.html's own style sheets go into the page as `<style>`: a linked sheet holds back the first paint until it
   * arrives, behind the chunks the page preloads (docs/performance.md has the measurement). A sheet with a relative `url()` stays linked (its addresses would
   * resolve against the page's). The file itself is still served, for anything that links it.
   */
  private inlineEntryStyles() {
    const index = this.files.get('/index.html');
    if (!index) return;
    const html = index.body.toString('utf8').replace(STYLESHEET_LINK, (link, href: string) => {
      const css = this.files.get(href)?.body.toString('utf8');
      if (css === undefined || RELATIVE_URL.test(css) || /<\/style/i.test(css)) return link;
      return `<style>${css}</style>`;
    });
    this.setFile('/index.html', Buffer.from(html));
  }

  /** Every file the given manifest entries load statically: their JS imports, recursively, and their CSS. */
  private closure(keys: string[]): string[] {
    const seen = new Set<string>();
    const files: string[] = [];
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = this.manifest[key];
      if (!chunk) return;
      files.push(chunk.file);
      for (const css of chunk.css ?? []) files.push(css);
      (chunk.imports ?? []).forEach(visit);
    };
    keys.forEach(visit);
    return [...new Set(files)];
  }

  /** The manifest keys of the named routes (a name the build did not write has none). */
  private routeKeys(routes: readonly RouteChunk[]): string[] {
    return routes.flatMap((route) => this.routes[route] ?? []);
  }

  /** The addresses of the scripts the named routes load statically, beyond the entry's. */
  routeScripts(routes: readonly RouteChunk[]): string[] {
    return this.closure(this.routeKeys(routes))
      .filter((file) => !this.entryFiles.has(file) && file.endsWith('.js'))
      .map((file) => `/${file}`);
  }

  /**
   * `<link>`s that fetch what the named routes (e.g. 'responseValidation') need, beyond the entry; with
   * `scripts: false`, only their style sheets.
   */
  preloadLinks(routes: readonly RouteChunk[], { scripts = true }: { scripts?: boolean } = {}): string {
    return this.closure(this.routeKeys(routes))
      .filter((file) => !this.entryFiles.has(file) && (scripts || file.endsWith('.css')))
      // A route's CSS is preloaded, not linked: a pending stylesheet would hold back the entry script until it
      // arrived (module scripts wait for the style sheets before them); the route's chunk links it when it runs.
      .map((file) =>
        file.endsWith('.css') ? `<link rel="preload" as="style" crossorigin href="/${file}">` : `<link rel="modulepreload" crossorigin href="/${file}">`,
      )
      .join('');
  }

  private add(full: string) {
    const rel = '/' + path.relative(this.distDir, full).split(path.sep).join('/');
    if (rel.startsWith('/.vite/')) return;
    this.setFile(rel, fs.readFileSync(full));
  }

  private setFile(rel: string, body: Buffer) {
    const ext = path.extname(rel);
    const type = TYPES[ext] ?? 'application/octet-stream';
    const compressible = /text|javascript|json|svg/.test(type) && body.length > 1024;
    this.files.set(rel, {
      body,
      gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : null,
      type,
      etag: etagOf(body),
      immutable: rel.startsWith('/assets/'),
    });
  }

  get hasIndex(): boolean {
    return this.files.has('/index.html');
  }

  /** index.html as text, or null when the app is not built. */
  get indexHtml(): string | null {
    this.indexText ??= this.files.get('/index.html')?.body.toString('utf8') ?? null;
    return this.indexText;
  }

  /** An address of the app (answered with index.html), not a file. */
  isAppRoute(pathname: string): boolean {
    return !this.files.has(pathname) && !pathname.startsWith('/assets/') && !path.extname(pathname);
  }

  /** A Response for the path, the index for app routes, or null. */
  serve(pathname: string, headers: Headers): Response | null {
    let file = this.files.get(pathname);
    if (!file && !pathname.startsWith('/assets/') && !path.extname(pathname)) file = this.files.get('/index.html');
    if (!file) return null;
    const out = new Headers({
      'Content-Type': file.type,
      ETag: file.etag,
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    });
    if (headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers: out });
    if (file.gzip && /\bgzip\b/.test(headers.get('accept-encoding') ?? '')) {
      out.set('Content-Encoding', 'gzip');
      return new Response(new Uint8Array(file.gzip), { status: 200, headers: out });
    }
    return new Response(new Uint8Array(file.body), { status: 200, headers: out });
  }
}
