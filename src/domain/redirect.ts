/**
 * Redirect targets after sign-in and sign-up (SPEC §2 query `redirectUrl`, §5 Redirect): only a target on the
 * app's own origin may be navigated to. A target on another domain (or another scheme, or a protocol-relative
 * '//host' address) is refused with CROSS_DOMAIN_MESSAGE. Pure: the caller passes the origin.
 */
import { paths } from './routes';

/** SPEC §5, verbatim. */
export const CROSS_DOMAIN_MESSAGE = 'Navigation to a different domain is blocked.';

/** Where sign-in and sign-up go when no redirectUrl is given. @default '/catalog' */
export const DEFAULT_AFTER_SIGN_IN = paths.catalog;

/**
 * Resolve `url` against `origin` and return its path, query and hash when it stays on that origin, or null
 * when it points anywhere else or cannot be parsed.
 */
export function sameOriginPath(url: string, origin: string): string | null {
  // WHATWG URL parsing treats a backslash as a slash, so '/\\evil.example' is refused like '//evil.example'.
  let target: URL;
  let base: URL;
  try {
    base = new URL(origin);
    target = new URL(url, base);
  } catch {
    return null;
  }
  if (target.origin !== base.origin) return null;
  return `${target.pathname}${target.search}${target.hash}`;
}

export type RedirectTarget = { ok: true; path: string } | { ok: false; message: string };

/**
 * The target of a `redirectUrl`: a missing or empty one is the default ('/catalog'); a same-origin one is its
 * path, query and hash; anything else is refused with 'Navigation to a different domain is blocked.'.
 */
export function resolveRedirect(redirectUrl: string | null | undefined, origin: string, fallback: string = DEFAULT_AFTER_SIGN_IN): RedirectTarget {
  const raw = (redirectUrl ?? '').trim();
  if (!raw) return { ok: true, path: fallback };
  const path = sameOriginPath(raw, origin);
  if (path === null) return { ok: false, message: CROSS_DOMAIN_MESSAGE };
  // A target back at the sign-in pages would loop; go to the fallback instead.
  if (/^\/sign-(in|up)(\/|\?|#|$)/.test(path)) return { ok: true, path: fallback };
  return { ok: true, path };
}
