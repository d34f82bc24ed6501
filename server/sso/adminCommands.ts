/**
 * The operator's single sign-on commands for `npm run admin` (server/admin/commands.ts; docs/sso.md):
 *
 *   sso add <org> --issuer <url> --client-id <id> --client-secret <secret> --domain <domain> [--domain …]
 *                 [--trust-email] [--default-role teacher|none]
 *   sso list [<org>]
 *   sso remove <org>
 *
 * `add` reads the issuer's discovery document first, so a mistyped issuer is caught here rather than at a
 * teacher's first sign-in. The client secret is stored encrypted and never printed: `list` says only that it is
 * set. A provider added or removed while servers run counts at once (server/sso/plugin.ts reads it per request).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { AdminError, type AdminCommand, type AdminIo } from '../cli/command';
import { loadConfig } from '../config';
import { loadAuthSecret } from '../auth/config';
import { AUTH_BASE_PATH } from '../auth/auth';
import { databaseCall, withDatabase } from '../users/adminCommands';
import { addSsoProvider, IssuerSchema, listSsoProviders, removeSsoProvider, type ProviderRow } from './providers';

/** How long `sso add` waits for the issuer's discovery document. @default 10 s */
export const DISCOVERY_CHECK_TIMEOUT_MS = 10_000;

const DiscoverySchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});

/** Read `<issuer>/.well-known/openid-configuration` and check it names this issuer and the endpoints sign-in needs. */
export async function checkDiscovery(issuer: string, fetcher: typeof fetch = fetch): Promise<z.infer<typeof DiscoverySchema>> {
  const address = `${issuer}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const response = await fetcher(address, { signal: AbortSignal.timeout(DISCOVERY_CHECK_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`it answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new AdminError(`Could not read ${address} (${(error as Error).message}). Check the issuer address; the provider must be reachable from this server.`);
  }
  const parsed = DiscoverySchema.safeParse(body);
  if (!parsed.success) throw new AdminError(`${address} is not an OpenID Connect discovery document: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}.`);
  if (parsed.data.issuer.replace(/\/+$/, '') !== issuer) {
    throw new AdminError(`${address} names the issuer '${parsed.data.issuer}', not '${issuer}'. Give --issuer exactly as the provider names itself.`);
  }
  return parsed.data;
}

/** The client secret from --client-secret, or the first line of --client-secret-file (one of them, not both). */
function readClientSecret(given: unknown, file: unknown, cwd: string): string {
  if (given !== undefined && file !== undefined) throw new AdminError('Give --client-secret or --client-secret-file, not both.');
  if (file === undefined) return String(given ?? '');
  const at = path.resolve(cwd, String(file));
  try {
    return fs.readFileSync(at, 'utf8').split(/\r?\n/)[0]!.trim();
  } catch (error) {
    throw new AdminError(`Could not read --client-secret-file ${at}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
}

/**
 * What `sso add` sends to a running server's admin socket: --client-secret-file is read here, where the operator's
 * folder and permissions are, and goes as --client-secret over the socket (mode 0600; only the command's first two
 * words are logged). A file that cannot be read goes as an absolute path, for the server to name in its error.
 */
function ssoAddRemoteArgv(argv: string[], io: Pick<AdminIo, 'cwd'>): string[] {
  const [group, name, ...rest] = argv;
  const { tokens } = parseArgs({ args: rest, options: ssoAdd.options, allowPositionals: true, strict: false, tokens: true });
  const file = tokens.find((t) => t.kind === 'option' && t.name === 'client-secret-file' && typeof t.value === 'string');
  if (!file || file.kind !== 'option') return argv;
  const out = [...rest];
  const at = path.resolve(io.cwd, file.value!);
  const inline = out[file.index]!.startsWith('--client-secret-file=');
  let replacement: string[];
  try {
    replacement = ['--client-secret', readClientSecret(undefined, at, io.cwd)];
  } catch {
    replacement = ['--client-secret-file', at];
  }
  out.splice(file.index, inline ? 1 : 2, ...replacement);
  return [group!, name!, ...out];
}

/** The secret that keys stored client secrets: the server's (admin socket), else BETTER_AUTH_SECRET or DATA_DIR's. */
function authSecretOf(io: AdminIo): string {
  return io.authSecret ?? loadAuthSecret(loadConfig().dataDir);
}

/** The address to register at the provider as the redirect (callback) address. */
export function redirectAddress(providerId: string, baseUrl?: string): string {
  const config = loadConfig();
  const origin = baseUrl ?? process.env.PUBLIC_URL ?? `http://localhost:${config.port}`;
  return new URL(`${AUTH_BASE_PATH}/callback/${providerId}`, origin).href;
}

function describe(row: ProviderRow): string[] {
  return [
    `${row.organizationSlug} (${row.organizationName}): provider ${row.id}`,
    `  issuer         ${row.issuer}`,
    `  client id      ${row.clientId}`,
    '  client secret  set (stored encrypted)',
    `  domains        ${row.domains.join(', ')}`,
    `  trust email    ${row.trustEmail ? 'yes: addresses count as verified without email_verified' : 'no: email_verified must be true'}`,
    `  default role   ${row.defaultRole === 'TEACHER' ? 'teacher' : 'none (the user picks one)'}`,
    `  redirect       ${redirectAddress(row.id)}`,
  ];
}

const ssoAdd: AdminCommand = {
  summary: "add (or replace) an organization's OpenID Connect provider for single sign-on",
  usage:
    '<org> --issuer <url> --client-id <id> (--client-secret <secret> | --client-secret-file <file>) --domain <domain> [--domain …] [--trust-email] [--default-role teacher|none]',
  details: [
    '<org>                  the organization slug (or id)',
    "--issuer url           the provider's issuer; https:// (http:// on localhost only). Discovery is read from <url>/.well-known/openid-configuration",
    '--client-id id         the client (application) id the provider gave Lectern',
    '--client-secret s      its secret: stored encrypted, never printed',
    '--client-secret-file f read the secret from a file instead (first line), so it stays out of shell history and ps',
    "--domain domain        the school's email domain; repeat for several. It becomes the organization's verified domain",
    '--trust-email          treat the provider\'s addresses as verified even without email_verified: true (off by default)',
    '--default-role r       teacher or none (default none): the role of a first sign-in the roster does not name',
  ],
  options: {
    issuer: { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'client-secret-file': { type: 'string' },
    domain: { type: 'string', multiple: true },
    'trust-email': { type: 'boolean' },
    'default-role': { type: 'string' },
  },
  remoteArgv: (argv, io) => ssoAddRemoteArgv(argv, io),
  async run({ positionals, values }, io) {
    const issuer = IssuerSchema.safeParse(values.issuer ?? '');
    if (!issuer.success) throw new AdminError(values.issuer ? issuer.error.issues[0]!.message : '--issuer is required.');
    const role = values['default-role'] ?? 'none';
    if (role !== 'teacher' && role !== 'none') throw new AdminError(`--default-role takes teacher or none, not '${String(role)}'.`);
    const domains = (values.domain as unknown as string[] | undefined) ?? [];
    const clientSecret = readClientSecret(values['client-secret'], values['client-secret-file'], io.cwd);
    await checkDiscovery(issuer.data);
    const { provider, replaced } = await withDatabase(io, (database) =>
      addSsoProvider(
        database.db,
        {
          organization: positionals[0]!,
          issuer: issuer.data,
          clientId: String(values['client-id'] ?? ''),
          clientSecret,
          domains,
          trustEmail: values['trust-email'] === true,
          defaultRole: role,
        },
        authSecretOf(io),
      ),
    );
    io.out(`${replaced ? 'Replaced' : 'Added'} single sign-on for ${provider.organizationSlug}; it works at once, without a restart.`);
    for (const line of describe(provider)) io.out(line);
    io.out(`Register the redirect address above with the provider (behind PUBLIC_URL in production).`);
    return 0;
  },
};

const ssoList = databaseCall(
  {
    summary: "list the organizations' single sign-on providers (secrets are never shown)",
    usage: '[<org>]',
    details: ['<org>  only this organization (slug or id)'],
  },
  (database, [org]) => listSsoProviders(database.db, org),
  (rows, [org]) => {
    if (!rows.length) return org ? `${org} has no single sign-on provider.` : 'No single sign-on providers. Add one with: sso add <org> --issuer <url> …';
    return rows.flatMap(describe);
  },
);

const ssoRemove = databaseCall(
  {
    summary: "remove an organization's single sign-on provider (its users' accounts and memberships stay)",
    usage: '<org>',
    details: ['<org>  the organization slug (or id)'],
  },
  (database, [org]) => removeSsoProvider(database.db, org!),
  (removed, [org]) =>
    removed ? `Removed single sign-on for ${org}. Its users sign in with a password now (Forgot password? sets one).` : `${org} had no single sign-on provider; nothing changed.`,
);

export const SSO_COMMANDS: Record<string, Record<string, AdminCommand>> = { sso: { add: ssoAdd, list: ssoList, remove: ssoRemove } };
