/**
 * Primed responses: answers the server already knows a page will ask for, inlined into the page's HTML as JSON so
 * the first requests need no round trip (docs/performance.md "Cold open"). The server fills the element with the
 * bodies of GET requests it answered for this page's visitor; the API client takes each body once, by the same key
 * it would request, and validates it like any answer. Shared by the client (src/api/primed.ts) and the server
 * (server/http/page.ts), so both build a key the same way.
 */

/** The id of the `<script type="application/json">` element holding the primed responses. */
export const PRIMED_ELEMENT_ID = 'lectern-primed';

/**
 * The id of the reader's first screen (src/render/firstScreenHtml.ts), the passage drawn as static HTML.
 * Here, not beside the markup, so the entry chunk can remove it without pulling in the passage sanitizer.
 */
export const FIRST_SCREEN_ID = 'lectern-first-screen';

/** The key of a GET: the API path without its leading slash and the query, sorted by name. */
export function primedKey(path: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
  return path.replace(/^\//, '') + (query ? `?${query}` : '');
}
