/** Shared helpers for the server integration suite: a fixture library on disk and a real server on PGlite. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pino from 'pino';
import { MIGRATIONS_DIR, openDatabase } from '../../server/db/client';
import { startServer, type RunningServer, type StartOptions } from '../../server/server';
import type { TranslationProvider } from '../../server/content/translation';
import { createOrganization, grantLicense, makeOrgAdmin, makeTeacher } from '../../server/accounts/service';
import { CONTENT_TYPES, type ContentType } from '../../src/domain/schemas';

const COVER = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40"><rect width="30" height="40" fill="#103a3a"/></svg>';

export interface FixtureTitle {
  slug: string;
  title: string;
  author: string;
  createdAt: string;
  editions?: Record<string, string>;
  extraYaml?: string;
}

/** Three hand-made titles plus `fillers` generated ones (for paging). */
export function writeFixtureLibrary(fillers = 20): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lectern-fixture-'));
  const titles: FixtureTitle[] = [
    {
      slug: 'alpha-owls',
      title: 'Alpha Owls at Night',
      author: 'Zora Quill',
      createdAt: '2026-01-05',
      editions: {
        'en.ORIGINAL': '# Part One\n## Chapter 1\nOwls hunt at night with silent wings.\n\n---\n\nThey see well in the dark.\n\n---\n\n## Chapter 2\nMorning comes and owls sleep.',
        'en.GOLD': '## Chapter 1\nOwls hunt at night.\n\n---\n\nOwls see in the dark.\n\n---\n\n## Chapter 2\nOwls sleep in the day.',
        'es.ORIGINAL': '## Capítulo 1\nLos búhos cazan de noche.\n\n---\n\nVen bien en la oscuridad.\n\n---\n\n## Capítulo 2\nLlega la mañana.',
        'ar.ORIGINAL': '## الفصل الأول\nتصطاد البوم ليلًا.\n\n---\n\nترى جيدًا في الظلام.\n\n---\n\n## الفصل الثاني\nيأتي الصباح.',
        // An on-demand source: imported, built only when asked for.
        'sources/es.GOLD': '## Capítulo 1\nLos búhos cazan.\n\n---\n\nVen en la noche.\n\n---\n\n## Capítulo 2\nDuermen de día.',
      },
      extraYaml:
        'defaultReader:\n  left: en:ORIGINAL\n  right: es:ORIGINAL\neditions:\n  en.ORIGINAL:\n    lexile: 640L\ninfo:\n  - title: About\n    body: <p>Owls <em>rule</em>.</p><script>bad()</script>\nqr:\n  - code: owls-1\n    edition: en:ORIGINAL\n    position: 2\n',
    },
    {
      slug: 'beacon-bay',
      title: 'Beacon Bay',
      author: 'Adrian Moss',
      createdAt: '2026-06-01',
      editions: { 'en.SILVER': 'The bay is calm.\n\n---\n\nThe light is on.' },
      extraYaml: 'renderingMode: ILLUSTRATED\ndefaultReader:\n  left: en:SILVER\n',
    },
    {
      slug: 'cedar-and-stone',
      title: 'Cedar and Stone',
      author: 'Beatrix Alder',
      createdAt: '2025-12-24',
      editions: { 'en.ORIGINAL': 'A cedar grew beside a stone.' },
      extraYaml: 'defaultReader:\n  left: en:ORIGINAL\n',
    },
  ];
  for (let i = 1; i <= fillers; i++) {
    const n = String(i).padStart(2, '0');
    titles.push({
      slug: `filler-${n}`,
      title: `Zz Filler ${n}`,
      author: `Yy Writer ${n}`,
      createdAt: `2025-01-${n}`,
      editions: { 'en.ORIGINAL': `Filler passage ${n}.` },
      extraYaml: 'defaultReader:\n  left: en:ORIGINAL\n',
    });
  }
  for (const t of titles) {
    const pubDir = path.join(dir, t.slug);
    fs.mkdirSync(path.join(pubDir, 'images'), { recursive: true });
    fs.writeFileSync(path.join(pubDir, 'images/cover.svg'), COVER);
    fs.writeFileSync(
      path.join(pubDir, 'publication.yaml'),
      `slug: ${t.slug}\nversion: 1\ntitle: ${t.title}\nauthor: ${t.author}\ncreatedAt: ${t.createdAt}\ncover: images/cover.svg\n${t.extraYaml ?? ''}`,
    );
    for (const [name, text] of Object.entries(t.editions ?? {})) {
      fs.mkdirSync(path.dirname(path.join(pubDir, `${name}.md`)), { recursive: true });
      fs.writeFileSync(path.join(pubDir, `${name}.md`), text);
    }
  }
  return dir;
}

export const silentLogger = () => pino({ level: 'silent' });

/**
 * A migrated, empty PGlite saved once per migration set and restored for each in-memory server: restoring
 * takes well under a second, where a fresh in-memory instance runs initdb for 2–4 s.
 */
async function migratedSnapshot(): Promise<Blob> {
  const hash = crypto.createHash('sha256');
  for (const f of fs.readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()) {
    const full = path.join(MIGRATIONS_DIR, f);
    if (fs.statSync(full).isFile()) hash.update(f).update(fs.readFileSync(full));
  }
  const file = path.join(os.tmpdir(), `lectern-pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`);
  if (!fs.existsSync(file)) {
    const database = await openDatabase({ dataDir: 'memory://' });
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client;
    const blob = await client.dumpDataDir('gzip');
    await database.close();
    const tmp = `${file}.${process.pid}`;
    fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(tmp, file);
  }
  return new Blob([fs.readFileSync(file)]);
}

export async function startFixtureServer(
  options: {
    dataDir?: string;
    contentDir?: string;
    translationProvider?: TranslationProvider | null;
    /** Accounts: rate-limit overrides and environment (TRUST_PROXY, PUBLIC_URL). */
    accounts?: StartOptions['accounts'];
    /** A built web app to serve (server/http/static.ts). */
    distDir?: string;
  } = {},
): Promise<RunningServer> {
  const inMemory = !options.dataDir;
  return startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: options.dataDir ?? 'memory://',
    loadDataDir: inMemory ? await migratedSnapshot() : undefined,
    translationProvider: options.translationProvider ?? null,
    contentDir: options.contentDir ?? writeFixtureLibrary(),
    logger: silentLogger(),
    accounts: options.accounts,
    distDir: options.distDir,
  });
}

export async function getJson(server: RunningServer, pathname: string, init?: RequestInit) {
  const response = await fetch(server.url + pathname, init);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as any };
}

/** The cookies a response sets, as a Cookie header. */
export function cookiesOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

let accountCounter = 0;
/** A password that passes the strength check. */
export const TEST_PASSWORD = 'violet-harbor-lantern';

/**
 * Sign up a fresh user through the API and return their session cookie. `ip` goes in X-Forwarded-For (honoured
 * only on a server started with TRUST_PROXY).
 */
export async function signUpUser(server: RunningServer, options: { name?: string; ip?: string; email?: string } = {}) {
  const email = options.email ?? `user.${process.pid}.${Date.now()}.${accountCounter++}@example.org`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Origin: server.url };
  if (options.ip) headers['X-Forwarded-For'] = options.ip;
  const res = await fetch(`${server.url}/api/v1/auth/sign-up/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: TEST_PASSWORD, name: options.name ?? 'Test Reader' }),
  });
  if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { email, userId: body.user.id, cookie: cookiesOf(res.headers) };
}

/**
 * A signed-in teacher of a fresh school licensed with `features` (every content type by default), made through
 * the functions the admin CLI uses: the entitled reader of the tests that read gated content.
 */
export async function licensedTeacher(server: RunningServer, features: readonly ContentType[] = CONTENT_TYPES, options: { ip?: string } = {}) {
  const account = await signUpUser(server, { name: 'Licensed Teacher', ip: options.ip });
  const db = server.database.db;
  await makeTeacher(db, account.email);
  const org = await createOrganization(db, `School ${process.pid} ${Date.now()} ${accountCounter++}`);
  await makeOrgAdmin(db, account.email, org.slug);
  await grantLicense(db, org.slug, [...features], null);
  return { ...account, org };
}

const entitled = new WeakMap<RunningServer, Promise<string>>();
/**
 * The session cookie of one teacher licensed with everything, made once per server: for tests that read gated
 * content and are not about who may (tests/server/authorization.test.ts is).
 */
export function entitledCookie(server: RunningServer): Promise<string> {
  let cookie = entitled.get(server);
  if (!cookie) {
    cookie = licensedTeacher(server).then((t) => t.cookie);
    entitled.set(server, cookie);
  }
  return cookie;
}

/** Run `fn` with environment variables set (the server reads narration settings when it starts). */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    restoreEnv(saved);
  }
}

/** Put environment variables back as they were saved (undefined: not set). */
export function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
