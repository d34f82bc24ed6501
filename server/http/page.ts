/**
 * The app's HTML for an address (docs/performance.md "Cold open"). The built index.html is the same for every
 * route; for the routes whose first moments we know, the server adds two things before the page's own scripts:
 * - `modulepreload` (and stylesheet) links for the route's lazy chunks, from Vite's manifest, so the browser fetches
 *   the reader's code in parallel with the entry instead of after it has run (the style sheets only, when the page
 *   has a first screen: there the scripts would delay the text's first paint);
 * - the primed responses (src/domain/primed.ts): the answers to the GETs the page will make first, asked of this
 *   app with the visitor's own cookie, so every gate decides them exactly as it decides the page's own requests.
 * - for a reader address whose passage the visitor may read, the first screen (src/render/firstScreenHtml.ts): the
 *   passage as static HTML, so the text shows while the code loads; the app replaces it. Such a page asks for the
 *   app's code only once the text is painted (`afterFirstPaint`, with the built first-paint loader,
 *   src/render/firstPaintLoader.ts): nothing the first paint does not need is fetched before it. Then it adds the
 *   route's `modulepreload` links itself, a few per task.
 * Only 200 answers are primed; anything else is left for the page to ask and show as it always does.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { filterParams, parseCatalogQuery } from '../../src/domain/catalog';
import { PAGE_SIZE } from '../../src/domain/constants';
import { PRIMED_ELEMENT_ID, primedKey } from '../../src/domain/primed';
import { findEdition } from '../../src/domain/reading';
import { parseReaderPath } from '../../src/domain/readerUrl';
import { paths } from '../../src/domain/routes';
import type { Passage, Publication } from '../../src/domain/schemas';
import { DEFAULT_SORT } from '../../src/domain/wireValues';
import { appCodeScript, FIRST_PAINT_LOADER_FILE } from '../../src/render/firstPaintLoader';
import { firstScreenHtml } from '../../src/render/firstScreenHtml';
import type { RouteChunk } from '../../src/render/routeChunks';
import { etagMatches, etagOf } from '../kit/etag';
import { contentSecurityPolicy } from './security';
import type { StaticSite } from './static';

/** The reader's lazy route and the response validation it needs before its first answer is shown. */
const READER_CHUNKS: readonly RouteChunk[] = ['reader', 'responseValidation'];
/** The catalog's screen, and its first answer is validated too. */
const CATALOG_CHUNKS: readonly RouteChunk[] = ['catalog', 'responseValidation'];

/** A GET of the API, answered by this app: the body text of a 200, else null. */
export type ApiGet = (path: string, params: Record<string, string>) => Promise<string | null>;

interface Primed {
  /** The primed responses, key → body text (JSON). */
  bodies: Map<string, string>;
  /** A reader address's first screen (src/render/firstScreenHtml.ts), when its passage could be read. */
  firstScreen?: string;
}

interface PagePlan {
  chunks: readonly RouteChunk[];
  prime(get: ApiGet): Promise<Primed>;
}

/** GET the path and keep its body under its primed key. */
async function primeInto(out: Map<string, string>, get: ApiGet, path: string, params: Record<string, string> = {}): Promise<string | null> {
  const body = await get(path, params);
  if (body !== null) out.set(primedKey(path, params), body);
  return body;
}

const SESSION_PATH = 'auth/get-session';

/** What a reader address asks first: the session, the publication, then each column's passage and its neighbours. */
function readerPlan(pathname: string): PagePlan | null {
  const parsed = parseReaderPath(pathname);
  if (!parsed?.primary || parsed.version === null || parsed.needsRedirect) return null;
  const { slug, version, primary, secondary, position } = parsed;
  return {
    chunks: READER_CHUNKS,
    async prime(get) {
      const out = new Map<string, string>();
      const publicationPath = `publications/${encodeURIComponent(slug)}`;
      const [, publicationJson] = await Promise.all([
        primeInto(out, get, SESSION_PATH),
        primeInto(out, get, publicationPath, { publicationVersion: version }),
      ]);
      if (publicationJson === null) return { bodies: out };
      const publication = JSON.parse(publicationJson) as Pick<Publication, 'editions' | 'title' | 'author'>;
      const columns = (secondary ? [primary, secondary] : [primary]).map(async (key) => {
        const edition = findEdition(publication.editions, key);
        if (!edition) return null;
        const [shown] = await Promise.all(
          [position, position + 1, position - 1]
            .filter((p) => p >= 1 && p <= edition.passageCount)
            .map((p) => primeInto(out, get, 'passages', { editionId: String(edition.id), position: String(p) })),
        );
        const passage = position <= edition.passageCount && shown ? (JSON.parse(shown) as Passage) : null;
        // Only text the visitor may read, shown as the app would show it at first.
        return passage && !passage.licenseRequired && !passage.groupCodeRequired ? { passage, language: edition.language } : null;
      });
      const [first, second] = await Promise.all(columns);
      const firstScreen = first
        ? firstScreenHtml({ title: publication.title, author: publication.author, primary: first, secondary: second ?? null })
        : undefined;
      return { bodies: out, firstScreen };
    },
  };
}

/** The reader entry (/{slug}/read, /{slug}/{version}/read): its code and the publication. */
function readerEntryPlan(pathname: string): PagePlan | null {
  const m = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\/(v\d+))?\/read$/.exec(pathname);
  if (!m) return null;
  const [, slug, version] = m;
  return {
    chunks: READER_CHUNKS,
    async prime(get) {
      const out = new Map<string, string>();
      await Promise.all([
        primeInto(out, get, SESSION_PATH),
        primeInto(out, get, `publications/${encodeURIComponent(slug)}`, version ? { publicationVersion: version } : {}),
      ]);
      return { bodies: out };
    },
  };
}

/** The Free Library at its default sort: the page of titles its address names. */
function catalogPlan(pathname: string, search: string): PagePlan | null {
  if (pathname !== paths.catalog) return null;
  const query = parseCatalogQuery(search);
  const params: Record<string, string> = { sort: DEFAULT_SORT, page: String(query.page), pageSize: String(PAGE_SIZE) };
  if (query.search) params.search = query.search;
  Object.assign(params, filterParams(query));
  return {
    chunks: CATALOG_CHUNKS,
    async prime(get) {
      const out = new Map<string, string>();
      await Promise.all([primeInto(out, get, SESSION_PATH), primeInto(out, get, 'publications', params)]);
      return { bodies: out };
    },
  };
}

function planFor(pathname: string, search: string): PagePlan | null {
  return catalogPlan(pathname, search) ?? readerEntryPlan(pathname) ?? readerPlan(pathname);
}

/** JSON for a `<script type="application/json">`: no '<' can end the element early. */
function primedScript(bodies: Map<string, string>): string {
  const json = `{${[...bodies].map(([key, body]) => `${JSON.stringify(key)}:${body}`).join(',')}}`;
  return `<script type="application/json" id="${PRIMED_ELEMENT_ID}">${json.replace(/</g, '\\u003c')}</script>`;
}

/** The entry's module script, and the modulepreloads of its own chunks, in the built index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
const ENTRY_PRELOADS = /<link rel="modulepreload" crossorigin href="\/assets\/[^"]+\.js">/g;

/** An inline script and the CSP source that allows it. */
interface InlineScript {
  text: string;
  /** `sha256-…` of the text, for the page's `script-src`. */
  hash: string;
}

/**
 * The first-paint loader as the build wrote it (FIRST_PAINT_LOADER_FILE in the dist folder), with the hash of that
 * very text; null for a build without one, whose pages then keep their module script.
 */
function builtLoader(distDir: string): InlineScript | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(distDir, FIRST_PAINT_LOADER_FILE), 'utf8');
  } catch {
    return null;
  }
  return { text, hash: `sha256-${crypto.createHash('sha256').update(text).digest('base64')}` };
}

/**
 * A page with a first screen asks for the app's code after its first paint: the entry's module script (and its
 * modulepreloads) leave the page, and the first-paint loader (src/render/firstPaintLoader.ts) goes at the end of
 * the body, with what it loads beside it as JSON: the entry, then the route's scripts (`routeScripts`), which it
 * adds as `modulepreload` links a few per task while the entry downloads (Vite's preload helper, which would add
 * them all in one task when the entry asks for the route, finds them there and adds none). The text is on screen
 * meanwhile; the code then loads and runs as before. The page's CSP allows the loader by its hash.
 */
function afterFirstPaint(html: string, routeScripts: readonly string[], loader: InlineScript): { html: string; scriptHash: string } | null {
  const entry = ENTRY_SCRIPT.exec(html);
  if (!entry) return null;
  const scripts = `${appCodeScript({ entry: entry[1], routeScripts })}<script>${loader.text}</script>`;
  const out = html.replace(entry[0], '').replace(ENTRY_PRELOADS, '').replace('</body>', `${scripts}</body>`);
  return { html: out, scriptHash: loader.hash };
}

/** The app's root element in the built index.html; the first screen goes right before it. */
const ROOT_ELEMENT = '<div id="root"></div>';

/** Smaller pages are sent as they are. */
const GZIP_MIN_BYTES = 1024;

export interface AppPages {
  /** The HTML of an app address, with its chunks and primed answers; null when the site has no index. */
  serve(pathname: string, search: string, headers: Headers, get: ApiGet): Promise<Response | null>;
}

export function createAppPages(site: StaticSite): AppPages {
  const loader = builtLoader(site.distDir);
  return {
    async serve(pathname, search, headers, get) {
      const index = site.indexHtml;
      if (index === null) return null;
      const plan = planFor(pathname, search);
      if (!plan) return site.serve('/index.html', headers);
      const primed = await plan.prime(get);
      // With a first screen, nothing of the route is preloaded: fetched and compiled alongside the page, its scripts
      // held the first paint back (text seen at a median 560 ms with them, 308 ms without, the app's reader taking
      // over at the same time either way; docs/performance.md), and its style sheets (highlighting, decode, reading
      // fonts) are not needed for the first screen. The entry fetches them itself, all at once, when it runs.
      const links = primed.firstScreen ? '' : site.preloadLinks(plan.chunks);
      const head = `${links}${primed.bodies.size ? primedScript(primed.bodies) : ''}`;
      // After the entry's own links, so its chunks are fetched first; the answers are in the document before it runs.
      let html = index.replace('</head>', `${head}</head>`);
      let scriptHash: string | null = null;
      if (primed.firstScreen) {
        html = html.replace(ROOT_ELEMENT, `${primed.firstScreen}${ROOT_ELEMENT}`);
        const deferred = loader && afterFirstPaint(html, site.routeScripts(plan.chunks), loader);
        if (deferred) ({ html, scriptHash } = deferred);
      }
      const body = Buffer.from(html);
      const etag = etagOf(body);
      const out = new Headers({
        'Content-Type': 'text/html; charset=utf-8',
        ETag: etag,
        // The primed answers were asked with the visitor's cookie: a page made for a session is that session's own.
        'Cache-Control': headers.get('cookie') ? 'private, no-cache' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding, Cookie',
      });
      if (scriptHash) out.set('Content-Security-Policy', contentSecurityPolicy({ scriptHashes: [scriptHash] }));
      if (etagMatches(headers.get('if-none-match') ?? undefined, etag)) return new Response(null, { status: 304, headers: out });
      if (body.length >= GZIP_MIN_BYTES && /\bgzip\b/.test(headers.get('accept-encoding') ?? '')) {
        out.set('Content-Encoding', 'gzip');
        return new Response(new Uint8Array(zlib.gzipSync(body, { level: 6 })), { status: 200, headers: out });
      }
      return new Response(new Uint8Array(body), { status: 200, headers: out });
    },
  };
}
