/**
 * A real OpenID Connect provider for the single sign-on tests: oidc-provider 9 (panva) on
 * 127.0.0.1, with its own small login and consent pages in front of it.
 *
 * - Authorization code flow only, PKCE (S256) required for every client, confidential clients authenticate with
 *   client_secret_basic or client_secret_post. Scopes openid, email (email, email_verified) and profile (name).
 * - The login page has `input[name=login]` (an account's email or id) and `input[name=password]` (default 'secret'),
 *   a "Sign-in" button and a "Cancel" button; a wrong password answers 401 with the login page again. The consent page
 *   has "Continue" and "Cancel". Cancel on either page ends the interaction with `error=access_denied` at the client's
 *   redirect URI.
 * - `emailInIdToken: false` keeps email, email_verified and name out of the ID token (oidc-provider's
 *   conformIdTokenClaims): they then come only from the userinfo endpoint.
 * - `signWithForeignKey(true)`: the ID tokens are signed with another RSA key under the same `kid`, while the JWKS
 *   still publishes the real key. A client that picks the key by `kid` finds one, and the signature check fails; a
 *   JWKS the client cached before makes no difference.
 * - `GET /health` answers 200.
 *
 * oidc-provider's start-up notices (unsupported runtime on Node 20, quick-start adapter and keys) are kept out of the
 * test output: this harness brings its own adapter, keys and interactions, and filters the one runtime warning the
 * package prints when it is first imported. Server errors inside the provider are still printed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, randomBytes, sign as cryptoSign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Adapter, AdapterPayload, Interaction, Provider as ProviderType } from 'oidc-provider';

export interface TestAccount {
  id: string;
  email: string;
  emailVerified: boolean;
  name?: string;
  /** Default 'secret'. */
  password?: string;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface OidcProviderHandle {
  /** `http://127.0.0.1:<port>`; discovery at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  port: number;
  /** By account id; findAccount and the login page read it live. */
  accounts: Map<string, TestAccount>;
  addAccount(a: TestAccount): void;
  /** Works while running; throws on invalid client metadata. */
  addClient(c: TestClient): void;
  stop(): Promise<void>;
  /**
   * Replace the signing keys with a fresh key pair that is NOT in the published JWKS, so the next ID tokens are
   * signed by another key (for a 'token signed by another key' test), and restore.
   */
  signWithForeignKey(on: boolean): void;
}

export interface StartOidcProviderOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  host?: '127.0.0.1';
  accounts?: TestAccount[];
  clients?: TestClient[];
  /** Default true; false = the email and email_verified claims come only from the userinfo endpoint. */
  emailInIdToken?: boolean;
}

export const DEFAULT_TEST_PASSWORD = 'secret';

type OidcModule = typeof import('oidc-provider');
let oidcModule: Promise<OidcModule> | undefined;

/**
 * oidc-provider 9 prints "Unsupported runtime" once, when first imported on a Node that is not 22 LTS or later; the
 * repository runs Node 20 (>=20.19), where the package works. Only that line is held back, only during the import.
 */
function loadOidcProvider(): Promise<OidcModule> {
  oidcModule ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
      warn.apply(console, args);
    };
    try {
      return await import('oidc-provider');
    } finally {
      console.warn = warn;
    }
  })();
  return oidcModule;
}

/** Per-provider in-memory storage (oidc-provider's own memory adapter would announce itself on every start). */
function memoryAdapter(): { factory: (model: string) => Adapter; put(model: string, id: string, payload: AdapterPayload): void } {
  const entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  const live = (key: string): AdapterPayload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };
  const findBy = (model: string, field: 'uid' | 'userCode', value: string): AdapterPayload | undefined => {
    for (const [key, entry] of entries) {
      if (key.startsWith(`${model}:`) && entry.payload[field] === value) return live(key);
    }
    return undefined;
  };
  const put = (model: string, id: string, payload: AdapterPayload, expiresIn?: number) => {
    entries.set(`${model}:${id}`, {
      payload,
      expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY,
    });
  };
  const factory = (model: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      put(model, id, payload, expiresIn);
    },
    async find(id) {
      return live(`${model}:${id}`);
    },
    async findByUid(uid) {
      return findBy(model, 'uid', uid);
    },
    async findByUserCode(userCode) {
      return findBy(model, 'userCode', userCode);
    },
    async consume(id) {
      const payload = live(`${model}:${id}`);
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    },
    async destroy(id) {
      entries.delete(`${model}:${id}`);
    },
    async revokeByGrantId(grantId) {
      for (const [key, entry] of entries) {
        if (key.startsWith(`${model}:`) && entry.payload.grantId === grantId) entries.delete(key);
      }
    },
  });
  return { factory, put: (model, id, payload) => put(model, id, payload) };
}

function clientMetadata(c: TestClient): AdapterPayload {
  return {
    client_id: c.clientId,
    client_secret: c.clientSecret,
    redirect_uris: [...c.redirectUris],
    response_types: ['code'],
    grant_types: ['authorization_code'],
    // The client may still authenticate with client_secret_post: oidc-provider accepts either secret method for a
    // client registered with one of them.
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  const html = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
  });
  res.end(html);
}

function cancelForm(uid: string): string {
  return `<form data-form="cancel" method="post" action="/interaction/${escapeHtml(uid)}/abort">
<button type="submit">Cancel</button>
</form>`;
}

function loginPage(res: ServerResponse, status: number, interaction: Interaction, clientName: string, login: string, error?: string): void {
  const { uid } = interaction;
  page(
    res,
    status,
    'Sign-in',
    `<p>Sign in to continue to ${escapeHtml(clientName)}.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form data-form="login" method="post" action="/interaction/${escapeHtml(uid)}/login" autocomplete="off">
<label>Email <input type="text" name="login" required autofocus value="${escapeHtml(login)}"></label>
<label>Password <input type="password" name="password" required></label>
<button type="submit">Sign-in</button>
</form>
${cancelForm(uid)}`,
  );
}

function consentPage(res: ServerResponse, interaction: Interaction, clientName: string): void {
  const { uid } = interaction;
  const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
  const scopes = (details.missingOIDCScope ?? []).filter((s) => s !== 'openid');
  page(
    res,
    200,
    'Authorize',
    `<p>${escapeHtml(clientName)} asks for access to your account.</p>
${scopes.length ? `<ul>${scopes.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>` : ''}
<form data-form="consent" method="post" action="/interaction/${escapeHtml(uid)}/confirm">
<button type="submit">Continue</button>
</form>
${cancelForm(uid)}`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new Error('form body too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The ID token signing key: the JWKS publishes the public half of `own`; it signs with `own`, or, while `foreign` is
 * on, with a second key pair generated for this provider and never published (same kid and alg).
 */
async function signingKey(ExternalSigningKey: OidcModule['ExternalSigningKey']) {
  const rsa = () => promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const [own, foreign] = await Promise.all([rsa(), rsa()]);
  class SwitchableKey extends ExternalSigningKey {
    foreign = false;
    constructor() {
      super();
      this.kid = `lectern-test-${randomBytes(6).toString('hex')}`;
      this.alg = 'RS256';
    }
    keyObject(): KeyObject {
      return own.publicKey;
    }
    sign(data: Buffer): Buffer {
      return cryptoSign('sha256', data, this.foreign ? foreign.privateKey : own.privateKey);
    }
  }
  return new SwitchableKey();
}

export async function startOidcProvider(opts: StartOidcProviderOptions = {}): Promise<OidcProviderHandle> {
  const { Provider, ExternalSigningKey } = await loadOidcProvider();
  const host = opts.host ?? '127.0.0.1';
  const emailInIdToken = opts.emailInIdToken ?? true;
  const accounts = new Map<string, TestAccount>();
  for (const a of opts.accounts ?? []) accounts.set(a.id, { ...a });

  const findByLogin = (login: string): TestAccount | undefined => {
    const wanted = login.trim().toLowerCase();
    if (!wanted) return undefined;
    for (const a of accounts.values()) {
      if (a.email.toLowerCase() === wanted || a.id === login.trim()) return a;
    }
    return undefined;
  };

  let provider: ProviderType | undefined;
  let providerCallback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;

  const clientName = async (interaction: Interaction): Promise<string> => {
    const client = await provider!.Client.find(interaction.params.client_id);
    return client?.clientId ?? interaction.params.client_id;
  };

  const interactionRoute = async (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) => {
    const interaction = await provider!.interactionDetails(req, res);
    if (interaction.uid !== uid) {
      page(res, 400, 'Sign-in failed', '<p>This sign-in page belongs to another sign-in attempt.</p>');
      return;
    }
    const name = await clientName(interaction);
    const method = req.method ?? 'GET';

    // GET of the page itself, or of a form's address (a reload after a wrong password): the page of the current step.
    if ((method === 'GET' || method === 'HEAD') && action !== 'abort') {
      if (interaction.prompt.name === 'login') {
        loginPage(res, 200, interaction, name, String(interaction.params.login_hint ?? ''));
      } else if (interaction.prompt.name === 'consent') {
        consentPage(res, interaction, name);
      } else {
        page(res, 501, 'Not implemented', `<p>Prompt ${escapeHtml(interaction.prompt.name)} is not implemented.</p>`);
      }
      return;
    }

    if (action === 'abort' && (method === 'POST' || method === 'GET')) {
      await provider!.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
      return;
    }

    if (action === 'login' && method === 'POST' && interaction.prompt.name === 'login') {
      const form = await readForm(req);
      const login = form.get('login') ?? '';
      const account = findByLogin(login);
      if (!account || (form.get('password') ?? '') !== (account.password ?? DEFAULT_TEST_PASSWORD)) {
        loginPage(res, 401, interaction, name, login, 'Wrong email or password.');
        return;
      }
      await provider!.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
      return;
    }

    if (action === 'confirm' && method === 'POST' && interaction.prompt.name === 'consent') {
      const details = interaction.prompt.details as {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      const grant = interaction.grantId
        ? await provider!.Grant.find(interaction.grantId)
        : new provider!.Grant({ accountId: interaction.session!.accountId!, clientId: interaction.params.client_id });
      if (!grant) throw new Error(`grant ${interaction.grantId} not found`);
      if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
      if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
      for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(' '));
      }
      const grantId = await grant.save();
      await provider!.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }

    page(res, 400, 'Sign-in failed', '<p>This step does not fit the sign-in in progress.</p>');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : 'ok');
      return;
    }
    if (!provider || !providerCallback) {
      res.writeHead(503).end();
      return;
    }
    const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|confirm|abort))?\/?$/.exec(url.pathname);
    if (interaction) {
      await interactionRoute(req, res, interaction[1], interaction[2]);
      return;
    }
    providerCallback(req, res);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const name = err instanceof Error ? err.name : '';
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (name === 'SessionNotFound') {
        page(res, 400, 'Sign-in expired', '<p>This sign-in is no longer in progress (missing or expired interaction cookie).</p>');
        return;
      }
      console.error('[test OpenID provider] interaction failed:', err);
      page(res, 500, 'Server error', `<p>${escapeHtml(err instanceof Error ? err.message : String(err))}</p>`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${host}:${port}`;

  const storage = memoryAdapter();
  for (const c of opts.clients ?? []) storage.put('Client', c.clientId, clientMetadata(c));
  const key = await signingKey(ExternalSigningKey);

  try {
    provider = new Provider(issuer, {
      adapter: storage.factory,
      jwks: { keys: [key] },
      features: {
        devInteractions: { enabled: false },
        externalSigningSupport: { enabled: true, ack: 'experimental-01' },
        userinfo: { enabled: true },
      },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      async findAccount(_ctx: unknown, sub: string) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: account.id,
          claims: () => ({
            sub: account.id,
            email: account.email,
            email_verified: account.emailVerified,
            ...(account.name !== undefined ? { name: account.name } : {}),
          }),
        };
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      scopes: ['openid', 'email', 'profile'],
      // true (oidc-provider's default) = a code flow's ID token carries only the openid claims; the rest come from
      // the userinfo endpoint.
      conformIdTokenClaims: !emailInIdToken,
      responseTypes: ['code'],
      clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
      pkce: { required: () => true },
      clientDefaults: {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
      cookies: { keys: [randomBytes(32).toString('hex')] },
      ttl: {
        AuthorizationCode: 60,
        AccessToken: 600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
        RefreshToken: 3600,
        ClientCredentials: 600,
        DeviceCode: 600,
        BackchannelAuthenticationRequest: 600,
        PreAuthorizedCode: 600,
      },
      clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
        client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
      async renderError(ctx: { type: string; body: string }, out: Record<string, string>) {
        ctx.type = 'html';
        ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head><body><main><h1>Sign-in error</h1>${Object.entries(
          out,
        )
          .map(([k, v]) => `<p><strong>${escapeHtml(k)}</strong>: <span data-${escapeHtml(k)}>${escapeHtml(v)}</span></p>`)
          .join('')}</main></body></html>`;
      },
    });
    provider.on('server_error', (_ctx: unknown, err: unknown) => console.error('[test OpenID provider] server_error:', err));
    providerCallback = provider.callback();
  } catch (err) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    throw err;
  }

  let stopped: Promise<void> | undefined;
  return {
    issuer,
    port,
    accounts,
    addAccount(a) {
      accounts.set(a.id, { ...a });
    },
    addClient(c) {
      const metadata = clientMetadata(c);
      new provider!.Client(metadata); // validates now rather than at the first request
      storage.put('Client', c.clientId, metadata);
    },
    signWithForeignKey(on) {
      key.foreign = on;
    },
    stop() {
      stopped ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
