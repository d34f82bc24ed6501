/** Redirect targets (SPEC §2, §5): only same-origin paths may be navigated to. */

export { CROSS_DOMAIN_MESSAGE, sameOriginPath } from '../../domain/redirect';
/** '/sign-in' or '/sign-up' with the current path and query in `redirectUrl` (`src/domain/routes.ts`). */
export { withRedirect } from '../../domain/routes';
