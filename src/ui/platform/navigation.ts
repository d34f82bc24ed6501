/** Redirect targets (SPEC §2, §5): only same-origin paths may be navigated to. */

export { CROSS_DOMAIN_MESSAGE, sameOriginPath } from '../../domain/redirect';

/** The current path and query, for redirectUrl on sign-in and sign-up links. */
export function withRedirect(path: '/sign-in' | '/sign-up', redirectUrl: string): string {
  return `${path}?${new URLSearchParams({ redirectUrl }).toString()}`;
}
