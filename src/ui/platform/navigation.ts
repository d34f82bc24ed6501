/** Redirect targets (SPEC §2, §5): only same-origin paths may be navigated to. */

export { CROSS_DOMAIN_MESSAGE, sameOriginPath } from '../../domain/redirect';
