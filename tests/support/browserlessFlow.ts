/**
 * The OpenID Connect code flow without a browser, for server tests: Node's fetch with
 * `redirect: 'manual'` and a cookie jar, against the test provider's own pages (tests/support/oidcProvider.ts).
 *
 * A sign-in test:
 *   const jar = new CookieJar();
 *   const start = await request(jar, `${app}/api/v1/auth/sign-in/social`, { method: 'POST', json: { provider: 'sso-maple' } });
 *   const { url: authorizationUrl } = await start.json();            // the state cookie is now in `jar`
 *   const callback = await loginAtProvider(jar, authorizationUrl, 'teacher@maple.school', 'secret', app);
 *   const res = await request(jar, callback);                        // the app's callback, with the app's cookies
 * For a state mismatch, request the callback with `new CookieJar()`; for a replayed code, request it twice.
 */

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  /** ms since the epoch; Infinity for a session cookie. */
  expires: number;
}

function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/')) return '/';
  const last = pathname.lastIndexOf('/');
  return last <= 0 ? '/' : pathname.slice(0, last);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** Cookies per origin (scheme, host and port), from Set-Cookie; Path, Max-Age and Expires are honoured, Domain is not. */
export class CookieJar {
  private readonly byOrigin = new Map<string, StoredCookie[]>();

  /** Store one Set-Cookie header value as if it came from `url`. */
  set(url: string | URL, setCookie: string): void {
    const target = new URL(url);
    const [pair, ...attributes] = setCookie.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let path = defaultPath(target.pathname);
    let expires = Number.POSITIVE_INFINITY;
    let maxAgeSeen = false;
    for (const attribute of attributes) {
      const i = attribute.indexOf('=');
      const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
      const val = i === -1 ? '' : attribute.slice(i + 1).trim();
      if (key === 'path' && val.startsWith('/')) path = val;
      else if (key === 'max-age' && /^-?\d+$/.test(val)) {
        maxAgeSeen = true;
        expires = Number(val) <= 0 ? 0 : Date.now() + Number(val) * 1000;
      } else if (key === 'expires' && !maxAgeSeen) {
        const at = Date.parse(val);
        if (!Number.isNaN(at)) expires = at;
      }
    }
    const cookies = (this.byOrigin.get(target.origin) ?? []).filter((c) => !(c.name === name && c.path === path));
    if (expires > Date.now()) cookies.push({ name, value, path, expires });
    this.byOrigin.set(target.origin, cookies);
  }

  /** Store every Set-Cookie of a response to a request for `url`. */
  capture(url: string | URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) this.set(url, header);
  }

  /** The Cookie header for a request to `url` ('' when there is none): longer paths first. */
  header(url: string | URL): string {
    const target = new URL(url);
    const now = Date.now();
    return (this.byOrigin.get(target.origin) ?? [])
      .filter((c) => c.expires > now && pathMatches(target.pathname, c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** A cookie's value for `url`, if the jar would send it there. */
  get(url: string | URL, name: string): string | undefined {
    const target = new URL(url);
    const now = Date.now();
    return (this.byOrigin.get(target.origin) ?? [])
      .filter((c) => c.name === name && c.expires > now && pathMatches(target.pathname, c.path))
      .sort((a, b) => b.path.length - a.path.length)[0]?.value;
  }

  /** Forget the cookies of one origin, or all. */
  clear(origin?: string): void {
    if (origin) this.byOrigin.delete(new URL(origin).origin);
    else this.byOrigin.clear();
  }
}

export interface RequestOptions extends Omit<RequestInit, 'redirect' | 'body'> {
  body?: BodyInit;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string> | URLSearchParams;
}

/** One request with the jar's cookies for `url` and `redirect: 'manual'`; its Set-Cookie headers go into the jar. */
export async function request(jar: CookieJar, url: string | URL, init: RequestOptions = {}): Promise<Response> {
  const { json, form, headers: given, ...rest } = init;
  const headers = new Headers(given);
  let body = rest.body;
  if (json !== undefined) {
    body = JSON.stringify(json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  } else if (form !== undefined) {
    body = new URLSearchParams(form).toString();
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  }
  const cookie = jar.header(url);
  if (cookie && !headers.has('cookie')) headers.set('cookie', cookie);
  const method = rest.method ?? (body !== undefined ? 'POST' : 'GET');
  // An app's (better-auth's) CSRF check compares Origin with its own for form and JSON posts.
  if (method !== 'GET' && method !== 'HEAD' && !headers.has('origin')) headers.set('origin', new URL(url).origin);
  const response = await fetch(url, { ...rest, method, headers, body, redirect: 'manual' });
  jar.capture(url, response);
  return response;
}

export interface FollowResult {
  /** The last URL requested. */
  url: string;
  /** Its response (the body is already read into `body`). */
  response: Response;
  body: string;
  /** When a redirect pointed at one of `stopOrigins`: that location, NOT requested. */
  stoppedAt?: string;
  /** Every URL requested, in order. */
  hops: string[];
}

export interface FollowOptions {
  /** Default 20. */
  maxHops?: number;
  /** Origins not to enter: a redirect there ends the walk, its location in `stoppedAt`. */
  stopOrigins?: string[];
  /** The first request's method and form body (redirects after it are GETs, except 307/308). */
  method?: string;
  form?: Record<string, string> | URLSearchParams;
}

/**
 * Follow redirects from `url` (GET unless `method`), carrying cookies per origin; stops at the first answer that is
 * not a redirect, or when the next location is on one of `stopOrigins` (then `stoppedAt` is that location).
 */
export async function follow(jar: CookieJar, url: string, opts: FollowOptions = {}): Promise<FollowResult> {
  const maxHops = opts.maxHops ?? 20;
  const stop = new Set((opts.stopOrigins ?? []).map((o) => new URL(o).origin));
  const hops: string[] = [];
  let current = url;
  let method = opts.method ?? 'GET';
  let form = opts.form;
  for (let hop = 0; hop <= maxHops; hop++) {
    hops.push(current);
    const response = await request(jar, current, form !== undefined ? { method, form } : { method });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      return { url: current, response, body: await response.text(), hops };
    }
    await response.body?.cancel();
    const next = new URL(location, current).href;
    if (stop.has(new URL(next).origin)) {
      return { url: current, response, body: '', stoppedAt: next, hops };
    }
    if (response.status !== 307 && response.status !== 308) {
      method = 'GET';
      form = undefined;
    }
    current = next;
  }
  throw new Error(`more than ${maxHops} redirects from ${url}: ${hops.join(' -> ')}`);
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The action URL of the test provider's form `data-form="login" | "consent" | "cancel"` on a page, if present. */
export function formAction(html: string, pageUrl: string, form: 'login' | 'consent' | 'cancel'): string | undefined {
  for (const [tag] of html.matchAll(/<form\b[^>]*>/gi)) {
    if (!new RegExp(`\\bdata-form="${form}"`).test(tag)) continue;
    const action = /\baction="([^"]*)"/.exec(tag);
    return new URL(decodeEntities(action?.[1] ?? ''), pageUrl).href;
  }
  return undefined;
}

function describe(result: FollowResult): string {
  const text = result.body.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
  return `${result.response.status} at ${result.url}: ${text}`;
}

/** Walk from `url` to the provider's page (or straight back to the app, if the provider needs no interaction). */
async function toProviderPage(jar: CookieJar, url: string, appOrigin: string): Promise<FollowResult> {
  return follow(jar, url, { stopOrigins: [appOrigin] });
}

/**
 * At the provider's login page (or any URL that redirects there, such as the authorization URL): post login and
 * password; then, on the consent page, post Continue. Returns the first URL on the app's origin (the callback, with
 * `code` and `state`, or `error`), WITHOUT requesting it. Throws if the provider shows the login page again (a wrong
 * password) or any other page. With a provider session and an earlier consent in `jar`, the provider may send the
 * browser straight back: that URL is returned.
 */
export async function loginAtProvider(jar: CookieJar, loginPageUrl: string, login: string, password: string, appOrigin: string): Promise<string> {
  let at = await toProviderPage(jar, loginPageUrl, appOrigin);
  for (let step = 0; step < 4; step++) {
    if (at.stoppedAt) return at.stoppedAt;
    const loginAction = formAction(at.body, at.url, 'login');
    const consentAction = formAction(at.body, at.url, 'consent');
    if (loginAction) {
      if (step > 0) throw new Error(`the provider did not accept the login of ${login}: ${describe(at)}`);
      at = await follow(jar, loginAction, { method: 'POST', form: { login, password }, stopOrigins: [appOrigin] });
    } else if (consentAction) {
      at = await follow(jar, consentAction, { method: 'POST', form: {}, stopOrigins: [appOrigin] });
    } else {
      throw new Error(`expected the provider's login or consent page: ${describe(at)}`);
    }
  }
  throw new Error(`the sign-in did not return to ${appOrigin}: ${describe(at)}`);
}

/**
 * At the provider's login (or consent) page, or a URL that redirects there: press Cancel. Returns the first URL on
 * the app's origin (the redirect URI with `error=access_denied` and `state`), WITHOUT requesting it.
 */
export async function cancelAtProvider(jar: CookieJar, loginPageUrl: string, appOrigin: string): Promise<string> {
  const at = await toProviderPage(jar, loginPageUrl, appOrigin);
  if (at.stoppedAt) return at.stoppedAt;
  const cancelAction = formAction(at.body, at.url, 'cancel');
  if (!cancelAction) throw new Error(`expected the provider's login or consent page: ${describe(at)}`);
  const done = await follow(jar, cancelAction, { method: 'POST', form: {}, stopOrigins: [appOrigin] });
  if (!done.stoppedAt) throw new Error(`Cancel did not return to ${appOrigin}: ${describe(done)}`);
  return done.stoppedAt;
}
