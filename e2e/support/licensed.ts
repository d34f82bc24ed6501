/**
 * A licensed reader for the e2e suite: a signed-in user whose school holds a license with every feature (AUDIO,
 * DECODE, GROUP_CODES, LANGUAGES, LEVELS, USER_UPLOAD). The server gates every passage, audio, decode and
 * speech-marks request (src/domain/access.ts), so specs that read premium levels, languages, narration or decode
 * run as this reader:
 *
 *   test.use(asLicensedReader);
 *
 * The account is made once per run, through the API (sign-up, then the role, so the role modal stays away) and the
 * operator's CLI (e2e/support/admin.ts: org create, user org-admin, license grant), and its storage state (the
 * session cookie) is kept in this worker and in E2E_DATA_DIR, which the e2e server empties at every start. The
 * role is INDIVIDUAL, so the catalog and the navbar look as they do for any reader (no teacher tools).
 */
import fs from 'node:fs';
import path from 'node:path';
import { request, type BrowserContext } from '@playwright/test';
import { admin } from './admin';

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Every feature a school license can grant (SPEC §3 content types). */
export const ALL_FEATURES = 'AUDIO,DECODE,GROUP_CODES,LANGUAGES,LEVELS,USER_UPLOAD';
export const LICENSED_PASSWORD = 'violet-harbor-lantern';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DATA_DIR = path.resolve(ROOT, process.env.E2E_DATA_DIR ?? '.data-e2e');
const CACHE = path.join(DATA_DIR, 'e2e-licensed-reader.json');

interface LicensedReader {
  email: string;
  organization: string;
  storageState: StorageState;
}

let pending: Promise<LicensedReader> | null = null;

/** The licensed reader of this run (made on first use). */
export function licensedReader(baseURL: string): Promise<LicensedReader> {
  pending ??= load(baseURL).catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** Its storage state, for `test.use({ storageState })` or `browser.newContext({ storageState })`. */
export async function licensedStorageState(baseURL: string): Promise<StorageState> {
  return (await licensedReader(baseURL)).storageState;
}

/** `test.use(asLicensedReader)`: every page of the test runs signed in as the licensed reader. */
export const asLicensedReader = {
  storageState: async ({ baseURL }: { baseURL: string | undefined }, use: (state: StorageState) => Promise<void>) => {
    if (!baseURL) throw new Error('asLicensedReader needs the baseURL of playwright.config.ts');
    await use(await licensedStorageState(baseURL));
  },
};

async function load(baseURL: string): Promise<LicensedReader> {
  const cached = readCache(baseURL);
  if (cached) return cached;
  const made = await create(baseURL);
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(CACHE, JSON.stringify({ baseURL, ...made }), { mode: 0o600 });
  return made;
}

/** The cached reader, when it belongs to this server's run and its session still answers. */
function readCache(baseURL: string): LicensedReader | null {
  try {
    const cached = JSON.parse(fs.readFileSync(CACHE, 'utf8')) as LicensedReader & { baseURL: string };
    if (cached.baseURL !== baseURL) return null;
    // The server empties its data directory at start, so a file that is there was written during this run.
    return { email: cached.email, organization: cached.organization, storageState: cached.storageState };
  } catch {
    return null;
  }
}

async function create(baseURL: string): Promise<LicensedReader> {
  const stamp = `${process.pid}-${Date.now()}`;
  const email = `licensed.${stamp}@example.org`;
  const organization = `e2e-licensed-${stamp}`;
  // The server refuses state-changing requests whose Origin is not its own (CSRF check).
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  try {
    const signUp = await api.post('/api/v1/auth/sign-up/email', { data: { email, password: LICENSED_PASSWORD, name: 'Licensed Reader' } });
    if (!signUp.ok()) throw new Error(`sign-up answered ${signUp.status()}: ${await signUp.text()}`);
    const role = await api.patch('/api/v1/users/me/role', { data: { role: 'INDIVIDUAL' } });
    if (!role.ok()) throw new Error(`setting the role answered ${role.status()}: ${await role.text()}`);

    await admin('org', 'create', 'E2E Licensed School', '--slug', organization);
    await admin('user', 'org-admin', email, organization);
    await admin('license', 'grant', organization, ALL_FEATURES);

    const features = await api.get('/api/v1/features/me');
    const granted = ((await features.json()) as { features: string[] }).features;
    for (const feature of ALL_FEATURES.split(',')) {
      if (!granted.includes(feature)) throw new Error(`the licensed reader lacks ${feature}: ${granted.join(', ')}`);
    }
    return { email, organization, storageState: await api.storageState() };
  } finally {
    await api.dispose();
  }
}
