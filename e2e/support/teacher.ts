/**
 * A licensed teacher for the e2e suite, made through the API (sign-up, the TEACHER role, so the role modal stays
 * away) and the operator's CLI (an organization with every feature), once per run (kept in E2E_DATA_DIR, as
 * e2e/support/licensed.ts keeps its reader):
 *
 *   test.use(asLicensedTeacher);
 *
 * Their Free Library shows the class-code banner and eye toggles, and their Classroom Library the Teachers Only view.
 */
import fs from 'node:fs';
import path from 'node:path';
import { request } from '@playwright/test';
import { admin } from './admin';
import { ALL_FEATURES, type StorageState } from './licensed';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DATA_DIR = path.resolve(ROOT, process.env.E2E_DATA_DIR ?? '.data-e2e');
/** Kept beside the e2e server's data (emptied at each start), so a worker restarted after a failure reuses it. */
const CACHE = path.join(DATA_DIR, 'e2e-licensed-teacher.json');

let pending: Promise<StorageState> | null = null;

async function load(baseURL: string): Promise<StorageState> {
  try {
    const cached = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as { baseURL: string; storageState: StorageState };
    if (cached.baseURL === baseURL) return cached.storageState;
  } catch {
    // Not made yet in this run.
  }
  const storageState = await create(baseURL);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(CACHE, JSON.stringify({ baseURL, storageState }), { mode: 0o600 });
  return storageState;
}

async function create(baseURL: string): Promise<StorageState> {
  const stamp = `${process.pid}-${Date.now()}`;
  const email = `teacher.${stamp}@example.org`;
  const organization = `e2e-teacher-${stamp}`;
  // The server refuses state-changing requests whose Origin is not its own (CSRF check).
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  try {
    const signUp = await api.post('/api/v1/auth/sign-up/email', { data: { email, password: 'amber-orchard-lantern', name: 'Tess Teacher' } });
    if (!signUp.ok()) throw new Error(`sign-up answered ${signUp.status()}: ${await signUp.text()}`);
    const role = await api.patch('/api/v1/users/me/role', { data: { role: 'TEACHER' } });
    if (!role.ok()) throw new Error(`setting the role answered ${role.status()}: ${await role.text()}`);
    await admin('org', 'create', 'E2E Teacher School', '--slug', organization);
    await admin('user', 'org-admin', email, organization);
    await admin('license', 'grant', organization, ALL_FEATURES);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/** `test.use(asLicensedTeacher)`: every page of the test runs signed in as this run's licensed teacher. */
export const asLicensedTeacher = {
  storageState: async ({ baseURL }: { baseURL: string | undefined }, use: (state: StorageState) => Promise<void>) => {
    if (!baseURL) throw new Error('asLicensedTeacher needs the baseURL of playwright.config.ts');
    pending ??= load(baseURL).catch((error: unknown) => {
      pending = null;
      throw error;
    });
    await use(await pending);
  },
};
