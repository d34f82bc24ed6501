/**
 * Serves the built web app from memory: hashed assets with a year-long immutable cache, everything else
 * revalidated, gzip when the client accepts it, and index.html as the history fallback for app routes.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

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

export class StaticSite {
  private files = new Map<string, StaticFile>();

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
  }

  private add(full: string) {
    const rel = '/' + path.relative(this.distDir, full).split(path.sep).join('/');
    const body = fs.readFileSync(full);
    const ext = path.extname(full);
    const type = TYPES[ext] ?? 'application/octet-stream';
    const compressible = /text|javascript|json|svg/.test(type) && body.length > 1024;
    this.files.set(rel, {
      body,
      gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : null,
      type,
      etag: `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: rel.startsWith('/assets/'),
    });
  }

  get hasIndex(): boolean {
    return this.files.has('/index.html');
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
