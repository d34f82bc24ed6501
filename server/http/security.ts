/**
 * ASVS level-1 basics for every response and every state-changing request:
 * - a CSRF origin check on POST, PUT, PATCH and DELETE;
 * - security headers: CSP, nosniff, frame and referrer policies, and HSTS when served over HTTPS.
 */
import type { MiddlewareHandler } from 'hono';

/**
 * The app's Content-Security-Policy. Styles allow 'unsafe-inline' for the style attributes React Aria sets. A page
 * may allow inline scripts of its own by their hashes (server/http/page.ts: the loader of a page with a first screen).
 */
export function contentSecurityPolicy({ scriptHashes = [] }: { scriptHashes?: string[] } = {}): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' '),
    ...CSP_REST,
  ].join('; ');
}

const CSP_REST = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
];

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** HSTS over HTTPS: one year, subdomains included. @default 31536000 s */
export const HSTS_MAX_AGE_S = 31_536_000;
export const STRICT_TRANSPORT_SECURITY = `max-age=${HSTS_MAX_AGE_S}; includeSubDomains`;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const CSRF_MESSAGE = 'Cross-site request refused: this request must come from this site.';

export interface SecurityOptions {
  /** Whether the request arrived over HTTPS (directly, through a trusted proxy, or by PUBLIC_URL). */
  isHttps: (request: Request) => boolean;
  /** The PUBLIC_URL origin, trusted in addition to the request's own host. */
  publicOrigin?: string;
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : null;
  } catch {
    return null;
  }
}

/**
 * The CSRF rule. A state-changing request must name this site in Origin (or, lacking it, Referer): its host must
 * be the request's Host, or PUBLIC_URL's. A request with neither header is refused when it carries cookies;
 * without cookies there are no ambient credentials to abuse (such clients are scripts and tests, never a
 * browser: browsers send Origin on every POST), so it passes, as better-auth's own check does.
 */
export function csrfRejection(request: Request, publicOrigin?: string): string | null {
  if (!STATE_CHANGING.has(request.method)) return null;
  const headers = request.headers;
  if (headers.get('sec-fetch-site') === 'cross-site') return CSRF_MESSAGE;
  const source = headers.get('origin') ?? headers.get('referer');
  if (source === null) return headers.has('cookie') ? CSRF_MESSAGE : null;
  const host = hostOf(source);
  if (host === null) return CSRF_MESSAGE; // 'null' or something that is no web address
  if (host === headers.get('host')) return null;
  if (publicOrigin && host === new URL(publicOrigin).host) return null;
  return CSRF_MESSAGE;
}

export function securityMiddleware({ isHttps, publicOrigin }: SecurityOptions): MiddlewareHandler {
  return async (c, next) => {
    const rejection = csrfRejection(c.req.raw, publicOrigin);
    if (rejection) {
      c.res = c.json({ errors: [{ code: 'csrf_rejected', message: rejection }] }, 403);
    } else {
      await next();
    }
    const set = (h: Headers) => {
      if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      h.set('X-Content-Type-Options', 'nosniff');
      h.set('X-Frame-Options', 'DENY');
      h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
      if (isHttps(c.req.raw)) h.set('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    };
    try {
      set(c.res.headers);
    } catch {
      // Immutable headers (e.g. Response.redirect): copy the response first.
      c.res = new Response(c.res.body, c.res);
      set(c.res.headers);
    }
  };
}
