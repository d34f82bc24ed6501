/**
 * The Cache Storage names the page and the service worker share. A module of its own, without
 * imports, so the service worker (src/sw.ts) carries nothing else.
 */

/** The cache a download's responses go in; the service worker answers from it without a network. */
export const OFFLINE_CACHE = 'lectern-offline-v1';
/** The service worker's cache of fonts met while reading (unicode-range slices), so an offline title keeps its script. */
export const FONT_CACHE = 'lectern-fonts-v1';
