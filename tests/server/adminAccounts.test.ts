/**
 * `npm run admin -- org|license|user …` (server/users/adminCommands.ts) against a PGlite data directory, as the
 * operator runs them: usage and errors, and the refusal while a server holds the directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { runAdmin } from '../../server/admin/commands';
import { openDatabase } from '../../server/db/client';
import { acquireDataDirLock } from '../../server/db/lock';
import { member, organization, session, user, userRoles } from '../../server/db/schema';
import { featuresOf } from '../../server/accounts/service';
import { restoreEnv } from './harness';

let dataDir: string;
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-admin-'));
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  const database = await openDatabase({ dataDir });
  await database.db.insert(user).values({ id: 'user-ada', name: 'Ada Teacher', email: 'Ada@Example.org', emailVerified: false });
  await database.close();
});

afterAll(() => {
  restoreEnv(saved);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function admin(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), contentDir: dataDir, cwd: dataDir });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('admin CLI: organizations, licenses and users', () => {
  it('lists the account commands in its usage', async () => {
    const { code, out } = await admin('--help');
    expect(code).toBe(0);
    for (const line of ['org create', 'license grant', 'license revoke', 'license list', 'user teacher', 'user org-admin', 'user delete']) expect(out).toContain(line);
  });

  it('creates an organization, refuses a duplicate', async () => {
    const created = await admin('org', 'create', 'Hillside Primary');
    expect(created.code, created.err).toBe(0);
    expect(created.out).toMatch(/Created organization 'Hillside Primary' \(slug hillside-primary, id /);
    const again = await admin('org', 'create', 'Hillside  Primary!');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^error: An organization with the slug 'hillside-primary' exists already/);
    expect((await admin('org', 'create')).code).toBe(2);
  });

  it('grants, lists and revokes licenses, with clear errors', async () => {
    const granted = await admin('license', 'grant', 'hillside-primary', 'levels, AUDIO', '--expires', '2999-06-30');
    expect(granted.code, granted.err).toBe(0);
    expect(granted.out).toContain('Licensed hillside-primary: AUDIO, LEVELS, valid through 2999-06-30');

    const bad = await admin('license', 'grant', 'hillside-primary', 'AUDIO,PODCASTS');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('Unknown feature(s): PODCASTS. The features are AUDIO, DECODE, GROUP_CODES, LANGUAGES, LEVELS, USER_UPLOAD.');
    const badDate = await admin('license', 'grant', 'hillside-primary', 'AUDIO', '--expires', '30/06/2999');
    expect(badDate.code).toBe(1);
    expect(badDate.err).toContain('YYYY-MM-DD');
    const impossible = await admin('license', 'grant', 'hillside-primary', 'AUDIO', '--expires', '2999-02-30');
    expect(impossible.code).toBe(1);
    const noOrg = await admin('license', 'grant', 'nowhere', 'AUDIO');
    expect(noOrg.code).toBe(1);
    expect(noOrg.err).toContain("No organization 'nowhere'");
    const unknownOption = await admin('license', 'grant', 'hillside-primary', 'AUDIO', '--until', '2999-01-01');
    expect(unknownOption.code).toBe(2);

    const list = await admin('license', 'list');
    expect(list.code).toBe(0);
    expect(list.out.split('\n')[0]).toMatch(/^ORGANIZATION\s+NAME\s+KIND\s+FEATURES\s+EXPIRES\s+STATUS\s+MEMBERS$/);
    expect(list.out).toMatch(/hillside-primary\s+Hillside Primary\s+standard\s+AUDIO,LEVELS\s+2999-06-30\s+valid\s+0/);

    expect((await admin('license', 'revoke', 'hillside-primary')).out).toContain('Revoked the license of hillside-primary');
    expect((await admin('license', 'revoke', 'hillside-primary')).out).toContain('had no license');
    expect((await admin('license', 'list')).out).toContain('No licenses');
  });

  it("grants a free trial: kind 'ar-free-trial', through today + 30 days unless --expires says otherwise", async () => {
    const today = new Date();
    const in30 = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 30)).toISOString().slice(0, 10);
    const trial = await admin('license', 'grant', 'hillside-primary', 'AUDIO,LEVELS', '--trial');
    expect(trial.code, trial.err).toBe(0);
    expect(trial.out).toContain(`Licensed hillside-primary with a free trial (ar-free-trial): AUDIO, LEVELS, valid through ${in30}.`);
    expect((await admin('license', 'list')).out).toMatch(new RegExp(`hillside-primary\\s+Hillside Primary\\s+ar-free-trial\\s+AUDIO,LEVELS\\s+${in30}\\s+valid`));

    const longer = await admin('license', 'grant', 'hillside-primary', 'ALL', '--trial', '--expires', '2999-01-31');
    expect(longer.code, longer.err).toBe(0);
    expect(longer.out).toContain('free trial (ar-free-trial)');
    expect(longer.out).toContain('valid through 2999-01-31');

    // A standard grant replaces the trial, kind included.
    expect((await admin('license', 'grant', 'hillside-primary', 'AUDIO')).code).toBe(0);
    expect((await admin('license', 'list')).out).toMatch(/hillside-primary\s+Hillside Primary\s+standard\s+AUDIO\s+never\s+valid/);
    expect((await admin('license', 'revoke', 'hillside-primary')).code).toBe(0);
  });

  it('makes a signed-up user a teacher and an org admin, who then holds the license features', async () => {
    const missing = await admin('user', 'teacher', 'nobody@example.org');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("No user with the email 'nobody@example.org'");
    expect((await admin('user', 'teacher', 'ada@example.org')).out).toContain('Ada@Example.org is a teacher now.');
    expect((await admin('user', 'org-admin', 'ada@example.org', 'hillside-primary')).out).toContain('is an admin of hillside-primary now.');
    expect((await admin('license', 'grant', 'hillside-primary', 'ALL')).code).toBe(0);

    const database = await openDatabase({ dataDir });
    try {
      const [role] = await database.db.select().from(userRoles).where(eq(userRoles.userId, 'user-ada'));
      expect(role?.role).toBe('TEACHER');
      const [membership] = await database.db.select({ role: member.role, slug: organization.slug }).from(member).innerJoin(organization, eq(member.organizationId, organization.id));
      expect(membership).toEqual({ role: 'admin', slug: 'hillside-primary' });
      expect(await featuresOf(database.db, 'user-ada')).toEqual(['AUDIO', 'DECODE', 'GROUP_CODES', 'LANGUAGES', 'LEVELS', 'USER_UPLOAD']);
    } finally {
      await database.close();
    }
  });

  it('deletes a user with everything tied to the account', async () => {
    const database = await openDatabase({ dataDir });
    try {
      await database.db.insert(user).values({ id: 'user-bo', name: 'Bo Reader', email: 'bo@example.org', emailVerified: false });
      await database.db.insert(userRoles).values({ userId: 'user-bo', role: 'TEACHER' });
      await database.db.insert(session).values({ id: 's-bo', token: 'tok-bo', userId: 'user-bo', expiresAt: new Date(Date.now() + 60_000), createdAt: new Date(), updatedAt: new Date() });
    } finally {
      await database.close();
    }
    const missing = await admin('user', 'delete', 'nobody@example.org');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("No user with the email 'nobody@example.org'");
    expect((await admin('user', 'delete')).code).toBe(2);
    const deleted = await admin('user', 'delete', 'BO@example.org');
    expect(deleted.code, deleted.err).toBe(0);
    expect(deleted.out).toBe('Deleted bo@example.org.');
    const after = await openDatabase({ dataDir });
    try {
      expect(await after.db.select().from(user).where(eq(user.id, 'user-bo'))).toEqual([]);
      expect(await after.db.select().from(userRoles).where(eq(userRoles.userId, 'user-bo'))).toEqual([]);
      expect(await after.db.select().from(session).where(eq(session.userId, 'user-bo'))).toEqual([]);
      expect(await after.db.select().from(user).where(eq(user.id, 'user-ada'))).toHaveLength(1);
    } finally {
      await after.close();
    }
  });

  it('refuses clearly while a server holds the data directory', async () => {
    // DATA_DIR's lock (server/db/lock.ts) held as a server holds it, with no admin socket to send the command to.
    const lock = await acquireDataDirLock(dataDir, 'server');
    try {
      const held = await admin('license', 'list');
      expect(held.code).toBe(1);
      expect(held.err).toContain(`The embedded database in ${dataDir} is in use by another process, and PGlite allows one process at a time`);
      expect(held.err).toContain(`pid ${process.pid} (server: `);
      expect(held.err).toContain('did not answer');
    } finally {
      lock.release();
    }
    expect((await admin('license', 'list')).code).toBe(0);
  });
});
