/**
 * The app's HTML for an address (server/http/page.ts): a reader address arrives with its lazy chunks preloaded and
 * the answers of its first GETs primed, the very answers the API gives this visitor; other addresses get the plain
 * index.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { RunningServer } from '../../server/server';
import { PassageSchema, PublicationListSchema, PublicationSchema, SessionSchema } from '../../src/api/validation';
import { PRIMED_ELEMENT_ID, primedKey } from '../../src/domain/primed';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security';
import { StaticSite } from '../../server/http/static';
import { createAppPages, type ApiGet } from '../../server/http/page';
import { APP_CODE_ELEMENT_ID, APP_CODE_FALLBACK_MS, FIRST_PAINT_LOADER_FILE, PRELOAD_BATCH } from '../../src/render/firstPaintLoader';
import { ROUTE_CHUNKS_FILE } from '../../src/render/routeChunks';
import { buildFirstPaintLoader } from '../../scripts/build-first-paint-loader';
import { firstPaintPage } from '../support/firstPaintPage';
import { licensedTeacher, startFixtureServer } from './harness';

/** A built app in miniature: an index, an entry, the reader's lazy route with a chunk of its own and its CSS. */
/** More of the reader's chunks than the first-paint loader adds in one task. */
const READER_PARTS = Array.from({ length: PRELOAD_BATCH + 2 }, (_, i) => `part-${i + 1}.js`);

/** The first-paint loader as `npm run build` writes it into the dist folder. */
let builtLoader: string;

function writeDist(loader?: string): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-page-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.mkdirSync(path.join(dist, '.vite'));
  if (loader !== undefined) fs.writeFileSync(path.join(dist, FIRST_PAINT_LOADER_FILE), loader);
  fs.writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><title>Lectern</title><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/shared-1.js"><link rel="stylesheet" crossorigin href="/assets/index-1.css"></head><body><div id="root"></div></body></html>',
  );
  for (const f of ['index-1.js', 'shared-1.js', 'ReaderRoute-1.js', 'engine-1.js', 'validation-1.js', 'CatalogScreen-1.js', ...READER_PARTS]) fs.writeFileSync(path.join(dist, 'assets', f), `// ${f}\n`);
  fs.writeFileSync(path.join(dist, 'assets', 'ReaderRoute-1.css'), '.reader{}');
  fs.writeFileSync(path.join(dist, 'assets', 'index-1.css'), '.app{color:#103a3a}');
  fs.writeFileSync(
    path.join(dist, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'] },
      '_shared-1.js': { file: 'assets/shared-1.js' },
      '_engine-1.js': { file: 'assets/engine-1.js', imports: ['_shared-1.js'] },
      'src/ui/screens/reader/ReaderRoute.tsx': { file: 'assets/ReaderRoute-1.js', isDynamicEntry: true, imports: ['_engine-1.js', 'index.html', ...READER_PARTS.map((f) => `_${f}`)], css: ['assets/ReaderRoute-1.css'] },
      ...Object.fromEntries(READER_PARTS.map((f) => [`_${f}`, { file: `assets/${f}` }])),
      'src/api/validation.ts': { file: 'assets/validation-1.js', isDynamicEntry: true, imports: ['_shared-1.js'] },
      'src/ui/screens/catalog/CatalogScreen.tsx': { file: 'assets/CatalogScreen-1.js', isDynamicEntry: true, imports: ['_shared-1.js', 'index.html'] },
    }),
  );
  fs.writeFileSync(
    path.join(dist, ROUTE_CHUNKS_FILE),
    JSON.stringify({ reader: 'src/ui/screens/reader/ReaderRoute.tsx', catalog: 'src/ui/screens/catalog/CatalogScreen.tsx', responseValidation: 'src/api/validation.ts' }),
  );
  return dist;
}

let server: RunningServer;
let dist: string;
beforeAll(async () => {
  builtLoader = await buildFirstPaintLoader();
  dist = writeDist(builtLoader);
  server = await startFixtureServer({ distDir: dist });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dist, { recursive: true, force: true });
});

async function page(pathname: string, init?: RequestInit) {
  const response = await fetch(server.url + pathname, init);
  const html = await response.text();
  const script = new RegExp(`<script type="application/json" id="${PRIMED_ELEMENT_ID}">([\\s\\S]*?)</script>`).exec(html);
  const primed = script ? (JSON.parse(script[1]) as Record<string, unknown>) : null;
  return { response, html, primed, raw: script?.[1] ?? null };
}

/** The inline script at the end of a page's body, and the JSON before it that tells it what to load. */
function loaderOf(html: string) {
  const script = /<script>((?:(?!<\/script>)[\s\S])*)<\/script><\/body>/.exec(html);
  const config = new RegExp(`<script type="application/json" id="${APP_CODE_ELEMENT_ID}">([^<]*)</script><script>`).exec(html);
  return { text: script?.[1] ?? null, config: config?.[1] ?? null };
}

async function api(pathname: string, init?: RequestInit) {
  const response = await fetch(`${server.url}/api/v1/${pathname}`, init);
  return (await response.json()) as unknown;
}

describe("the entry's style sheet", () => {
  it('comes inside every page, not as a link that would hold back the first paint', async () => {
    for (const address of ['/alpha-owls/v1/en:original/2', '/catalog', '/classroom']) {
      const { response, html } = await page(address);
      expect(response.status).toBe(200);
      expect(html).toContain('<style>.app{color:#103a3a}</style>');
      expect(html).not.toContain('index-1.css');
    }
    // The file itself is still there for anything that links it.
    expect(await (await fetch(`${server.url}/assets/index-1.css`)).text()).toBe('.app{color:#103a3a}');
  });

  it('stays a link when it names a file by a relative address, which would resolve against the page', () => {
    const dir = writeDist();
    try {
      fs.writeFileSync(path.join(dir, 'assets', 'index-1.css'), '@font-face{src:url(./font-1.woff2)}');
      const html = new StaticSite(dir).indexHtml!;
      expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
      expect(html).not.toContain('<style>');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the HTML of a reader address', () => {
  it("preloads the reader's chunks and CSS, and none the entry already loads, when there is no first screen", async () => {
    // A passage this visitor may not read: the page has no first screen, the app draws the first thing shown.
    const { response, html } = await page('/alpha-owls/v1/en:gold/1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).not.toContain('lectern-first-screen');
    for (const file of ['ReaderRoute-1.js', 'engine-1.js', 'validation-1.js']) {
      expect(html).toContain(`<link rel="modulepreload" crossorigin href="/assets/${file}">`);
    }
    // Preloaded, not linked: a pending stylesheet would hold back the entry script.
    expect(html).toContain('<link rel="preload" as="style" crossorigin href="/assets/ReaderRoute-1.css">');
    expect(html).not.toContain('rel="stylesheet"');
    // The entry's own import is named once, by index.html itself.
    expect(html.match(/shared-1\.js/g)).toHaveLength(1);
  });

  it("with a first screen, preloads nothing of the route and asks for the app's code only after the first paint", async () => {
    const { html, response } = await page('/alpha-owls/v1/en:original/2');
    expect(html).toContain('lectern-first-screen');
    // No module script, modulepreload or style sheet link the browser would fetch while the first paint is pending…
    expect(html).not.toMatch(/<script type="module"/);
    expect(html).not.toMatch(/<link[^>]*(ReaderRoute|engine|validation)-1/);
    expect(html).not.toContain('<link rel="modulepreload"');
    // …but the built loader at the end of the body that adds the entry after the first paint (or a timeout, with no
    // paint), told which entry by the JSON before it.
    const loader = loaderOf(html);
    expect(loader.text).toBe(builtLoader);
    expect(loader.text).toContain('first-contentful-paint');
    expect(JSON.parse(loader.config!)).toMatchObject({ entry: '/assets/index-1.js' });
    // The page's CSP allows that one inline script by its hash, and nothing else inline.
    const hash = crypto.createHash('sha256').update(loader.text!).digest('base64');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp.replace(` 'sha256-${hash}'`, '')).toBe(CONTENT_SECURITY_POLICY);
  });

  it("with a first screen, the loader adds the entry once the first paint is reported, then the route's scripts a few per task", async () => {
    const { html } = await page('/alpha-owls/v1/en:original/2');
    const loader = loaderOf(html);
    // The built loader run with a stand-in page as its global object: what it appends, task by task.
    const stand = firstPaintPage({ appCodeJson: loader.config });
    vm.runInNewContext(loader.text!, stand.sandbox);
    stand.runDue();
    // Nothing is fetched before the first paint is reported (a fallback timeout stays queued).
    expect(stand.appended).toEqual([]);
    expect(stand.tasks.map((t) => t.ms)).toEqual([APP_CODE_FALLBACK_MS]);
    stand.paint();
    const perTask = stand.runDue();
    const appended = stand.appended;
    expect(appended[0]).toMatchObject({ tag: 'script', type: 'module', src: '/assets/index-1.js' });
    const preloads = appended.slice(1);
    expect(preloads.every((l) => l.tag === 'link' && l.rel === 'modulepreload')).toBe(true);
    // The route's scripts beyond the entry's own (shared-1.js comes with the entry), never its style sheets.
    expect(preloads.map((l) => l.href).sort()).toEqual(
      ['ReaderRoute-1.js', 'engine-1.js', 'validation-1.js', ...READER_PARTS].map((f) => `/assets/${f}`).sort(),
    );
    // A few per task: never all of them in one.
    expect(Math.max(...perTask)).toBe(PRELOAD_BATCH);
    expect(perTask.filter((n) => n > 0).length).toBeGreaterThan(1);
  });

  it('from a build without the loader, a page with a first screen keeps its module script and allows no inline script', async () => {
    const older = writeDist();
    try {
      // The same pages, made from this server's own API answers, over a dist folder with no built loader.
      const get: ApiGet = async (apiPath, params) => {
        const response = await fetch(`${server.url}/api/v1/${apiPath}?${new URLSearchParams(params)}`);
        return response.status === 200 ? response.text() : null;
      };
      const response = await createAppPages(new StaticSite(older)).serve('/alpha-owls/v1/en:original/2', '', new Headers(), get);
      const html = await response!.text();
      expect(html).toContain('lectern-first-screen');
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
      expect(html).not.toMatch(/<script>/);
      expect(html).not.toContain(APP_CODE_ELEMENT_ID);
      expect(response!.headers.get('content-security-policy')).toBeNull();
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
    }
  });

  it("without a first screen (the catalog), the entry is the module script it always was, under the app's CSP", async () => {
    const { html, response } = await page('/catalog');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
    expect(html).not.toMatch(/<script>/);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    // Its screen and the response validation are fetched beside the entry, by the names the build wrote.
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/CatalogScreen-1.js">');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/validation-1.js">');
  });

  it('primes the publication, the passage and its neighbours with the answers the API gives', async () => {
    const { primed, raw } = await page('/alpha-owls/v1/en:original/2');
    const publication = (await api('publications/alpha-owls?publicationVersion=v1')) as { editions: { id: number; language: { code: string }; level: string }[] };
    const edition = publication.editions.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL')!;
    expect(primed).not.toBeNull();
    expect(primed!['publications/alpha-owls?publicationVersion=v1']).toEqual(publication);
    for (const position of [1, 2, 3]) {
      const key = `passages?editionId=${edition.id}&position=${position}`;
      expect(primed![key]).toEqual(await api(key));
    }
    expect(Object.keys(primed!).filter((k) => k.startsWith('passages?'))).toHaveLength(3);
    // Nobody is signed in: the session answer is primed as null.
    expect(primed!['auth/get-session']).toBeNull();
    // Passage HTML holds '<': none of it can close the script element early.
    expect(raw).not.toContain('<');
    expect(JSON.stringify(primed)).toContain('<p>');
  });

  it('primes a gated passage as the server answers it to this visitor (no text), and a signed-in reader gets a private page', async () => {
    const anonymous = await page('/alpha-owls/v1/en:gold/1');
    const publication = (await api('publications/alpha-owls?publicationVersion=v1')) as { editions: { id: number; language: { code: string }; level: string }[] };
    const gold = publication.editions.find((e) => e.language.code === 'en' && e.level === 'GOLD')!;
    const key = `passages?editionId=${gold.id}&position=1`;
    expect(anonymous.primed![key]).toMatchObject({ text: '', licenseRequired: true });
    expect(anonymous.response.headers.get('cache-control')).toBe('no-cache');

    const { cookie } = await licensedTeacher(server);
    const signedIn = await page('/alpha-owls/v1/en:gold/1', { headers: { cookie } });
    expect(signedIn.primed![key]).toEqual(await api(key, { headers: { cookie } }));
    expect(signedIn.primed![key]).toMatchObject({ licenseRequired: false });
    expect(signedIn.response.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('primes nothing that is not there: an unknown title gets the page, with no publication answer', async () => {
    const { response, primed, html } = await page('/no-such-title/v1/en:original/1');
    expect(response.status).toBe(200);
    expect(html).toContain('<div id="root"></div>');
    expect(Object.keys(primed ?? {})).toEqual(['auth/get-session']);
  });

  it('primes only answers that parse to themselves: the client shows them before its schemas check them', async () => {
    // src/api/client.ts uses a primed body at once and checks it once zod is in, so parsing must change nothing
    // (no transform, default or stripped field in these response schemas).
    const schemaOf = (key: string): z.ZodType => {
      if (key === 'auth/get-session') return SessionSchema;
      if (key.startsWith('publications?') || key === 'publications') return PublicationListSchema;
      if (key.startsWith('publications/')) return PublicationSchema;
      if (key.startsWith('passages?')) return PassageSchema;
      throw new Error(`no schema for the primed key ${key}`);
    };
    const { cookie } = await licensedTeacher(server);
    let checked = 0;
    for (const address of ['/catalog', '/alpha-owls/v1/en:original/2', '/alpha-owls/v1/en:gold/1', '/alpha-owls/read']) {
      for (const init of [undefined, { headers: { cookie } }]) {
        const { primed } = await page(address, init);
        for (const [key, body] of Object.entries(primed ?? {})) {
          expect(schemaOf(key).parse(body), `${address} ${key}`).toStrictEqual(body);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('answers 304 to a page the browser already has', async () => {
    const first = await page('/alpha-owls/v1/en:original/1');
    const etag = first.response.headers.get('etag')!;
    const again = await fetch(`${server.url}/alpha-owls/v1/en:original/1`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('the first screen of a reader address', () => {
  const FIRST_SCREEN = /<div id="lectern-first-screen"[\s\S]*?<\/main><\/div>/;

  it("shows the passage the visitor may read, as the API gives it, right before the app's root", async () => {
    const { html } = await page('/alpha-owls/v1/en:original/2');
    const publication = (await api('publications/alpha-owls?publicationVersion=v1')) as { title: string; editions: { id: number; language: { code: string }; level: string }[] };
    const edition = publication.editions.find((e) => e.language.code === 'en' && e.level === 'ORIGINAL')!;
    const passage = (await api(`passages?editionId=${edition.id}&position=2`)) as { text: string };
    const screen = FIRST_SCREEN.exec(html)?.[0];
    expect(screen).toBeDefined();
    expect(html.indexOf(screen!) + screen!.length).toBe(html.indexOf('<div id="root"></div>'));
    expect(screen).toContain(`>${publication.title}</h1>`);
    expect(screen).toContain(`<div data-first-screen-text="" class="prose-lectern passage-text`);
    expect(screen).toContain(passage.text.trim());
    expect(screen).toContain('<article lang="en" dir="ltr"');
  });

  it('has none for a passage the visitor may not read, an unknown title, or a position past the end', async () => {
    for (const address of ['/alpha-owls/v1/en:gold/1', '/no-such-title/v1/en:original/1', '/alpha-owls/v1/en:original/999']) {
      const { html, response } = await page(address);
      expect(response.status).toBe(200);
      expect(html, address).not.toContain('lectern-first-screen');
    }
  });

  it('shows a licensed reader their premium passage', async () => {
    const { cookie } = await licensedTeacher(server);
    const { html } = await page('/alpha-owls/v1/en:gold/1', { headers: { cookie } });
    expect(html).toMatch(FIRST_SCREEN);
    expect(html).toContain('data-first-screen-text');
  });
});

describe('other addresses', () => {
  it('the catalog primes its first page at the default sort', async () => {
    const { primed } = await page('/catalog');
    const key = 'publications?page=1&pageSize=16&sort=title_a_z';
    expect(primed![key]).toEqual(await api(key));
  });

  it('a filtered catalog primes the filtered page, under the key the client asks with (src/domain/catalog.ts filterParams)', async () => {
    const { primed } = await page('/catalog?levels=original&languages=ES,ar,klingon');
    const key = primedKey('publications', { languages: 'es,ar', levels: 'ORIGINAL', page: '1', pageSize: '16', sort: 'title_a_z' });
    expect(primed![key]).toEqual(await api(key));
    expect((primed![key] as { items: { title: string }[] }).items.map((i) => i.title)).toEqual(['Alpha Owls at Night']);
  });

  it('a page without a plan is the plain index, and the manifest is not served', async () => {
    const { html, primed } = await page('/sign-in');
    expect(html).not.toContain('lectern-first-screen');
    expect(primed).toBeNull();
    expect(html).not.toContain('modulepreload crossorigin href="/assets/ReaderRoute');
    expect((await fetch(`${server.url}/.vite/manifest.json`)).status).toBe(404);
  });
});
