/**
 * `npm run admin -- sso add|list|remove` (server/sso/adminCommands.ts) against a PGlite data directory, as the
 * operator runs them, with a real OpenID provider to discover: the secret is stored encrypted and never printed,
 * and bad issuers and domains get clear errors.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/commands';
import { openDatabase } from '../../server/db/client';
import { ssoProviders } from '../../server/db/schema';
import { loadAuthSecret } from '../../server/auth/config';
import { decryptSecret } from '../../server/sso/secrets';
import { startOidcProvider, type OidcProviderHandle } from '../support/oidcProvider';
import { restoreEnv } from './harness';
import { SSO_COMMANDS } from '../../server/sso/adminCommands';

let dataDir: string;
let idp: OidcProviderHandle;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET };
const SECRET = 'district-secret-do-not-print';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-sso-admin-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  delete process.env.BETTER_AUTH_SECRET;
  idp = await startOidcProvider({});
});

afterAll(async () => {
  await idp?.stop();
  restoreEnv(saved);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), contentDir: dataDir, cwd: dataDir });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('admin CLI: single sign-on providers', () => {
  it('adds a provider after reading its discovery, prints the redirect address and never the secret', async () => {
    expect((await admin('org', 'create', 'Maple School', '--slug', 'maple')).code).toBe(0);
    const added = await admin('sso', 'add', 'maple', '--issuer', idp.issuer, '--client-id', 'lectern', '--client-secret', SECRET, '--domain', 'Maple.School', '--domain', 'maple.k12.example', '--default-role', 'teacher');
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('Added single sign-on for maple');
    expect(added.out).toContain('/api/v1/auth/callback/sso-maple');
    expect(added.out).toContain('maple.school, maple.k12.example');
    expect(added.out).toContain('default role   teacher');
    expect(added.out + added.err).not.toContain(SECRET);

    const listed = await admin('sso', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('client secret  set (stored encrypted)');
    expect(listed.out).not.toContain(SECRET);

    // Stored encrypted with the key the server will use (DATA_DIR/auth-secret), not in the clear.
    const database = await openDatabase({ dataDir });
    try {
      const [row] = await database.db.select().from(ssoProviders);
      expect(row!.clientSecret).not.toContain(SECRET);
      expect(decryptSecret(row!.clientSecret, loadAuthSecret(dataDir))).toBe(SECRET);
      expect(decryptSecret(row!.clientSecret, 'another-secret-of-at-least-32-characters')).toBeNull();
    } finally {
      await database.close();
    }
  });

  it('refuses bad issuers, domains, roles and organizations with clear messages', async () => {
    const base = ['--client-id', 'x', '--client-secret', 'y', '--domain', 'oak.school'];
    const plainHttp = await admin('sso', 'add', 'maple', '--issuer', 'http://login.example.org', ...base);
    expect(plainHttp.code).toBe(1);
    expect(plainHttp.err).toMatch(/must be an https:\/\/ address \(http:\/\/ is accepted on localhost only\)/);
    const unreachable = await admin('sso', 'add', 'maple', '--issuer', 'http://127.0.0.1:9', ...base);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/Could not read http:\/\/127\.0\.0\.1:9\/\.well-known\/openid-configuration/);
    const wrongIssuer = await admin('sso', 'add', 'maple', '--issuer', `${idp.issuer}/other`, ...base);
    expect(wrongIssuer.code).toBe(1);
    const badDomain = await admin('sso', 'add', 'maple', '--issuer', idp.issuer, '--client-id', 'x', '--client-secret', 'y', '--domain', 'not a domain');
    expect(badDomain.code).toBe(1);
    expect(badDomain.err).toMatch(/A domain looks like school\.org/);
    const noDomain = await admin('sso', 'add', 'maple', '--issuer', idp.issuer, '--client-id', 'x', '--client-secret', 'y');
    expect(noDomain.err).toMatch(/at least one --domain/);
    const badRole = await admin('sso', 'add', 'maple', '--issuer', idp.issuer, ...base, '--default-role', 'principal');
    expect(badRole.err).toMatch(/--default-role takes teacher or none/);
    const noOrg = await admin('sso', 'add', 'nowhere', '--issuer', idp.issuer, ...base);
    expect(noOrg.err).toMatch(/No organization 'nowhere'/);
    expect((await admin('org', 'create', 'Oak School', '--slug', 'oak')).code).toBe(0);
    const taken = await admin('sso', 'add', 'oak', '--issuer', idp.issuer, '--client-id', 'x', '--client-secret', 'y', '--domain', 'maple.school');
    expect(taken.err).toMatch(/The domain maple\.school belongs to maple already/);
  });

  it('reads the secret from --client-secret-file, here or on the way to a running server', async () => {
    fs.writeFileSync(path.join(dataDir, 'oak-secret.txt'), 'oak-secret-from-a-file\n', { mode: 0o600 });
    const added = await admin('sso', 'add', 'oak', '--issuer', idp.issuer, '--client-id', 'oak', '--client-secret-file', 'oak-secret.txt', '--domain', 'oak.school');
    expect(added.code, added.err).toBe(0);
    expect(added.out).not.toContain('oak-secret-from-a-file');
    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.db.select().from(ssoProviders);
      const oak = rows.find((r) => r.id === 'sso-oak')!;
      expect(decryptSecret(oak.clientSecret, loadAuthSecret(dataDir))).toBe('oak-secret-from-a-file');
    } finally {
      await database.close();
    }
    const both = await admin('sso', 'add', 'oak', '--issuer', idp.issuer, '--client-id', 'oak', '--client-secret', 'x', '--client-secret-file', 'oak-secret.txt', '--domain', 'oak.school');
    expect(both.err).toMatch(/--client-secret or --client-secret-file, not both/);
    const missing = await admin('sso', 'add', 'oak', '--issuer', idp.issuer, '--client-id', 'oak', '--client-secret-file', 'nope.txt', '--domain', 'oak.school');
    expect(missing.err).toMatch(/Could not read --client-secret-file .*nope\.txt: ENOENT/);
    // Through a running server's admin socket the file is read by the CLI, where the operator's folder is.
    const remote = SSO_COMMANDS.sso!.add!.remoteArgv!(['sso', 'add', 'oak', '--client-secret-file', 'oak-secret.txt', '--domain', 'oak.school'], { cwd: dataDir } as never);
    expect(remote).toEqual(['sso', 'add', 'oak', '--client-secret', 'oak-secret-from-a-file', '--domain', 'oak.school']);
    const inline = SSO_COMMANDS.sso!.add!.remoteArgv!(['sso', 'add', 'oak', '--client-secret-file=gone.txt'], { cwd: dataDir } as never);
    expect(inline).toEqual(['sso', 'add', 'oak', '--client-secret-file', path.join(dataDir, 'gone.txt')]);
  });

  it('lists one organization and removes its provider', async () => {
    expect((await admin('sso', 'remove', 'oak')).code).toBe(0);
    expect((await admin('sso', 'list', 'oak')).out).toBe('oak has no single sign-on provider.');
    const removed = await admin('sso', 'remove', 'maple');
    expect(removed.code).toBe(0);
    expect(removed.out).toMatch(/^Removed single sign-on for maple/);
    expect((await admin('sso', 'remove', 'maple')).out).toMatch(/had no single sign-on provider; nothing changed/);
    expect((await admin('sso', 'list')).out).toMatch(/^No single sign-on providers/);
  });
});
