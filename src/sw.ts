/// <reference lib="webworker" />
/**
 * Lectern's service worker (docs/reading-aids.md "Whole titles offline"), built by
 * vite-plugin-pwa (injectManifest) into dist/sw.js:
 * - the app shell is precached (the entry and every route's scripts and styles, index.html), so the app opens
 *   without a network;
 * - a page address goes to the network first (the server draws a reader's first screen), and without one gets the
 *   shell;
 * - the API's GET answers and the narration MP3s go to the network first, and without one come from the titles
 *   downloaded for offline (OFFLINE_CACHE), which the page filled; an MP3 asked for by range (a seek) gets a 206
 *   cut from the stored file (Workbox's range requests);
 * - fonts (unicode-range slices) are kept as they are met, so an offline passage keeps its script's glyphs.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { createPartialResponse } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { FONT_CACHE, OFFLINE_CACHE } from './domain/offlineCaches';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The stored answer for a request, from the downloads (the URL with its query; headers such as Vary ignored). */
async function stored(request: Request): Promise<Response | undefined> {
  const cache = await caches.open(OFFLINE_CACHE);
  return cache.match(request.url, { ignoreVary: true });
}

/** Network first; without a network (or a server), the stored answer; else the network's failure. */
async function networkThenStored(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const answer = await stored(request);
    if (!answer) throw error;
    const range = request.headers.get('range');
    return range ? createPartialResponse(request, answer) : answer;
  }
}

// The shell for page addresses without a network (the server's own page with one).
const shell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(async (options) => {
    try {
      return await fetch(options.request);
    } catch {
      return shell(options);
    }
  }),
);

registerRoute(
  ({ url }) => url.origin === self.location.origin && /\.woff2$/.test(url.pathname),
  async ({ request }) => {
    const cache = await caches.open(FONT_CACHE);
    const hit = await cache.match(request);
    if (hit) return hit;
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  },
);

// Everything else of this site read with GET (the API, narration MP3s, covers and pictures): the network, else a download.
registerRoute(({ url, request }) => url.origin === self.location.origin && request.method === 'GET', ({ request }) => networkThenStored(request));
