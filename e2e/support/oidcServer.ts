/**
 * The school's OpenID Connect provider for the single sign-on e2e specs:
 *   node --import tsx e2e/support/oidcServer.ts
 * Serves tests/support/oidcProvider.ts on 127.0.0.1:$OIDC_PORT (default 3101) with three accounts (password
 * 'secret') and one client, `lectern-e2e`, whose redirect URI is the e2e app's callback for the provider id
 * `sso-maple`. Prints one line when ready; `GET /health` answers 200 (Playwright's webServer.url). Stops on SIGTERM
 * and SIGINT.
 *
 * Specs may import the constants below: the provider starts only when this file is the script being run.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startOidcProvider, type TestAccount } from '../../tests/support/oidcProvider';

export const E2E_OIDC_CLIENT_ID = 'lectern-e2e';
export const E2E_OIDC_CLIENT_SECRET = 'e2e-secret-not-real';
export const E2E_OIDC_PROVIDER_ID = 'sso-maple';
export const E2E_OIDC_PASSWORD = 'secret';

export const E2E_OIDC_ACCOUNTS: TestAccount[] = [
  { id: 'maple-teacher-1', email: 'teacher@maple.school', emailVerified: true, name: 'Tess Teacher' },
  { id: 'maple-unverified-1', email: 'unverified@maple.school', emailVerified: false, name: 'Una Verified' },
  { id: 'maple-principal-1', email: 'principal@maple.school', emailVerified: true, name: 'Pat Principal' },
];

export const E2E_OIDC_PORT = Number(process.env.OIDC_PORT ?? 3101);
export const E2E_OIDC_ISSUER = `http://127.0.0.1:${E2E_OIDC_PORT}`;
const appPort = Number(process.env.E2E_PORT ?? 3100);

function isMainScript(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const handle = await startOidcProvider({
    port: E2E_OIDC_PORT,
    host: '127.0.0.1',
    accounts: E2E_OIDC_ACCOUNTS,
    clients: [
      {
        clientId: E2E_OIDC_CLIENT_ID,
        clientSecret: E2E_OIDC_CLIENT_SECRET,
        redirectUris: [`http://127.0.0.1:${appPort}/api/v1/auth/callback/${E2E_OIDC_PROVIDER_ID}`],
      },
    ],
  });

  console.log(`OpenID provider ready at ${handle.issuer} (client ${E2E_OIDC_CLIENT_ID}, discovery ${handle.issuer}/.well-known/openid-configuration)`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    handle.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`OpenID provider: stopping on ${signal} failed:`, err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

if (isMainScript()) {
  main().catch((err: unknown) => {
    console.error('OpenID provider: could not start:', err);
    process.exit(1);
  });
}
