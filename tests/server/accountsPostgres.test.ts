/**
 * Accounts on a real PostgreSQL (DATABASE_URL): better-auth's drizzle adapter signs up and in, and the admin CLI
 * licenses the user while the server runs (PostgreSQL, unlike PGlite, allows both at once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/server';
import { runAdmin } from '../../server/admin/commands';
import { getJson, silentLogger, writeFixtureLibrary } from './harness';
import { postgresAvailable, startPgCluster, type PgCluster } from './pg-cluster';

describe.runIf(postgresAvailable())('accounts on a real PostgreSQL (DATABASE_URL)', () => {
  let cluster: PgCluster;
  let server: RunningServer;
  const saved = process.env.DATABASE_URL;

  beforeAll(async () => {
    cluster = startPgCluster();
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      databaseUrl: cluster.url,
      dataDir: undefined,
      contentDir: writeFixtureLibrary(0),
      logger: silentLogger(),
      accounts: { env: {} },
    });
    process.env.DATABASE_URL = cluster.url;
  }, 90_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    await server?.stop();
    cluster?.stop();
  });

  const admin = async (...argv: string[]) => {
    const lines: string[] = [];
    const code = await runAdmin(argv, { out: (l) => lines.push(l), err: (l) => lines.push(l), contentDir: '.', cwd: '.' });
    return { code, text: lines.join('\n') };
  };

  it('signs up, is made a licensed teacher by the CLI while the server runs, and gets a class code', async () => {
    const headers = { 'Content-Type': 'application/json', Origin: server.url };
    const email = `pg.teacher.${Date.now()}@example.org`;
    const signUp = await getJson(server, '/api/v1/auth/sign-up/email', {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password: 'granite-meadow-71', name: 'Pat Postgres' }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    expect((await admin('org', 'create', 'Harbor High')).code).toBe(0);
    expect((await admin('user', 'teacher', email)).code).toBe(0);
    expect((await admin('user', 'org-admin', email, 'harbor-high')).code).toBe(0);
    const grant = await admin('license', 'grant', 'harbor-high', 'GROUP_CODES,AUDIO');
    expect(grant.code, grant.text).toBe(0);
    expect((await admin('license', 'list')).text).toMatch(/harbor-high\s+Harbor High\s+standard\s+AUDIO,GROUP_CODES\s+never\s+valid\s+1/);

    const me = await getJson(server, '/api/v1/users/me', { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role: 'TEACHER', features: ['AUDIO', 'GROUP_CODES'], organizationMemberships: [{ role: 'org:admin', organization: { slug: 'harbor-high' } }] });
    expect(me.body.groupCode).toMatch(/^[A-Z0-9]{8}$/);
    const visitor = await getJson(server, '/api/v1/visitors/me', { headers: { 'X-Group-Code': me.body.groupCode } });
    expect(visitor.body).toEqual({ groupCodeValid: true, features: ['AUDIO'], titleIds: [] });

    const wrong = await getJson(server, '/api/v1/auth/sign-in/email', { method: 'POST', headers, body: JSON.stringify({ email, password: 'not-it-at-all' }) });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe('invalid_credentials');
  });
});
