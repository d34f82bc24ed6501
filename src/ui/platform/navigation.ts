/** Redirect targets (SPEC §2, §5): only same-origin paths may be navigated to. */

export const CROSS_DOMAIN_MESSAGE = 'Navigation to a different domain is blocked.';

/**
 * Resolve `url` against `origin` and return its path, query and hash when it stays on that origin, or null
 * when it points anywhere else (another domain, another scheme, or a protocol-relative '//host' URL).
 */
export function sameOriginPath(url: string, origin: string): string | null {
  let target: URL;
  try {
    target = new URL(url, origin);
  } catch {
    return null;
  }
  if (target.origin !== new URL(origin).origin) return null;
  return `${target.pathname}${target.search}${target.hash}`;
}

/** The current path and query, for redirectUrl on sign-in and sign-up links. */
export function withRedirect(path: '/sign-in' | '/sign-up', redirectUrl: string): string {
  return `${path}?${new URLSearchParams({ redirectUrl }).toString()}`;
}
