/**
 * The first-paint loader: the one inline script of a page with a first screen (firstScreenHtml.ts; docs/performance.md
 * "Cold open"). Such a page arrives without its module script, so that nothing the first paint does not need is
 * fetched or compiled before it; this loader asks for the app's code once the first contentful paint is reported,
 * then, while the entry downloads, warms the browser's ICU and adds the route's `modulepreload` links a few per task.
 *
 * The build (scripts/build-first-paint-loader.ts, run by vite.config.ts) bundles `startFirstPaintLoader(globalThis)`
 * into a minified script in dist/.vite; the server (server/http/page.ts) inlines that text at the end of the body
 * and allows it in the page's CSP by its sha256 hash. What to load comes beside it as JSON (`appCodeScript`), so the
 * script's text, and with it the hash, is the same for every page of a build.
 *
 * It touches nothing at import time: the browser's globals come in as an argument, so tests run it on fakes.
 */

/** The id of the JSON element that tells the loader what to load. */
export const APP_CODE_ELEMENT_ID = 'lectern-app-code';

/** Where the build writes the minified loader, inside the dist folder (not served: the page inlines it). */
export const FIRST_PAINT_LOADER_FILE = '.vite/first-paint-loader.js';

/**
 * If the first paint is never reported (a page opened in a background tab paints nothing), the code is asked for
 * after this long anyway. @default 500
 */
export const APP_CODE_FALLBACK_MS = 500;

/**
 * How many of the route's `modulepreload` links the loader adds per task. Each starts a request, about 0.3-0.5 ms
 * of the main thread unthrottled (2-3 times that while the cores are busy); in batches of this size no task comes
 * near Lighthouse's 50 ms at its 4x CPU slowdown (docs/performance.md, `PRELOAD_BATCH`). @default 4
 */
export const PRELOAD_BATCH = 4;

/** What the loader loads: the app's entry module, then the route's scripts beyond the entry's own. */
export interface AppCode {
  /** The entry's module script, e.g. `/assets/index-1a2b.js`. */
  entry: string;
  /** The route's scripts to preload while the entry downloads (Vite's preload helper then finds them there). */
  routeScripts: readonly string[];
}

/** The browser globals the loader uses; `globalThis` in the page. */
export type LoaderGlobals = Pick<
  typeof globalThis,
  'document' | 'navigator' | 'Intl' | 'PerformanceObserver' | 'setTimeout' | 'requestAnimationFrame'
>;

/**
 * The JSON element the loader reads, for the server to put before the loader. JSON inside `<script>`: no '<' can
 * end the element early.
 */
export function appCodeScript(code: AppCode): string {
  const json = JSON.stringify({ entry: code.entry, routeScripts: code.routeScripts }).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${APP_CODE_ELEMENT_ID}">${json}</script>`;
}

/** Runs the loader in a page (see the top of this file). */
export function startFirstPaintLoader(g: LoaderGlobals): void {
  const { document } = g;
  const element = document.getElementById(APP_CODE_ELEMENT_ID);
  if (!element?.textContent) return;
  const code = JSON.parse(element.textContent) as AppCode;
  let asked = false;
  let preloaded = 0;

  /** Adds the entry's module script, once, then schedules the ICU warm-up and the preloads, each a task of its own. */
  function loadApp(): void {
    if (asked) return;
    asked = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = code.entry;
    document.head.appendChild(script);
    g.setTimeout(startIntl, 0);
    g.setTimeout(preloadBatch, 0);
  }

  /**
   * The page's first use of Intl starts the browser's ICU (60-90 ms unthrottled): done here, in a task of its own
   * while the entry downloads, it is not part of the entry's evaluation, where React Aria's default-locale check
   * would otherwise pay it (docs/performance.md "Ninth session").
   */
  function startIntl(): void {
    try {
      const locale = g.navigator.language || 'en-US';
      g.Intl.DateTimeFormat.supportedLocalesOf([locale]);
      new g.Intl.Locale(locale).maximize();
    } catch {
      // A browser without Intl.Locale pays the start-up later, in the entry; nothing else depends on this.
    }
  }

  /** Adds the next PRELOAD_BATCH of the route's scripts as `modulepreload` links, and schedules the rest. */
  function preloadBatch(): void {
    const scripts = code.routeScripts;
    for (let i = 0; i < PRELOAD_BATCH && preloaded < scripts.length; i++, preloaded++) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = scripts[preloaded];
      document.head.appendChild(link);
    }
    if (preloaded < scripts.length) g.setTimeout(preloadBatch, 0);
  }

  /**
   * A task after the first contentful paint is reported (presented, not only drawn: in Lighthouse's simulation a
   * request started before that counts as something the first paint waited for).
   */
  function painted(): void {
    g.setTimeout(loadApp, 0);
  }

  try {
    new g.PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length) {
        observer.disconnect();
        painted();
      }
    }).observe({ type: 'paint', buffered: true });
  } catch {
    // No paint timing: after a frame.
    g.requestAnimationFrame(painted);
  }
  g.setTimeout(loadApp, APP_CODE_FALLBACK_MS);
}
