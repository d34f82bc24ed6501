import { expect, test } from '@playwright/test';
import { admin, AdminCommandError } from './support/admin';

/** The admin CLI against the running e2e server: its commands reach the server's database through the admin socket. */
test.describe('Admin CLI while the app runs', () => {
  test('license list works while the server runs', async () => {
    const out = await admin('license', 'list');
    expect(out).toMatch(/^(No licenses\.|ORGANIZATION\s+NAME)/);
  });

  test('org create and license grant show in license list', async () => {
    const slug = `e2e-school-${Date.now()}`;
    expect(await admin('org', 'create', 'E2E School', '--slug', slug)).toContain(`Created organization 'E2E School' (slug ${slug}`);
    expect(await admin('license', 'grant', slug, 'AUDIO,GROUP_CODES', '--expires', '2999-12-31')).toContain(
      `Licensed ${slug}: AUDIO, GROUP_CODES, valid through 2999-12-31.`,
    );
    expect(await admin('license', 'list')).toMatch(new RegExp(`${slug}\\s+E2E School\\s+standard\\s+AUDIO,GROUP_CODES\\s+2999-12-31\\s+valid\\s+0`));

    const error = await admin('license', 'grant', 'no-such-school', 'AUDIO').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AdminCommandError);
    expect((error as AdminCommandError).exitCode).toBe(1);
    expect((error as AdminCommandError).stderr).toContain("No organization 'no-such-school'");
  });
});
